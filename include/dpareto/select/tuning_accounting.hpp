#pragma once
// The privacy accounting of `dpareto tune` (DESIGN.md §3.5): RDP curves of the candidates' DP-SGD
// runs, of the tuning procedures and of the final training, and the calibrations that make the
// whole procedure meet a target (ε, δ). Everything here is data-independent: it depends on the
// candidates' configurations, the row counts, the settings and σ, never on the rows themselves.
// Curves are given and returned at `orders` (RDP orders α > 1).
#include <functional>
#include <string>
#include <vector>

#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/privacy/rdp_conversion.hpp"
#include "dpareto/select/random_stopping.hpp"

namespace dpareto::select {

// Pointwise sum of two curves (RDP composition, Mironov 2017 Prop. 1).
std::vector<double> compose(const std::vector<double>& a, const std::vector<double>& b);

// The pointwise maximum over the configurations' DP-SGD curves on n rows, each with its own
// noise_multiplier: a uniform RDP bound over the candidates (Koskela & Kulkarni 2023, Lemma 1).
std::vector<double> uniform_training_rdp(const std::vector<learn::TrainConfig>& configs, int n,
                                         const std::vector<double>& orders);

// A random-stopping run's curve: the uniform training curve plus the pure-DP RDP of its noisy
// validation score, min(ε_s, αε_s²/2) (sequential composition).
std::vector<double> scored_run_rdp(const std::vector<learn::TrainConfig>& configs, int n, double score_epsilon,
                                   const std::vector<double>& orders);

// The curve of random stopping over runs with curve `run_rdp`: Poisson (Papernot & Steinke 2022
// Thm 6) or truncated negative binomial (their Thm 2), privacy/random_stopping.hpp.
std::vector<double> stopping_rdp(const StoppingRule& rule, const std::vector<double>& orders,
                                 const std::vector<double>& run_rdp);

// Copies of `configs` with every noise_multiplier set to sigma.
std::vector<learn::TrainConfig> with_sigma(std::vector<learn::TrainConfig> configs, double sigma);

// Per-candidate calibration (Koskela & Kulkarni Sec. 4.1): for each configuration the smallest σ
// whose DP-SGD run alone on n rows is (ε_c, δ)-DP — σ depends only on (lot size, steps, sampling).
// A configuration that meets ε_c already at privacy::kMinNoiseMultiplier gets that σ; InputError
// when one needs more than privacy::kMaxNoiseMultiplier.
std::vector<double> per_candidate_sigmas(const std::vector<learn::TrainConfig>& configs, int n,
                                         double candidate_epsilon, double delta, const std::vector<double>& orders,
                                         privacy::Conversion conversion);

// The smallest x in [lo, hi] with total(x) <= target, for total nonincreasing in x (a noise
// multiplier, say), by bisection on log x to 1e-10 relative; the returned x meets the target.
// InputError "`what` ... is too small" when even x = hi misses it; lo is returned when it meets it.
double smallest_meeting_target(const std::function<double(double)>& total, double lo, double hi, double target,
                               const std::string& what);

// Per-candidate calibration to a common ε_c chosen as large as the whole procedure allows:
// `total(sigmas)` is the procedure's ε when the candidates use per_candidate_sigmas(ε_c); the
// result is the largest ε_c (to 1e-10 relative) with total <= target. Used by the randomized grid
// (K–K Sec. 4) and by the final training after a tuning step. InputError naming `what` when no ε_c
// meets the target.
struct PerCandidateCalibration {
  double candidate_epsilon = 0;
  std::vector<double> sigmas;  // one per configuration
};
PerCandidateCalibration calibrate_candidate_epsilon(const std::vector<learn::TrainConfig>& configs, int n, double delta,
                                                    const std::vector<double>& orders, privacy::Conversion conversion,
                                                    const std::function<double(const std::vector<double>&)>& total,
                                                    double target, const std::string& what);

}  // namespace dpareto::select
