// space.json's "known_epsilon" (issue 18 item 1): an external oracle whose ε dpareto accounts itself.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/problems/external_command_problem.hpp"

namespace fs = std::filesystem;
using namespace dpareto;
using namespace dpareto::problems;

namespace {

const dpareto::test::TempRoot known_epsilon_declaration_root("dpareto_known_epsilon_test_");

space::Space dpsgd_space() {
  return space::Space({{"lr", space::Kind::continuous, space::Scale::log, 0.001, 0.1, {}},
                       {"epochs", space::Kind::integer, space::Scale::linear, 1, 20, {}},
                       {"batch", space::Kind::integer, space::Scale::linear, 16, 512, {}},
                       {"sigma", space::Kind::continuous, space::Scale::log, 0.5, 8, {}}});
}

nlohmann::json declaration() {
  return {{"mechanism", "dp-sgd"},      {"examples", 60000},  {"delta", 1e-5},
          {"sampling", "poisson"},      {"epochs", "epochs"}, {"lot_size", "batch"},
          {"noise_multiplier", "sigma"}};
}

// An oracle printing `output` (a JSON object) under the declaration.
ExternalCommandProblem declared_oracle(const std::string& name, const std::string& output) {
  const fs::path script = known_epsilon_declaration_root.dir("oracles") / (name + ".sh");
  std::ofstream(script) << "#!/bin/sh\necho '" << output << "'\n";
  fs::permissions(script, fs::perms::owner_all);
  ExternalCommandOptions options;
  options.command = script.string() + " {lr} {epochs} {batch} {sigma}";
  options.known_epsilon = parse_known_epsilon(declaration(), dpsgd_space(), "space.json");
  return ExternalCommandProblem(dpsgd_space(), options);
}

}  // namespace

TEST_CASE("known_epsilon: the declared DP-SGD is accounted as the built-in problems count steps") {
  const auto d = parse_known_epsilon(declaration(), dpsgd_space(), "space.json");
  const space::Params p{0.01, 5, 256, 1.1};
  // 5 epochs of round(60000 / 256) = 234 steps at q = 256/60000, RDP at δ = 1e-5.
  const double expected = privacy::dpsgd_epsilon(privacy::Sampling::poisson, 256.0 / 60000, 1.1, 5 * 234, 1e-5).epsilon;
  CHECK(d.epsilon(p, privacy::default_orders()) == expected);
  CHECK(d.epsilon(p, privacy::search_orders()) >= expected);
  // Constants stand in for parameters; the JSON round-trips.
  auto fixed_lot = declaration();
  fixed_lot["lot_size"] = 256;
  fixed_lot["sampling"] = "fixed";
  const auto f = parse_known_epsilon(fixed_lot, dpsgd_space(), "space.json");
  CHECK(f.epsilon({0.01, 5, 17, 1.1}, privacy::default_orders()) ==
        privacy::dpsgd_epsilon(privacy::Sampling::fixed_size, 256.0 / 60000, 1.1, 5 * 234, 1e-5).epsilon);
  CHECK(known_epsilon_to_json(f, dpsgd_space()) == fixed_lot);
  CHECK_THROWS_WITH_AS(d.epsilon({0.01, 5, 0.2, 1.1}, privacy::default_orders()),
                       doctest::Contains("lot_size 0.2 is outside"), InputError);
}

TEST_CASE("known_epsilon: one-line errors naming the file and the key") {
  const auto refused = [](const std::string& key, const nlohmann::json& value, const std::string& message) {
    auto d = declaration();
    if (value.is_null())
      d.erase(key);
    else
      d[key] = value;
    INFO(key << " = " << value.dump());
    CHECK_THROWS_WITH_AS(parse_known_epsilon(d, dpsgd_space(), "space.json"), doctest::Contains(message.c_str()),
                         InputError);
  };
  refused("epochs", "steps", "space.json: \"known_epsilon\".epochs: \"steps\" names no parameter of the space");
  refused("mechanism", "laplace", "mechanism \"laplace\" is not one dpareto accounts (dp-sgd)");
  refused("examples", 0.5, ".examples: 0.5 is not a whole number >= 1");
  refused("delta", 1, ".delta: 1 is not in (0, 1)");
  refused("sampling", "shuffle", "'shuffle' is not a sampling scheme");
  refused("noise_multiplier", nullptr, "no \"noise_multiplier\"");
  refused("orders", 5, "unknown key \"orders\"");
  refused("lot_size", true, "expected a parameter name or a number");
  refused("examples", 300, ".lot_size: parameter 'batch' ranges over [16, 512], outside [1, 300]");
  refused("noise_multiplier", 0, ".noise_multiplier: 0, outside");
}

TEST_CASE("known_epsilon: the oracle's output is accounted by the declaration, and a contradiction fails it") {
  const space::Params p{0.01, 5, 256, 1.1};
  const double declared = privacy::dpsgd_epsilon(privacy::Sampling::poisson, 256.0 / 60000, 1.1, 5 * 234, 1e-5).epsilon;
  SUBCASE("no epsilon printed: dpareto's") {
    const auto problem = declared_oracle("silent", "{\"utility\": 0.8}");
    CHECK(problem.known_privacy_obstacle().empty());
    CHECK(problem.search_privacy(p) >= declared);  // no command run: the declaration alone
    const auto e = problem.evaluate(p, 1);
    INFO(e.message);
    REQUIRE(e.ok);
    CHECK(e.epsilon == declared);
    CHECK(e.delta == 1e-5);
    CHECK(problem.settings().at("known_epsilon") == declaration().dump());
  }
  SUBCASE("an epsilon within 5 % is replaced by the declared one") {
    const auto e = declared_oracle("close", "{\"epsilon\": " + std::to_string(declared * 1.03) + ", \"utility\": 0.8}")
                       .evaluate(p, 1);
    REQUIRE(e.ok);
    CHECK(e.epsilon == declared);
  }
  SUBCASE("an epsilon far from the declaration, or another delta, fails the evaluation") {
    const auto far = declared_oracle("far", "{\"epsilon\": 0.1, \"utility\": 0.8}").evaluate(p, 1);
    CHECK_FALSE(far.ok);
    CHECK(far.message.find("output \"epsilon\" 0.1 is not the declared known_epsilon's") != std::string::npos);
    const auto delta = declared_oracle("delta", "{\"utility\": 0.8, \"delta\": 1e-6}").evaluate(p, 1);
    CHECK_FALSE(delta.ok);
    CHECK(delta.message.find("output \"delta\" 1e-06 is not") != std::string::npos);
  }
  SUBCASE("without a declaration, known epsilon is refused with the reason") {
    ExternalCommandOptions options;
    options.command = "true";
    CHECK(ExternalCommandProblem(dpsgd_space(), options).known_privacy_obstacle().find("known_epsilon") !=
          std::string::npos);
  }
}
