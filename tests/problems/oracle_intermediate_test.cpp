// Issue 18 item 2 for the external oracle: its output's "intermediate" list (results of the settings
// it names, e.g. earlier epochs) becomes the evaluation's intermediate results; with a known_epsilon
// declaration dpareto accounts their ε itself; bad lists fail the evaluation with their reason.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "../support/test_support.hpp"
#include "dpareto/problems/external_command_problem.hpp"

namespace fs = std::filesystem;
using namespace dpareto;
using namespace dpareto::problems;

namespace {

const dpareto::test::TempRoot oracle_intermediate_root("dpareto_oracle_intermediate_test_");

space::Space intermediate_space() {
  return space::Space({{"lr", space::Kind::continuous, space::Scale::log, 0.001, 0.1, {}},
                       {"epochs", space::Kind::integer, space::Scale::linear, 1, 20, {}},
                       {"batch", space::Kind::integer, space::Scale::linear, 16, 512, {}},
                       {"sigma", space::Kind::continuous, space::Scale::log, 0.5, 8, {}}});
}

// The space file's declaration of the oracle's DP-SGD (60000 examples, Poisson lots).
KnownEpsilonDeclaration declared_dpsgd() {
  return parse_known_epsilon({{"mechanism", "dp-sgd"},
                              {"examples", 60000},
                              {"delta", 1e-5},
                              {"sampling", "poisson"},
                              {"epochs", "epochs"},
                              {"lot_size", "batch"},
                              {"noise_multiplier", "sigma"}},
                             intermediate_space(), "space.json");
}

// An oracle printing `output`, with the DP-SGD declaration when `known`.
ExternalCommandProblem intermediate_oracle(const std::string& name, const std::string& output, bool known = false) {
  const fs::path script = oracle_intermediate_root.dir("oracles") / (name + ".sh");
  std::ofstream(script) << "#!/bin/sh\necho '" << output << "'\n";
  fs::permissions(script, fs::perms::owner_all);
  ExternalCommandOptions options;
  options.command = script.string() + " {lr} {epochs} {batch} {sigma}";
  options.delta = 1e-5;
  if (known) options.known_epsilon = declared_dpsgd();
  return ExternalCommandProblem(intermediate_space(), options);
}

const space::Params kSetting{0.01, 3, 256, 1.1};

}  // namespace

TEST_CASE("oracle intermediate results: the settings they name, with their epsilon and utility") {
  const auto e =
      intermediate_oracle("good",
                          R"({"epsilon": 1.5, "utility": 0.9, "intermediate": [)"
                          R"({"epochs": 1, "epsilon": 0.7, "utility": 0.8, "utility_min": 0.75, "utility_max": 0.85},)"
                          R"({"epochs": 2, "epsilon": 1.1, "utility": 0.86}]})")
          .evaluate(kSetting, 1);
  REQUIRE_MESSAGE(e.ok, e.message);
  REQUIRE(e.intermediate.size() == 2);
  CHECK(e.intermediate[0].params == space::Params{0.01, 1, 256, 1.1});
  CHECK(e.intermediate[0].epsilon == 0.7);
  CHECK(e.intermediate[0].utility == 0.8);
  CHECK(e.intermediate[0].utility_min == 0.75);
  CHECK(e.intermediate[0].utility_max == 0.85);
  CHECK(e.intermediate[1].params == space::Params{0.01, 2, 256, 1.1});
  CHECK(e.intermediate[1].utility_min == 0.86);  // no range printed: the utility itself
}

TEST_CASE("oracle intermediate results under known_epsilon: dpareto accounts each setting's epsilon") {
  const auto d = declared_dpsgd();
  const auto e =
      intermediate_oracle("known", R"({"utility": 0.9, "intermediate": [{"epochs": 1, "utility": 0.8}]})", true)
          .evaluate(kSetting, 1);
  REQUIRE_MESSAGE(e.ok, e.message);
  REQUIRE(e.intermediate.size() == 1);
  CHECK(e.intermediate[0].epsilon == d.epsilon({0.01, 1, 256, 1.1}, privacy::default_orders()));
  CHECK(e.epsilon == d.epsilon(kSetting, privacy::default_orders()));
  // A printed ε the declaration disagrees with fails the evaluation, naming the result.
  const auto off =
      intermediate_oracle("known-off",
                          R"({"utility": 0.9, "intermediate": [{"epochs": 1, "epsilon": 9, "utility": 0.8}]})", true)
          .evaluate(kSetting, 1);
  CHECK_FALSE(off.ok);
  CHECK(off.message.find("output \"intermediate\"[0] \"epsilon\" 9 is not the declared known_epsilon's") !=
        std::string::npos);
}

TEST_CASE("oracle intermediate results: bad lists fail the evaluation with their reason") {
  const auto failure = [](const std::string& name, const std::string& intermediate) {
    const auto e =
        intermediate_oracle(name, R"({"epsilon": 1.5, "utility": 0.9, "intermediate": )" + intermediate + "}")
            .evaluate(kSetting, 1);
    CHECK_FALSE(e.ok);
    return e.message;
  };
  CHECK(failure("decreasing",
                R"([{"epochs": 1, "epsilon": 1.2, "utility": 0.8}, {"epochs": 2, "epsilon": 0.9, "utility": 0.8}])")
            .find("intermediate result 2 of 2: epsilon 0.9 below the earlier 1.2") != std::string::npos);
  CHECK(failure("above", R"([{"epochs": 2, "epsilon": 1.7, "utility": 0.8}])")
            .find("epsilon 1.7 above the final result's 1.5") != std::string::npos);
  CHECK(failure("utility", R"([{"epochs": 1, "epsilon": 0.5, "utility": 1.2}])")
            .find("intermediate result 1 of 1: invalid utility 1.2 (must be in [0, 1])") != std::string::npos);
  CHECK(failure("unknown", R"([{"epoch": 1, "epsilon": 0.5, "utility": 0.8}])")
            .find("output \"intermediate\"[0]: epoch is no parameter of the space") != std::string::npos);
  CHECK(failure("domain", R"([{"epochs": 0, "epsilon": 0.5, "utility": 0.8}])")
            .find("output \"intermediate\"[0]: epochs 0 is outside its domain [1, 20]") != std::string::npos);
  CHECK(
      failure("itself", R"([{"epochs": 3, "epsilon": 0.5, "utility": 0.8}])").find("is the evaluated setting itself") !=
      std::string::npos);
  CHECK(failure("nameless", R"([{"epsilon": 0.5, "utility": 0.8}])").find("names no parameter") != std::string::npos);
  CHECK(failure("no-epsilon", R"([{"epochs": 1, "utility": 0.8}])").find("has no \"epsilon\"") != std::string::npos);
  CHECK(failure("not-array", R"({"epochs": 1})").find("is not a JSON array of objects") != std::string::npos);
  CHECK(failure("not-object", R"([3])").find("output \"intermediate\"[0] is not a JSON object") != std::string::npos);
  CHECK(failure("text", R"([{"epochs": "one", "epsilon": 0.5, "utility": 0.8}])").find("\"epochs\"") !=
        std::string::npos);
}
