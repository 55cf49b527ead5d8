// Every epoch as an observation (issue 18 item 2): with observe=every-epoch a DP-training evaluation
// of E epochs also reports, for each e < E, exactly what an evaluation of the same setting with
// epochs = e and the same seed returns (utility and its range over the repeats), with that
// setting's ε (all epoch counts accounted at once: by PLD on the full run's grid, so within the
// discretization's slack of a separate accounting; by RDP exactly it); the intermediate results'
// bad values fail the evaluation.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/problems/dp_training_problem.hpp"

using namespace dpareto;

namespace {

problems::DpTrainingProblem synthetic_problem(problems::ProblemOptions options) {
  options["train_subset"] = "1500";
  return problems::DpTrainingProblem(
      {"synthetic-logreg-sgd", problems::DataSource::synthetic, learn::logistic_regression(20)}, options);
}

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
