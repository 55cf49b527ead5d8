#include "dpareto/select/tuning_accounting.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <variant>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "dpareto/privacy/composition.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/random_stopping_bound.hpp"

namespace dpareto::select {

std::vector<double> compose(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) throw Error("compose: curves of different lengths");
  std::vector<double> sum(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) sum[i] = a[i] + b[i];
  return sum;
}

std::vector<double> uniform_training_rdp(const std::vector<learn::TrainConfig>& configs, int n,
                                         const std::vector<double>& orders) {
  if (configs.empty()) throw InputError("no candidates to account for");
  std::vector<double> curve(orders.size(), 0.0);
  for (const auto& c : configs) {
    const double q = static_cast<double>(c.lot_size) / n;
    const auto own = privacy::dpsgd_rdp(c.sampling, q, c.noise_multiplier, learn::training_steps(c, n), orders);
    for (std::size_t i = 0; i < curve.size(); ++i) curve[i] = std::max(curve[i], own[i]);
  }
  return curve;
}

std::vector<double> scored_run_rdp(const std::vector<learn::TrainConfig>& configs, int n, double score_epsilon,
                                   const std::vector<double>& orders) {
  return privacy::scored_run_rdp({orders, uniform_training_rdp(configs, n, orders)}, score_epsilon).values();
}

std::vector<double> stopping_rdp(const StoppingRule& rule, const std::vector<double>& orders,
                                 const std::vector<double>& run_rdp) {
  check_stopping_rule(rule);
  return privacy::random_stopping_rdp(rule, {orders, run_rdp}, std::nullopt).values();
}

std::vector<learn::TrainConfig> with_sigma(std::vector<learn::TrainConfig> configs, double sigma) {
  for (auto& c : configs) c.noise_multiplier = sigma;
  return configs;
}

std::vector<double> per_candidate_sigmas(const std::vector<learn::TrainConfig>& configs, int n,
                                         double candidate_epsilon, double delta, const std::vector<double>& orders,
                                         privacy::Conversion conversion) {
  std::map<std::tuple<privacy::Sampling, int, long long>, double> cache;  // σ per (sampling, lot, steps)
  std::vector<double> sigmas;
  for (const auto& c : configs) {
    const auto steps = learn::training_steps(c, n);
    const auto key = std::make_tuple(c.sampling, c.lot_size, steps);
    auto it = cache.find(key);
    if (it == cache.end()) {
      const double q = static_cast<double>(c.lot_size) / n;
      auto eps = [&](double sigma) {
        return privacy::dpsgd_epsilon(c.sampling, q, sigma, steps, delta, orders, conversion).epsilon;
      };
      const double sigma = smallest_meeting_target(eps, privacy::kMinNoiseMultiplier, privacy::kMaxNoiseMultiplier,
                                                   candidate_epsilon, "per-candidate epsilon");
      it = cache.emplace(key, sigma).first;
    }
    sigmas.push_back(it->second);
  }
  return sigmas;
}

double smallest_meeting_target(const std::function<double(double)>& total, double lo, double hi, double target,
                               const std::string& what) {
  const double at_hi = total(hi);
  if (!(at_hi <= target))
    throw InputError(what + " " + format_number(target) + " is too small: the least epsilon reachable is " +
                     format_number(at_hi));
  if (total(lo) <= target) return lo;
  // Invariant: total(lo) > target >= total(hi).
  while (hi / lo - 1 > 1e-10) {
    const double mid = std::sqrt(lo * hi);
    (total(mid) <= target ? hi : lo) = mid;
  }
  return hi;
}

PerCandidateCalibration calibrate_candidate_epsilon(const std::vector<learn::TrainConfig>& configs, int n, double delta,
                                                    const std::vector<double>& orders, privacy::Conversion conversion,
                                                    const std::function<double(const std::vector<double>&)>& total,
                                                    double target, const std::string& what) {
  // The smallest ε_c any candidate can reach (at the largest σ): below it calibration is impossible.
  double floor = 0;
  for (const auto& c : configs) {
    const double q = static_cast<double>(c.lot_size) / n;
    floor = std::max(floor, privacy::dpsgd_epsilon(c.sampling, q, privacy::kMaxNoiseMultiplier,
                                                   learn::training_steps(c, n), delta, orders, conversion)
                                .epsilon);
  }
  const double lo = floor * (1 + 1e-9);
  if (!(lo < target))
    throw InputError(what + " " + format_number(target) + " is too small: one candidate run alone needs epsilon " +
                     format_number(lo) + " even at noise multiplier " + format_number(privacy::kMaxNoiseMultiplier));
  // total is nondecreasing in ε_c; search x = 1/ε_c so that it is nonincreasing in x.
  auto at = [&](double x) { return total(per_candidate_sigmas(configs, n, 1 / x, delta, orders, conversion)); };
  const double x = smallest_meeting_target(at, 1 / target, 1 / lo, target, what);
  return {1 / x, per_candidate_sigmas(configs, n, 1 / x, delta, orders, conversion)};
}

}  // namespace dpareto::select
