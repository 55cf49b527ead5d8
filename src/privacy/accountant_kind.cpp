// AccountantKind: names, the factory and the DP-SGD ε by either accountant (accountant.hpp).
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/accountant.hpp"
#include "dpareto/privacy/pld_accountant.hpp"

namespace dpareto::privacy {

const char* to_string(AccountantKind kind) {
  return kind == AccountantKind::pld ? "pld" : "rdp";
}

AccountantKind parse_accountant(const std::string& text, const std::string& source) {
  if (text == "rdp") return AccountantKind::rdp;
  if (text == "pld") return AccountantKind::pld;
  throw InputError(source + ": '" + text + "' is not an accountant (rdp or pld)");
}

std::unique_ptr<Accountant> make_accountant(AccountantKind kind) {
  if (kind == AccountantKind::pld) return std::make_unique<PldAccountant>();
  return std::make_unique<RdpAccountant>();
}

EpsilonResult dpsgd_epsilon(AccountantKind kind, Sampling sampling, double q, double sigma, long long steps,
                            double delta) {
  if (kind == AccountantKind::rdp) return dpsgd_epsilon(sampling, q, sigma, steps, delta);
  if (!(delta > 0 && delta < 1)) throw InputError("delta = " + format_number(delta) + " must be in (0, 1)");
  PldAccountant accountant;
  accountant.compose_subsampled_gaussian(sampling, q, sigma, steps);
  return accountant.epsilon(delta);
}

std::vector<EpsilonResult> dpsgd_epsilons(AccountantKind kind, Sampling sampling, double q, double sigma,
                                          const std::vector<long long>& steps, double delta) {
  if (kind == AccountantKind::pld && sampling == Sampling::poisson)
    return pld_subsampled_gaussian_epsilons(q, sigma, steps, delta);
  std::vector<EpsilonResult> out;
  for (long long t : steps) out.push_back(dpsgd_epsilon(kind, sampling, q, sigma, t, delta));
  return out;
}

}  // namespace dpareto::privacy
