#include <doctest/doctest.h>

#include <map>
#include <string>

#include "../plot/run_fixtures.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/explore/run_model.hpp"

using namespace dpareto;

namespace {

// A synthetic DP-SGD run whose records list the parameters in an order of their own, started with
// problem options `options`.
std::string synthetic_run(const nlohmann::json& options, const std::string& problem = "synthetic-logreg-sgd") {
  const std::string dir = plot::test::temp_dir("run-problem-" + problem);
  study::RunInfo info;
  info.problem = problem;
  info.method = "random";
  info.seed = 3;
  info.parameter_names = {"clip_norm", "noise_multiplier", "learning_rate", "lot_size", "epochs"};
  info.objectives.set_reference({10, 1});
  info.extra = {{"problem_options", options}};
  study::RunDirectoryWriter writer(dir, info);
  study::EvaluationRecord r;
  r.id = 1;
  r.phase = "init";
  r.status = study::EvaluationStatus::ok;
  r.params = {0.5, 1.5, 0.05, 32, 4};
  r.epsilon = 1;
  r.utility = 0.8;
  r.utility_min = 0.78;
  r.utility_max = 0.82;
  writer.add(r);
  return dir;
}

}  // namespace

TEST_CASE("rebuild_run_problem: the recorded options, the overrides over them, the columns in the space's order") {
  const std::string dir = synthetic_run({{"repeats", "3"}, {"threads", "1"}});
  const auto run = study::read_run_directory(dir);
  const auto rebuilt = explore::rebuild_run_problem(run, dir, {{"threads", "2"}});
  REQUIRE(rebuilt.problem);
  const auto settings = rebuilt.problem->settings();
  CHECK(settings.at("repeats") == "3");  // recorded
  CHECK(settings.at("threads") == "2");  // overridden
  const auto params = rebuilt.params_of(run.records.at(0));
  const auto& space = rebuilt.problem->space();
  REQUIRE(params.size() == space.dimension());
  const std::map<std::string, double> recorded{
      {"clip_norm", 0.5}, {"noise_multiplier", 1.5}, {"learning_rate", 0.05}, {"lot_size", 32}, {"epochs", 4}};
  for (std::size_t i = 0; i < params.size(); ++i) {
    CAPTURE(space.parameters()[i].name);
    CHECK(params[i] == recorded.at(space.parameters()[i].name));
  }
  // A fresh training of the rebuilt problem: the same seed gives the same utility.
  CHECK(rebuilt.problem->utility(params, 11).utility == rebuilt.problem->utility(params, 11).utility);
}

TEST_CASE("rebuild_run_problem: an external oracle's run and a recorded option the problem refuses name summary.json") {
  const std::string external = synthetic_run(nlohmann::json::object(), "external");
  CHECK_THROWS_WITH_AS(explore::rebuild_run_problem(study::read_run_directory(external), external),
                       doctest::Contains("summary.json: an external oracle's run"), InputError);
  const std::string refused = synthetic_run({{"repeats", "0"}});
  CHECK_THROWS_WITH_AS(explore::rebuild_run_problem(study::read_run_directory(refused), refused),
                       doctest::Contains("summary.json: cannot rebuild problem 'synthetic-logreg-sgd'"), InputError);
}
