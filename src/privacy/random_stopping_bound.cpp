#include "dpareto/privacy/random_stopping_bound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/composition.hpp"
#include "dpareto/privacy/rdp_conversion.hpp"
#include "log_math.hpp"

namespace dpareto::privacy {

using detail::kInf;

namespace {

void check_stopping_curve(const std::vector<double>& orders, const std::vector<double>& rdp) {
  if (orders.empty() || orders.size() != rdp.size())
    throw InputError("random stopping: " + std::to_string(orders.size()) + " orders but " + std::to_string(rdp.size()) +
                     " RDP values");
}
}  // namespace

std::vector<double> poisson_stopping_rdp(const std::vector<double>& orders, const std::vector<double>& candidate_rdp,
                                         double mu) {
  // The bound's log(μ)/(α−1) term is negative below μ = 1, where it can fall below 0 (a perfectly
  // private base run would get a negative RDP): the theorem gives no valid bound there.
  if (!(mu >= 1) || std::isinf(mu))
    throw InputError("Poisson mean mu = " + format_number(mu) +
                     " must be a finite number >= 1 (below 1 the Papernot-Steinke bound's log(mu) term is not a valid "
                     "bound)");
  check_stopping_curve(orders, candidate_rdp);
  std::vector<double> out(orders.size());
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double alpha = orders[i];
    // e^{ε̂} = 1 + 1/(α−1): the largest ε̂ the theorem allows.
    const double eps_hat = std::log1p(1 / (alpha - 1));
    const double delta_hat = rdp_to_delta(orders, candidate_rdp, eps_hat, Conversion::improved).delta;
    out[i] = candidate_rdp[i] == kInf ? kInf : candidate_rdp[i] + mu * delta_hat + std::log(mu) / (alpha - 1);
  }
  return out;
}

double truncated_negative_binomial_mean(double eta, double gamma) {
  if (!(eta > -1) || std::isinf(eta)) throw InputError("eta = " + format_number(eta) + " must be a finite number > -1");
  if (!(gamma > 0 && gamma < 1)) throw InputError("gamma = " + format_number(gamma) + " must be in (0, 1)");
  if (eta == 0) return (1 / gamma - 1) / std::log(1 / gamma);
  return eta * (1 - gamma) / (gamma * -std::expm1(eta * std::log(gamma)));
}

std::vector<double> truncated_negative_binomial_stopping_rdp(const std::vector<double>& orders,
                                                             const std::vector<double>& candidate_rdp, double eta,
                                                             double gamma) {
  const double log_mean = std::log(truncated_negative_binomial_mean(eta, gamma));
  check_stopping_curve(orders, candidate_rdp);
  // The α̂-dependent part is the same for every α: minimize it once.
  double best_hat = kInf;
  for (std::size_t h = 0; h < orders.size(); ++h) {
    const double a_hat = orders[h];
    if (candidate_rdp[h] == kInf) continue;
    const double v = (1 + eta) * (1 - 1 / a_hat) * candidate_rdp[h] + (1 + eta) * std::log(1 / gamma) / a_hat;
    best_hat = std::min(best_hat, v);
  }
  std::vector<double> out(orders.size());
  for (std::size_t i = 0; i < orders.size(); ++i) out[i] = candidate_rdp[i] + best_hat + log_mean / (orders[i] - 1);
  return out;
}

RdpCurve scored_run_rdp(const RdpCurve& training, double score_epsilon) {
  if (!(score_epsilon > 0) || std::isinf(score_epsilon))
    throw InputError("score epsilon " + format_number(score_epsilon) + " must be a finite number > 0");
  std::vector<double> score;
  for (double alpha : training.orders()) score.push_back(pure_dp_rdp(score_epsilon, alpha));
  return training + RdpCurve(training.orders(), score);
}

RdpCurve random_stopping_rdp(const StoppingRule& rule, const RdpCurve& training, std::optional<double> score_epsilon) {
  const RdpCurve run = score_epsilon ? scored_run_rdp(training, *score_epsilon) : training;
  if (const auto* p = std::get_if<PoissonStopping>(&rule))
    return {run.orders(), poisson_stopping_rdp(run.orders(), run.values(), p->mu)};
  const auto& t = std::get<TruncatedNegativeBinomialStopping>(rule);
  return {run.orders(), truncated_negative_binomial_stopping_rdp(run.orders(), run.values(), t.eta, t.gamma)};
}

}  // namespace dpareto::privacy
