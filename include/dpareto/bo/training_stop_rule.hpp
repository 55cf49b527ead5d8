#pragma once
// Early stopping of a training observed every epoch (issue 18, `explore --early-stop`): after its
// k-th epoch, with mean utility u_k, a training goes on only while
//     u_k + R_k > F(ε_{k+1}),
// where F(ε) is the best utility observed so far at ε or less (the front), ε_{k+1} the ε of its
// next epoch, and R_k the largest rise any earlier training made after its own k-th result,
// max_{j>k} u_j − u_k. ε only grows over a training and F does with it, so a training that fails
// the test would need a rise after epoch k larger than any seen so far for any of its later results
// to land above the front. R_k is an empirical bound, not a proof: it comes from the same study's
// trainings (noise included, which widens it), and a training goes on past epoch k while fewer than
// kMinTrainings trainings went past it, and once past half its epochs: late in long trainings few
// trainings support R_k, and stops there lost the front's top (adult-logreg-sgd, 10 seeds: with 3
// trainings and stops up to the last two epochs the front's best accuracy at moderate ε was no
// longer reached; replays of recorded runs with 10 and the first half lost nothing measurable and
// saved about a quarter of the training seconds).
// Stopped trainings count as trainings of the epochs they reached; the rule weighs nothing but
// (ε, utility), so it is for studies with those two objectives.
#include <vector>

#include "dpareto/bo/proposer.hpp"

namespace dpareto::bo {

class TrainingStopRule {
 public:
  // From the observations told so far (values: ε, utility), where each evaluation is followed by
  // its intermediate results, in the order measured (Explorer's told order).
  explicit TrainingStopRule(const std::vector<Observation>& told);
  static constexpr int kMinTrainings = 10;

  // Whether a training should go on after its `count`-th result of `of`, of `utility`, the next
  // coming at `next_epsilon` (GoOn's question).
  bool go_on(int count, int of, double utility, double next_epsilon) const;

  // R_k of k = 1, 2, ... (for tests and reports).
  const std::vector<double>& largest_rises() const { return largest_rise_; }

 private:
  std::vector<double> front_epsilon_, front_utility_;  // the observed front: ε ascending, utility rising
  std::vector<double> largest_rise_;                   // [k − 1]: R_k
  std::vector<int> trainings_past_;                    // [k − 1]: the trainings R_k comes from
};

}  // namespace dpareto::bo
