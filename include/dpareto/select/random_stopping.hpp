#pragma once
// Random stopping (Papernot & Steinke 2022, via Koskela & Kulkarni 2023, Thm 5; DESIGN.md §3.5):
// run K candidates drawn uniformly at random, K ~ Poisson(μ) or truncated negative binomial
// (η, γ), and release the best by validation utility. This file holds the selection logic and
// K's distributions; the RDP of the whole procedure comes from the privacy module's tuning bounds.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <variant>

#include "dpareto/privacy/random_stopping_bound.hpp"
#include "dpareto/privacy/secure_noise.hpp"

namespace dpareto::select {

// K's laws are the privacy module's (its bound and this selection must agree on them).
using privacy::PoissonStopping;
using privacy::StoppingRule;
using privacy::TruncatedNegativeBinomialStopping;

// Throws InputError naming the parameter if it is out of range.
void check_stopping_rule(const StoppingRule& rule);
double stopping_pmf(const StoppingRule& rule, std::uint64_t k);
// E[K]: μ, or privacy::truncated_negative_binomial_mean(η, γ).
double stopping_mean(const StoppingRule& rule);

// One draw of K from `source`: Poisson by std::poisson_distribution over the source's bits, the
// truncated negative binomial by inversion of its cdf (pmf ratios (1−γ)(k+η)/(k+1)).
std::uint64_t draw_stopping_count(const StoppingRule& rule, privacy::RandomSource& source);

// Validation utility of one run of `candidate` (run = 0, 1, ... numbers the K runs).
using CandidateRun = std::function<double(std::size_t candidate, std::uint64_t run)>;

struct RandomStoppingResult {
  std::uint64_t runs = 0;               // K
  std::optional<std::size_t> selected;  // empty when K = 0 (Poisson)
  double best_utility = 0;              // of the selected run
};

// Draws K, then K candidates uniformly (with replacement) among `candidates`, keeps the best
// (first on ties). Throws InputError for no candidates or an invalid rule.
RandomStoppingResult random_stopping_select(std::size_t candidates, const StoppingRule& rule, const CandidateRun& run,
                                            privacy::RandomSource& source);

}  // namespace dpareto::select
