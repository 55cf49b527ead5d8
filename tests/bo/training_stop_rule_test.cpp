// Early stopping (issue 18, `explore --early-stop`): the rule's largest rises R_k and front against
// hand-computed trainings, its boundary (a result must land strictly above the front), the trainings
// it needs before it stops anything, and when the explorer hands it out.
#include <doctest/doctest.h>

#include <vector>

#include "dpareto/bo/explorer.hpp"
#include "dpareto/bo/training_stop_rule.hpp"

using namespace dpareto;

namespace {

// A training's observations as the explorer is told them: the evaluation (its last epoch), then the
// earlier epochs' results in order. `utilities[k]` is epoch k + 1's, ε = 0.1 per epoch.
void add_training(std::vector<bo::Observation>& told, const std::vector<double>& utilities, double noise = 1) {
  const auto epochs = static_cast<double>(utilities.size());
  told.push_back({{epochs, noise}, true, {0.1 * epochs, utilities.back()}, false});
  for (std::size_t k = 0; k + 1 < utilities.size(); ++k)
    told.push_back({{static_cast<double>(k + 1), noise}, true, {0.1 * static_cast<double>(k + 1), utilities[k]}, true});
}

}  // namespace

TEST_CASE("TrainingStopRule: R_k is the largest rise after epoch k of any training, by hand") {
  std::vector<bo::Observation> told;
  add_training(told, {0.50, 0.70, 0.65, 0.80});  // rises after epoch 1: 0.30, 2: 0.10, 3: 0.15
  add_training(told, {0.60, 0.62, 0.90});        // 1: 0.30, 2: 0.28
  add_training(told, {0.40, 0.45, 0.44, 0.43});  // 1: 0.05, 2: -0.01, 3: -0.01
  told.push_back({{9, 1}, false, {}, false});    // a failed evaluation: no training
  add_training(told, {0.70});                    // one epoch: nothing after it
  // Flat trainings below everything: rises 0, no front point; they make up the trainings R_k needs.
  for (int i = 0; i < bo::TrainingStopRule::kMinTrainings - 3; ++i) add_training(told, {0.1, 0.1, 0.1, 0.1});
  const bo::TrainingStopRule rule(told);
  REQUIRE(rule.largest_rises().size() == 3);
  CHECK(rule.largest_rises()[0] == doctest::Approx(0.30));
  CHECK(rule.largest_rises()[1] == doctest::Approx(0.28));
  CHECK(rule.largest_rises()[2] == doctest::Approx(0.15));
  // Epochs 1 and 2 were passed by kMinTrainings trainings, epoch 3 by one fewer: it always goes on.
  CHECK(rule.go_on(3, 8, 0.0, 100));
  CHECK(rule.go_on(4, 8, 0.0, 100));  // past every training seen
  CHECK_FALSE(rule.go_on(2, 8, 0.0, 100));
  // The front: (0.1, 0.70), (0.2, 0.70), (0.3, 0.90) as best utility at ε or less: F(0.25) = 0.70,
  // F(0.31) = 0.90 (0.1 · 3 is a hair above 0.3 in floating point). After epoch 2 (R_2 = 0.28), the next result at ε 0.25 needs 0.70 − 0.28 = 0.42.
  CHECK(rule.go_on(2, 8, 0.43, 0.25));
  CHECK_FALSE(rule.go_on(2, 8, 0.41, 0.25));
  CHECK(rule.go_on(2, 8, 0.63, 0.31));  // at ε 0.31 the bar is 0.90 − 0.28 = 0.62
  CHECK_FALSE(rule.go_on(2, 8, 0.61, 0.31));
  CHECK_FALSE(rule.go_on(1, 8, 0.59, 0.31));  // R_1 = 0.30
  CHECK(rule.go_on(1, 8, 0.61, 0.31));
  // Below every observed ε nothing bars it.
  CHECK(rule.go_on(2, 8, 0.0, 0.05));
  // Past half its epochs a training goes to its end: 2 of 4 may stop, 2 of 3 and 1 of 1 may not.
  CHECK_FALSE(rule.go_on(2, 4, 0.0, 100));
  CHECK(rule.go_on(2, 3, 0.0, 100));
  CHECK(rule.go_on(1, 1, 0.0, 100));
}

TEST_CASE("TrainingStopRule: with no trainings, or too few past an epoch, every training goes on") {
  CHECK(bo::TrainingStopRule({}).go_on(1, 4, 0, 1));
  std::vector<bo::Observation> told;
  for (int i = 0; i < bo::TrainingStopRule::kMinTrainings - 1; ++i) add_training(told, {0.5, 0.9, 0.9});
  CHECK(bo::TrainingStopRule(told).go_on(1, 4, 0.0, 10));
  add_training(told, {0.5, 0.9, 0.9});
  CHECK_FALSE(bo::TrainingStopRule(told).go_on(1, 4, 0.0, 10));  // 0 + 0.4 is below the front's 0.9
}

TEST_CASE("Explorer::go_on: only with early_stop, once the initial settings are told, on (ε, error), not on audits") {
  const space::Space space({{"epochs", space::Kind::integer, space::Scale::linear, 1, 20, std::nullopt},
                            {"noise", space::Kind::continuous, space::Scale::log, 0.1, 10, std::nullopt}});
  const int trainings = bo::TrainingStopRule::kMinTrainings;
  bo::ExplorerOptions options;
  options.initial_points = trainings;
  options.objectives.set_reference({10, 1});
  const auto tell_trainings = [&](bo::Explorer& explorer, int count) {
    std::vector<bo::Observation> told;
    for (int i = 0; i < count; ++i) add_training(told, {0.5, 0.6, 0.9}, 1 + 0.1 * i);
    for (const auto& o : told) explorer.tell(o);
  };
  bo::Explorer plain(space, options, 1);
  tell_trainings(plain, trainings);
  CHECK_FALSE(plain.go_on());
  options.early_stop = true;
  bo::Explorer early(space, options, 1);
  tell_trainings(early, trainings - 1);
  CHECK_FALSE(early.go_on());  // the initial settings train to their ends
  tell_trainings(early, 1);
  const GoOn go_on = early.go_on();
  REQUIRE(go_on);
  CHECK_FALSE(go_on(1, 4, 0.45, 0.31));  // R_1 = 0.4: 0.85 is below the front's 0.9 at ε 0.31
  CHECK(go_on(1, 4, 0.55, 0.31));
  CHECK(go_on(1, 1, 0.45, 0.31));  // past half its epochs
  // The BO asks 1-3 may stop, the 4th trains to its end, the 5th may stop again.
  for (int asks = 1; asks <= 2 * bo::Explorer::kAuditEvery + 1; ++asks) {
    CAPTURE(asks);
    nlohmann::json state = early.state();
    state["bo_asks"] = asks;
    early.restore_state(state);
    CHECK(static_cast<bool>(early.go_on()) == (asks % bo::Explorer::kAuditEvery != 0));
  }
  options.objectives = pareto::Objectives::with_further({pareto::known_objective("train_seconds")}, {10, 1, 3600});
  bo::Explorer three(space, options, 1);
  std::vector<bo::Observation> told;
  for (int i = 0; i < trainings; ++i) add_training(told, {0.5, 0.6, 0.9}, 1 + 0.1 * i);
  for (auto& o : told) {
    o.values.push_back(1.0);  // train_seconds
    three.tell(o);
  }
  CHECK_FALSE(three.go_on());  // the rule weighs (ε, utility) only
}
