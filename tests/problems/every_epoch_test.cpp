// Every epoch as an observation (issue 18 item 2): with observe=every-epoch a DP-training evaluation
// of E epochs also reports, for each e < E, exactly what an evaluation of the same setting with
// epochs = e and the same seed returns (utility and its range over the repeats), with that
// setting's ε (all epoch counts accounted at once: by PLD on the full run's grid, so within the
// discretization's slack of a separate accounting; by RDP exactly it); the intermediate results'
// bad values fail the evaluation.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/problems/dp_training_problem.hpp"

using namespace dpareto;

namespace {

problems::DpTrainingProblem synthetic_problem(problems::ProblemOptions options) {
  options["train_subset"] = "1500";
  return problems::DpTrainingProblem(
      {"synthetic-logreg-sgd", problems::DataSource::synthetic, learn::logistic_regression(20)}, options);
}

struct Asked {
  int count, of;
  double utility, next_epsilon;
};

}  // namespace

TEST_CASE("observe=every-epoch: each earlier epoch's result is the evaluation of that many epochs") {
  for (const char* optimizer_sampling : {"poisson", "fixed"}) {
    CAPTURE(optimizer_sampling);
    const auto every =
        synthetic_problem({{"observe", "every-epoch"}, {"repeats", "3"}, {"sampling", optimizer_sampling}});
    const auto final_only = synthetic_problem({{"repeats", "3"}, {"sampling", optimizer_sampling}});
    CHECK(every.settings().count("observe") == 1);
    CHECK(final_only.settings().count("observe") == 0);  // earlier studies keep their identity
    const space::Params params{5, 64, 0.05, 1.1, 1};     // epochs, lot, learning rate, sigma, clip
    const auto evaluation = every.evaluate(params, 42);
    REQUIRE(evaluation.ok);
    REQUIRE(evaluation.intermediate.size() == 4);
    double previous_epsilon = 0, previous_seconds = 0;
    for (int e = 1; e <= 4; ++e) {
      CAPTURE(e);
      const auto& result = evaluation.intermediate[static_cast<std::size_t>(e - 1)];
      space::Params shorter = params;
      shorter[0] = e;
      CHECK(result.params == shorter);
      const auto alone = final_only.evaluate(shorter, 42);
      REQUIRE(alone.ok);
      CHECK(alone.intermediate.empty());
      CHECK(result.utility == alone.utility);
      CHECK(result.utility_min == alone.utility_min);
      CHECK(result.utility_max == alone.utility_max);
      if (std::string(optimizer_sampling) == "poisson")  // PLD accountant
        CHECK(*result.epsilon == doctest::Approx(alone.epsilon).epsilon(1e-3));
      else  // fixed-size lots: RDP
        CHECK(result.epsilon == alone.epsilon);
      CHECK(result.epsilon > previous_epsilon);
      previous_epsilon = *result.epsilon;
      // Its training time: a growing part of the evaluation's.
      REQUIRE(result.further.count("train_seconds") == 1);
      CHECK(result.further.at("train_seconds") > previous_seconds);
      CHECK(result.further.at("train_seconds") < evaluation.further.at("train_seconds"));
      previous_seconds = result.further.at("train_seconds");
    }
    CHECK(evaluation.epsilon > previous_epsilon);
    // The final result is the one observe=final reports.
    const auto plain = final_only.evaluate(params, 42);
    CHECK(evaluation.utility == plain.utility);
    CHECK(evaluation.epsilon == plain.epsilon);
  }
  // One epoch has no earlier one.
  CHECK(synthetic_problem({{"observe", "every-epoch"}, {"repeats", "2"}})
            .evaluate({1, 64, 0.05, 1.1, 1}, 1)
            .intermediate.empty());
}

TEST_CASE("observe: a bad value, or every-epoch with calibrated noise, is refused in one line") {
  CHECK_THROWS_WITH_AS(synthetic_problem({{"observe", "sometimes"}}),
                       doctest::Contains("option observe=sometimes: expected final or every-epoch"), InputError);
  CHECK_THROWS_WITH_AS(synthetic_problem({{"observe", "every-epoch"}, {"noise", "calibrated"}}),
                       doctest::Contains("does not go with noise=calibrated"), InputError);
}

TEST_CASE("intermediate results: epsilon decreasing, above the final, or a utility outside [0, 1] is named") {
  problems::Evaluation e;
  e.epsilon = 2;
  e.utility = e.utility_min = e.utility_max = 0.8;
  const auto result = [](double epsilon, double utility) {
    problems::IntermediateResult r;
    r.params = {1};
    r.epsilon = epsilon;
    r.utility = r.utility_min = r.utility_max = utility;
    return r;
  };
  e.intermediate = {result(0.5, 0.6), result(1, 0.7)};
  CHECK(problems::intermediate_results_problem(e).empty());
  e.intermediate = {result(1, 0.6), result(0.5, 0.7)};
  CHECK(problems::intermediate_results_problem(e) ==
        "intermediate result 2 of 2: epsilon 0.5 below the earlier 1 (epsilon only grows over a training)");
  e.intermediate = {result(3, 0.6)};
  CHECK(problems::intermediate_results_problem(e) ==
        "intermediate result 1 of 1: epsilon 3 above the final result's 2");
  e.intermediate = {result(0.5, 1.5)};
  CHECK(problems::intermediate_results_problem(e) ==
        "intermediate result 1 of 1: invalid utility 1.5 (must be in [0, 1])");
  e.intermediate = {result(std::nan(""), 0.5)};
  CHECK(problems::intermediate_results_problem(e) == "intermediate result 1 of 1: invalid epsilon nan");
}

// Early stopping (issue 18, `explore --early-stop`): the repeats train in lockstep and GoOn is asked
// after each epoch but the last two with their mean accuracy and the next epoch's ε; a stopped
// evaluation is exactly the evaluation of the epochs it reached (utility, range, earlier epochs, ε),
// whatever the threads; one that goes on is the evaluation without early stopping.
TEST_CASE("early stop: a training stopped after epoch 3 of 6 is the evaluation of 3 epochs") {
  const space::Params params{6, 64, 0.05, 1.1, 1};  // epochs, lot, learning rate, sigma, clip
  space::Params three = params;
  three[0] = 3;
  for (const char* threads : {"1", "2"}) {
    CAPTURE(threads);
    const auto every = synthetic_problem({{"observe", "every-epoch"}, {"repeats", "3"}, {"threads", threads}});
    const auto whole = every.evaluate(params, 42);
    REQUIRE(whole.intermediate.size() == 5);
    std::vector<Asked> asked;
    const auto stopped = every.evaluate(params, 42, [&](int count, int of, double utility, double next_epsilon) {
      asked.push_back({count, of, utility, next_epsilon});
      return count < 3;
    });
    REQUIRE(stopped.ok);
    CHECK(stopped.stopped_at == three);
    REQUIRE(asked.size() == 3);
    for (int k = 1; k <= 3; ++k) {
      CAPTURE(k);
      const Asked& a = asked[static_cast<std::size_t>(k - 1)];
      CHECK(a.count == k);
      CHECK(a.of == 6);
      CHECK(a.utility == whole.intermediate[static_cast<std::size_t>(k - 1)].utility);
      CHECK(a.next_epsilon == *whole.intermediate[static_cast<std::size_t>(k)].epsilon);
    }
    // What an evaluation of 3 epochs returns.
    const auto alone = every.evaluate(three, 42);
    CHECK(stopped.utility == alone.utility);
    CHECK(stopped.utility_min == alone.utility_min);
    CHECK(stopped.utility_max == alone.utility_max);
    // Its ε is the whole run's third epoch's (one accounting of every epoch count), within the PLD
    // grid's 10⁻³ of the 3-epoch setting's own accounting.
    CHECK(stopped.epsilon == *whole.intermediate[2].epsilon);
    CHECK(stopped.epsilon == doctest::Approx(alone.epsilon).epsilon(2e-3));
    CHECK(alone.epsilon == every.privacy(three));
    REQUIRE(stopped.intermediate.size() == 2);
    for (std::size_t k = 0; k < 2; ++k) {
      CHECK(stopped.intermediate[k].params == alone.intermediate[k].params);
      CHECK(stopped.intermediate[k].utility == alone.intermediate[k].utility);
      // From the 6-epoch run's PLD grid, the other from the 3-epoch one's: each within 10⁻³ of separate accounting.
      CHECK(*stopped.intermediate[k].epsilon == doctest::Approx(*alone.intermediate[k].epsilon).epsilon(2e-3));
      // Its training time: the time until every repeat ended that epoch.
      CHECK(stopped.intermediate[k].further.at("train_seconds") > 0);
      CHECK(stopped.intermediate[k].further.at("train_seconds") < stopped.further.at("train_seconds"));
    }
    CHECK(stopped.message.find("stopped after epoch 3 of 6") != std::string::npos);
  }
}

TEST_CASE("early stop: a training that always goes on is the evaluation without it; short ones are not asked") {
  const auto every = synthetic_problem({{"observe", "every-epoch"}, {"repeats", "3"}});
  const space::Params params{5, 64, 0.05, 1.1, 1};
  std::vector<int> counts;
  const auto asked = every.evaluate(params, 7, [&](int count, int, double, double) {
    counts.push_back(count);
    return true;
  });
  CHECK(counts == std::vector<int>{1, 2, 3});  // not after epoch 4: its next is the last
  const auto plain = every.evaluate(params, 7);
  REQUIRE(asked.ok);
  CHECK(asked.stopped_at.empty());
  CHECK(asked.utility == plain.utility);
  CHECK(asked.epsilon == plain.epsilon);
  REQUIRE(asked.intermediate.size() == plain.intermediate.size());
  for (std::size_t k = 0; k < plain.intermediate.size(); ++k)
    CHECK(asked.intermediate[k].utility == plain.intermediate[k].utility);
  CHECK(every.early_stop_obstacle().empty());

  counts.clear();
  const auto never = [&](int count, int, double, double) {
    counts.push_back(count);
    return false;
  };
  CHECK(every.evaluate({2, 64, 0.05, 1.1, 1}, 7, never).stopped_at.empty());
  const auto final_only = synthetic_problem({{"repeats", "3"}});
  CHECK(final_only.evaluate(params, 7, never).stopped_at.empty());
  CHECK(counts.empty());
  CHECK(final_only.early_stop_obstacle() == "it observes the final epoch only; add --set observe=every-epoch");
}
