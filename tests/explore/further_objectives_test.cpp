// Issue 13 item 2: objectives beyond (ε, error). space.json declares an external oracle's own
// (printed under their keys), every problem measures train_seconds, and the study evaluator turns
// them into record columns, failing an evaluation that lacks one or reports one its transform cannot take.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/explore/objective_declaration.hpp"
#include "dpareto/explore/problem_evaluator.hpp"
#include "dpareto/problems/external_command_problem.hpp"
#include "dpareto/problems/registry.hpp"

namespace fs = std::filesystem;
using namespace dpareto;

namespace {

const test::TempRoot further_objectives_root("dpareto_further_objectives_test_");

space::Space oracle_space() {
  return space::Space({{"lr", space::Kind::continuous, space::Scale::log, 0.001, 0.1, {}},
                       {"epochs", space::Kind::integer, space::Scale::linear, 1, 20, {}}});
}

// The declaration of a log-modelled "latency_ms" objective.
std::vector<pareto::Objective> latency_declared() {
  return explore::parse_objective_declarations(
      nlohmann::json::parse(R"(["epsilon", "error", {"name": "latency_ms", "transform": "log", "reference": 500}])"),
      oracle_space(), "space.json");
}

// An oracle printing `output`, reading the declared keys.
problems::ExternalCommandProblem oracle(const std::string& name, const std::string& output) {
  const fs::path script = further_objectives_root.dir("oracles") / (name + ".sh");
  std::ofstream(script) << "#!/bin/sh\necho '" << output << "'\n";
  fs::permissions(script, fs::perms::owner_all);
  problems::ExternalCommandOptions options;
  options.command = script.string() + " {lr} {epochs}";
  options.objective_keys = {"latency_ms"};
  return problems::ExternalCommandProblem(oracle_space(), options);
}

std::string declaration_error(const std::string& list) {
  try {
    explore::parse_objective_declarations(nlohmann::json::parse(list), oracle_space(), "space.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("space.json objectives: known names, declared objects, and one-line errors naming the entry") {
  const auto declared = latency_declared();
  REQUIRE(declared.size() == 1);
  CHECK(declared[0].name == "latency_ms");
  CHECK(declared[0].surrogate == pareto::Transform::log);
  CHECK(declared[0].reference == 500);
  CHECK(explore::parse_objective_declarations(nlohmann::json::parse(R"(["train_seconds"])"), oracle_space(), "s")[0]
            .name == "train_seconds");
  CHECK(declaration_error(R"([{"name": "latency_ms", "transform": "sqrt", "reference": 1}])") ==
        "space.json: \"objectives\"[0]: unknown transform 'sqrt' (expected identity, log, logit or arcsine)");
  CHECK(declaration_error(R"([{"name": "latency_ms", "transform": "log"}])") ==
        "space.json: \"objectives\"[0]: objective 'latency_ms' needs a \"reference\" (its anti-ideal value, for the "
        "hypervolume)");
  CHECK(declaration_error(R"(["error", "memory"])").find("\"objectives\"[1]: 'memory' is no known objective") !=
        std::string::npos);
  CHECK(declaration_error(R"([{"name": "lr", "reference": 1}])") ==
        "space.json: \"objectives\"[0]: objective 'lr' has the name of a parameter");
  CHECK(declaration_error(R"([{"name": "cost", "reference": 1, "weight": 2}])").find("unknown key \"weight\"") !=
        std::string::npos);
  CHECK(declaration_error(R"({"name": "cost"})") == "space.json: \"objectives\" must be a list");
}

TEST_CASE("the evaluator records a declared objective the oracle prints, and fails one it does not") {
  const auto objectives = pareto::Objectives::with_further(latency_declared(), {10, 1, 500});
  const space::Params setting{0.01, 3};
  const auto good = explore::problem_evaluator(
      oracle("good", R"({"epsilon": 1.5, "utility": 0.9, "latency_ms": 41.5})"), objectives)(setting, 1, {});
  REQUIRE_MESSAGE(good.ok(), good.message);
  CHECK(good.column("latency_ms") == 41.5);
  CHECK(study::objective_point(good, objectives) == pareto::Point{1.5, 1 - 0.9, 41.5});

  const auto silent =
      explore::problem_evaluator(oracle("silent", R"({"epsilon": 1.5, "utility": 0.9})"), objectives)(setting, 1, {});
  CHECK_FALSE(silent.ok());
  CHECK(silent.message == "the oracle reported no 'latency_ms' (a declared objective)");

  const auto zero = explore::problem_evaluator(oracle("zero", R"({"epsilon": 1.5, "utility": 0.9, "latency_ms": 0})"),
                                               objectives)(setting, 1, {});
  CHECK_FALSE(zero.ok());
  CHECK(zero.message == "objective 'latency_ms' = 0 must be positive (its surrogate is on a log scale)");

  const auto text = explore::problem_evaluator(
      oracle("text", R"({"epsilon": 1.5, "utility": 0.9, "latency_ms": "fast"})"), objectives)(setting, 1, {});
  CHECK_FALSE(text.ok());
  CHECK(text.message.find("output \"latency_ms\"") != std::string::npos);

  // Intermediate results: those that print it are recorded with it, the others are not recorded.
  const auto partial = explore::problem_evaluator(
      oracle("partial", R"({"epsilon": 1.5, "utility": 0.9, "latency_ms": 40, "intermediate": [)"
                        R"({"epochs": 1, "epsilon": 0.5, "utility": 0.7, "latency_ms": 14},)"
                        R"({"epochs": 2, "epsilon": 1.0, "utility": 0.8}]})"),
      objectives)(setting, 1, {});
  REQUIRE_MESSAGE(partial.ok(), partial.message);
  REQUIRE(partial.intermediate.size() == 1);
  CHECK(partial.intermediate[0].column("latency_ms") == 14);
  CHECK(partial.message == "1 intermediate results not recorded: they lack a declared objective");
}

TEST_CASE("train_seconds: the utility oracle's wall time for a built-in problem, the command's for an oracle") {
  const auto svt = problems::make_problem("svt", {{"repeats", "2"}});
  const auto objectives = pareto::Objectives::with({"train_seconds"}, {100, 1, 60});
  const auto r = explore::problem_evaluator(*svt, objectives)(
      svt->space().from_unit(std::vector<double>(svt->space().dimension(), 0.5)), 3, {});
  REQUIRE_MESSAGE(r.ok(), r.message);
  CHECK(r.column("train_seconds") > 0);
  CHECK(r.column("train_seconds") <= r.seconds);
  const auto o = explore::problem_evaluator(oracle("timed", R"({"epsilon": 1, "utility": 0.5, "latency_ms": 3})"),
                                            objectives)({0.01, 2}, 1, {});
  REQUIRE_MESSAGE(o.ok(), o.message);
  CHECK(o.column("train_seconds") == doctest::Approx(o.seconds));
  // Every epoch observed: each earlier epoch's result carries its own training time, so all are recorded.
  const auto every = problems::make_problem("synthetic-logreg-sgd",
                                            {{"repeats", "2"}, {"train_subset", "1000"}, {"observe", "every-epoch"}});
  const auto e = explore::problem_evaluator(*every, objectives)({4, 64, 0.05, 1.1, 1}, 5, {});
  REQUIRE_MESSAGE(e.ok(), e.message);
  CHECK(e.message.empty());
  REQUIRE(e.intermediate.size() == 3);
  for (const auto& i : e.intermediate) {
    CHECK(i.column("train_seconds") > 0);
    CHECK(i.column("train_seconds") < e.column("train_seconds"));
  }
}
