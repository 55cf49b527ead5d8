#pragma once
// The accountant seam (issue 19): something that composes privacy events and answers ε(δ) and
// δ(ε). RdpAccountant implements it with RDP curves; PldAccountant (pld_accountant.hpp) with
// privacy-loss distributions.
#include <memory>
#include <string>
#include <vector>

#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/rdp_curve.hpp"

namespace dpareto::privacy {

class Accountant {
 public:
  virtual ~Accountant() = default;
  // `steps` runs of the Gaussian mechanism with noise multiplier sigma on lots drawn by `sampling`
  // at rate q (DP-SGD; dpsgd_accountant.hpp).
  virtual void compose_subsampled_gaussian(Sampling sampling, double q, double sigma, long long steps) = 0;
  // A mechanism known by its RDP curve (tuning bounds, pure-DP scores, votes).
  virtual void compose_rdp(const RdpCurve& curve) = 0;
  virtual EpsilonResult epsilon(double delta) const = 0;
  virtual DeltaResult delta(double epsilon) const = 0;
};

class RdpAccountant final : public Accountant {
 public:
  explicit RdpAccountant(std::vector<double> orders = default_orders(), Conversion conversion = Conversion::improved);
  void compose_subsampled_gaussian(Sampling sampling, double q, double sigma, long long steps) override;
  void compose_rdp(const RdpCurve& curve) override;
  EpsilonResult epsilon(double delta) const override;
  DeltaResult delta(double epsilon) const override;
  // Everything composed so far.
  const RdpCurve& curve() const { return curve_; }

 private:
  RdpCurve curve_;
  Conversion conversion_;
};

// Which accountant: RDP (RdpAccountant, default orders, improved conversion) or PLD
// (PldAccountant, automatic discretization).
enum class AccountantKind { rdp, pld };

// The accountant of DP-training problems, `tune`'s final training, `account dpsgd` and `calibrate`
// when none is named (issue 15: PLD, since it passes every check of tests/privacy/pld_accountant_test.cpp).
inline constexpr AccountantKind kDefaultAccountant = AccountantKind::pld;

// Names for CLI/JSON: "rdp" / "pld"; parsing throws InputError naming `source`.
const char* to_string(AccountantKind kind);
AccountantKind parse_accountant(const std::string& text, const std::string& source);

std::unique_ptr<Accountant> make_accountant(AccountantKind kind);

// ε of `steps` DP-SGD steps by the chosen accountant: AccountantKind::rdp is exactly
// dpsgd_epsilon(sampling, q, sigma, steps, delta) (default orders, improved conversion);
// AccountantKind::pld composes them in a PldAccountant (q in (0, 1], steps >= 1 for Poisson).
EpsilonResult dpsgd_epsilon(AccountantKind kind, Sampling sampling, double q, double sigma, long long steps,
                            double delta);
// dpsgd_epsilon(kind, ...) after each step count in `steps` of one run: PLD with Poisson sampling
// shares one discretization and FFT (pld_subsampled_gaussian_epsilons: upper bounds on the largest
// count's grid); otherwise each is dpsgd_epsilon's answer.
std::vector<EpsilonResult> dpsgd_epsilons(AccountantKind kind, Sampling sampling, double q, double sigma,
                                          const std::vector<long long>& steps, double delta);

}  // namespace dpareto::privacy
