#include "dpareto/select/random_stopping.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/random_stopping_bound.hpp"

namespace dpareto::select {

namespace {

// A UniformRandomBitGenerator over a RandomSource, for the standard distributions.
class SourceBits {
 public:
  using result_type = std::uint64_t;
  explicit SourceBits(privacy::RandomSource& source) : source_(source) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  result_type operator()() { return source_.next_u64(); }

 private:
  privacy::RandomSource& source_;
};

double tnb_first(const TruncatedNegativeBinomialStopping& r) {  // P(K = 1)
  if (r.eta == 0) return (1 - r.gamma) / std::log(1 / r.gamma);
  return (1 - r.gamma) * r.eta / std::expm1(-r.eta * std::log(r.gamma));
}

}  // namespace

void check_stopping_rule(const StoppingRule& rule) {
  if (const auto* p = std::get_if<PoissonStopping>(&rule)) {
    if (!(p->mu >= 1) || !std::isfinite(p->mu)) {
      throw InputError("random stopping: Poisson mean mu = " + format_number(p->mu) +
                       " must be a finite number >= 1 (the privacy bound holds only from 1 on)");
    }
    return;
  }
  const auto& t = std::get<TruncatedNegativeBinomialStopping>(rule);
  if (!(t.eta > -1) || !std::isfinite(t.eta)) {
    throw InputError("random stopping: eta = " + format_number(t.eta) + " must be a finite number > -1");
  }
  if (!(t.gamma > 0 && t.gamma < 1)) {
    throw InputError("random stopping: gamma = " + format_number(t.gamma) + " must be in (0, 1)");
  }
}

double stopping_pmf(const StoppingRule& rule, std::uint64_t k) {
  check_stopping_rule(rule);
  if (const auto* p = std::get_if<PoissonStopping>(&rule)) {
    return std::exp(double(k) * std::log(p->mu) - p->mu - std::lgamma(double(k) + 1));
  }
  const auto& t = std::get<TruncatedNegativeBinomialStopping>(rule);
  if (k == 0) return 0;
  double p = tnb_first(t);
  for (std::uint64_t l = 1; l < k; ++l) p *= (1 - t.gamma) * (double(l) + t.eta) / double(l + 1);
  return p;
}

double stopping_mean(const StoppingRule& rule) {
  check_stopping_rule(rule);
  if (const auto* p = std::get_if<PoissonStopping>(&rule)) return p->mu;
  const auto& t = std::get<TruncatedNegativeBinomialStopping>(rule);
  return privacy::truncated_negative_binomial_mean(t.eta, t.gamma);
}

std::uint64_t draw_stopping_count(const StoppingRule& rule, privacy::RandomSource& source) {
  check_stopping_rule(rule);
  SourceBits bits(source);
  if (const auto* p = std::get_if<PoissonStopping>(&rule)) {
    return std::poisson_distribution<std::uint64_t>(p->mu)(bits);
  }
  const auto& t = std::get<TruncatedNegativeBinomialStopping>(rule);
  const double u = std::generate_canonical<double, 53>(bits);
  std::uint64_t k = 1;
  double p = tnb_first(t), cdf = p;
  while (u > cdf && p > 0) {
    p *= (1 - t.gamma) * (double(k) + t.eta) / double(k + 1);
    cdf += p;
    ++k;
  }
  return k;
}

RandomStoppingResult random_stopping_select(std::size_t candidates, const StoppingRule& rule, const CandidateRun& run,
                                            privacy::RandomSource& source) {
  if (candidates == 0) throw InputError("random stopping: no candidates");
  RandomStoppingResult result;
  result.runs = draw_stopping_count(rule, source);
  for (std::uint64_t r = 0; r < result.runs; ++r) {
    const auto candidate = static_cast<std::size_t>(privacy::uniform_below(source, candidates));
    const double utility = run(candidate, r);
    if (std::isnan(utility)) {
      throw InputError("random stopping: utility of candidate " + std::to_string(candidate) + " in run " +
                       std::to_string(r) + " is NaN");
    }
    if (!result.selected || utility > result.best_utility) {
      result.selected = candidate;
      result.best_utility = utility;
    }
  }
  return result;
}

}  // namespace dpareto::select
