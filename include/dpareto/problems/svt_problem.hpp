#pragma once
// The sparse vector technique problem (DPareto Sec. 2.2, Alg. 1, Appx. B). Hyperparameters:
// `bound` C ∈ [1, 30] (integer, log scale unless bound_scale=linear) and `noise` b ∈ [1e-2, 1e2]
// (log scale). C's effect is multiplicative (ε grows as C^{1/3}·C^{2/3}, each extra answer matters
// less as C grows), so the log scale gives small C, where the front bends, the room it needs. Privacy: the closed form
// ε = (1 + (2C)^{1/3})(1 + (2C)^{2/3}) / b. Utility: the F1 score between the true answers of m
// binary queries (`true_queries` of them are 1) and the algorithm's output, averaged over R runs,
// each with a fresh random query order and fresh noise.
#include <vector>

#include "dpareto/core/random.hpp"
#include "dpareto/problems/problem.hpp"

namespace dpareto::problems {

struct SvtSettings {
  int queries = 100;                             // m
  int true_queries = 10;                         // how many queries answer 1
  int repeats = 50;                              // R
  space::Scale bound_scale = space::Scale::log;  // linear: DPareto's space, and svt studies' before 2026-12-02
};

class SvtProblem : public Problem {
 public:
  explicit SvtProblem(SvtSettings settings = {});
  std::string name() const override { return "svt"; }
  const space::Space& space() const override { return space_; }
  double delta() const override { return 0; }
  double privacy(const space::Params& params) const override;
  std::string known_privacy_obstacle() const override { return ""; }  // a closed form
  UtilityResult utility(const space::Params& params, std::uint64_t seed) const override;
  std::string utility_name() const override { return "F1 score"; }
  std::string utility_transform() const override { return "arcsine"; }
  ReferenceSpec default_reference() const override;
  std::map<std::string, std::string> settings() const override;

 private:
  SvtSettings settings_;
  space::Space space_;
};

// One run of DPareto Alg. 1 on binary query answers (in the order given): returns the output w.
std::vector<int> run_sparse_vector(const std::vector<int>& answers, int bound, double noise, Rng& rng);
// F1 score of a predicted 0/1 vector against the truth; 0 when either has no positives.
double f1_score(const std::vector<int>& truth, const std::vector<int>& predicted);

}  // namespace dpareto::problems
