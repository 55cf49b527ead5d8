#pragma once
// `dpareto tune`: private hyperparameter tuning of a DP-training problem end to end (issue 7).
// Random stopping (Papernot & Steinke 2022, Thm 6; Koskela & Kulkarni 2023, Thm 5): K ~ Poisson(μ)
// runs, each training a uniformly drawn candidate by the problem's DP optimizer on the training
// rows (the data minus a held-out validation split), release the best by validation accuracy.
// Random stopping needs each run's (model, score) pair to be DP: the validation rows are private,
// so the score is the count of correct validation predictions plus discrete Laplace noise of scale
// 1/ε_s (sensitivity 1; Canonne–Kamath–Steinke sampler on the secure source), divided by the
// number of rows, and the base run's curve is the DP-SGD curve plus the score's pure-DP RDP
// min(ε_s, αε_s²/2) (sequential composition; conservative since a row is in only one split).
// One noise multiplier σ serves every run; it is calibrated so that the whole procedure's ε —
// ε'(α) = ε(α) + μδ̂ + log(μ)/(α−1) over the base run's RDP curve ε(α), converted once — meets
// the target. The base curve is the pointwise maximum of the candidates' DP-SGD curves (a
// uniform RDP bound over the candidates, Koskela & Kulkarni Lemma 1); when all candidates share
// epochs and lot size it is their common curve, exactly what `dpareto account tuning` computes.
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpareto/privacy/rdp_conversion.hpp"
#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/select/candidate_file.hpp"

namespace dpareto::select {

struct TuningSettings {
  double mu = 5;  // E[K]
  double target_epsilon = 1;
  double delta = 1e-5;
  std::optional<std::uint64_t> seed;  // seeded (not for release) when set; OS CSPRNG otherwise
  double validation_fraction = 0.2;   // of the problem's training rows, drawn at random
  double score_epsilon = 0.1;         // ε_s of each run's noisy validation score
  privacy::Conversion conversion = privacy::Conversion::improved;
};

// The accounting of one random-stopping tuning run with noise multiplier σ.
struct TuningPrivacy {
  double sigma = 0;
  std::vector<double> orders;
  std::vector<double> candidate_rdp;  // the base run's curve (max over candidates + noisy score)
  std::vector<double> tuning_rdp;     // after random stopping
  privacy::EpsilonResult result{};
};

// The base-run curve and the tuning ε for `configs` (noise_multiplier ignored; σ used) on n
// training rows. Same functions as `dpareto account tuning --distribution poisson`.
TuningPrivacy random_stopping_privacy(const std::vector<learn::TrainConfig>& configs, int n, double sigma,
                                      const TuningSettings& settings);

// Smallest σ in [privacy::kMinNoiseMultiplier, privacy::kMaxNoiseMultiplier] (bisection on log σ,
// to 1e-10 relative, rounded up) whose tuning ε meets settings.target_epsilon. InputError when
// the target is unreachable or puts no constraint on σ.
TuningPrivacy calibrate_random_stopping(const std::vector<learn::TrainConfig>& configs, int n,
                                        const TuningSettings& settings);

struct TuningOutcome {
  nlohmann::json certificate;
  std::optional<Eigen::VectorXf> weights;  // empty when K = 0 (nothing released)
  std::string architecture;
};

// Runs the whole procedure; writes nothing. InputError for bad candidates or an unreachable target.
TuningOutcome tune_random_stopping(const problems::DpTrainingProblem& problem, const CandidateFile& candidates,
                                   const TuningSettings& settings);

}  // namespace dpareto::select
