#pragma once
// `dpareto tune`: private hyperparameter tuning of a DP-training problem end to end (issue 7,
// DESIGN.md §3.5). Five methods share one shape — select a candidate on the private training rows,
// release a model, certify one (ε, δ) for everything that touched those rows:
//   random-stopping  K runs (K ~ Poisson(μ) or truncated negative binomial), one calibrated σ for
//                    all candidates, the best run's model is released (Papernot & Steinke 2022;
//                    Koskela & Kulkarni 2023, Thm 5).
//   grid             the same with σ calibrated per (lot size, steps) to a common per-candidate
//                    (ε_c, δ); the candidates' uniform RDP bound is the pointwise max (K–K Sec. 4).
//   subsampled       random stopping on a Poisson subsample X₁ (rate q), the chosen candidate
//                    retrained on X∖X₁ (variant 1, K–K Thm 1) or X (variant 2, Thm 4 + composition).
//   propose-test     Ding & Wu 2022 Alg. 1 on subsample-and-aggregate utilities, then the chosen
//                    candidate is retrained on all rows.
//   dp-hype          clients vote for their top-k candidates, noisy votes summed by secure
//                    aggregation (Liebenow et al. 2025), then the winner is retrained on the
//                    pooled rows (no federated averaging).
// Methods that retrain split the target: the tuning alone gets `tuning_share`·E (converted on its
// own), and the final runs' σ is the smallest for which tuning + final training, composed in RDP
// and converted once, meets E. Every decision draws from one RandomSource (OS CSPRNG, or ChaCha20
// from --seed: "seeded (not for release)"); DP-SGD noise is ChaCha20 keyed from that source.
//
// Row splits (validation, partitions, clients, the subsample X₁) assign every row independently,
// so adding, removing or replacing one row changes one part only.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpareto/privacy/accountant.hpp"
#include "dpareto/privacy/rdp_conversion.hpp"
#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/select/candidate_file.hpp"
#include "dpareto/select/random_stopping.hpp"

namespace dpareto::select {

enum class TuningMethod { random_stopping, grid, subsampled, propose_test, dp_hype };
TuningMethod parse_tuning_method(const std::string& text, const std::string& source);
const char* to_string(TuningMethod method);

enum class ClientSplit { iid, label_skew };

struct TuningSettings {
  TuningMethod method = TuningMethod::random_stopping;
  double target_epsilon = 1;
  double delta = 1e-5;
  std::optional<std::uint64_t> seed;  // seeded (not for release) when set; OS CSPRNG otherwise
  privacy::Conversion conversion = privacy::Conversion::improved;
  double validation_fraction = 0.2;  // of the rows a run trains on, held out to score it
  // ε_s of each random-stopping run's noisy validation score; default (empty): see
  // effective_score_epsilon.
  std::optional<double> score_epsilon;
  // K's law (random-stopping, grid, subsampled); default (empty): see effective_stopping.
  std::optional<StoppingRule> stopping;
  // subsampled
  double subsample_rate = 0.1;  // q
  int subsampled_variant = 1;   // 1: final training on X∖X₁, 2: on X
  // propose-test and dp-hype
  double tuning_share = 0.5;  // share of the target given to the tuning alone
  // propose-test
  std::size_t partitions = 10;  // k
  double granularity = 0.01;    // g
  double utility_floor = 0;     // u₀
  // dp-hype
  std::size_t clients = 10;
  std::size_t top_k = 1;
  ClientSplit client_split = ClientSplit::iid;
  double label_skew = 0.8;  // label-skew: share of a row's assignments that go to its label's clients
  // Whether the problem's test split is public (--test-split public, the default: the released
  // model's test accuracy is reported) or private (--test-split private: that accuracy would be a
  // release the certificate does not account for, so it is neither computed nor released).
  bool test_split_public = true;
  // --release-test-utility: release the test accuracy even on a private test split, named in the
  // certificate as a release its ε does not cover.
  bool release_test_utility = false;
  // --candidates-from-private-front: accept candidates picked from a front measured on the same
  // private rows (candidate_scope.hpp); the certificate then says the choice is not covered.
  bool candidates_from_private_front = false;
  // --accountant: the final training's accountant after propose-test and dp-hype (the tuning
  // steps' bounds and random stopping's are theorems in RDP and stay in RDP).
  privacy::AccountantKind accountant = privacy::kDefaultAccountant;
};

// The default law of K: Poisson with μ = 2.5 × candidates, so that each candidate is drawn at
// least once with probability 1 − e^{−2.5} ≈ 92 % (a candidate never drawn cannot win).
StoppingRule effective_stopping(const TuningSettings& settings, std::size_t candidates);

// The default score ε_s: the score noise (discrete Laplace of scale 1/ε_s, std ≈ √2/ε_s counts)
// is 0.5 percentage point of accuracy on `validation_rows` rows, ε_s = √2/(0.005·rows), but at
// most a tenth of the target.
double effective_score_epsilon(const TuningSettings& settings, int validation_rows);

// Throws InputError naming the flag for any out-of-range setting.
void check_tuning_settings(const TuningSettings& settings);

struct TuningOutcome {
  nlohmann::json certificate;
  std::optional<Eigen::VectorXf> weights;  // empty when nothing is released (K = 0, no candidate passed)
  std::string architecture;
};

// Called once per run with the whole procedure's RDP curve (on `orders`) and its (ε, δ), after
// every calibration and before anything reads the private rows: the caller may record the spending
// (the privacy ledger) or refuse it by throwing.
using SpendingHook = std::function<void(const std::vector<double>& orders, const std::vector<double>& rdp,
                                        const privacy::EpsilonResult& total)>;

// Runs the whole procedure; writes nothing. InputError for bad candidates, settings that do not fit
// the data (more clients than rows, k > candidates, ...) or an unreachable target.
TuningOutcome tune(const problems::DpTrainingProblem& problem, const CandidateFile& candidates,
                   const TuningSettings& settings, const SpendingHook& before_spending = {});

}  // namespace dpareto::select
