// `dpareto problems` lists every problem's parameters with their domains (issue 21 item 5), and
// the listed domains are those the problems explore under the default options.
#include <doctest/doctest.h>

#include <string>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/problems/registry.hpp"

TEST_CASE("problems lists each parameter: integer or real, its bounds, log scale") {
  const auto r = dpareto::test::run_cli("problems");
  REQUIRE(r.status == 0);
  const auto listed = [&](const std::string& line) {
    CHECK_MESSAGE(r.output.find("\n" + line + "\n") != std::string::npos, (line + " not in:\n" + r.output));
  };
  listed("  svt                     sparse vector technique (DPareto Alg. 1): bound C, noise b");
  listed("      bound               integer in [1, 30], log scale");
  listed("      noise               real in [0.01, 100], log scale");
  listed("      learning_rate       real in [0.0005, 0.05], log scale");
  listed("      lot_size            integer in [16, 4000]");  // MNIST
  listed("      regularization      real in [0.0001, 1], log scale");
  listed("      options (--set)     queries, true_queries, repeats, bound_scale");
  for (const auto& info : dpareto::problems::list_problems()) {
    CAPTURE(info.name);
    CHECK(!info.parameters.empty());
    for (const auto& p : info.parameters) CHECK(r.output.find("      " + p.name + " ") != std::string::npos);
  }
}

TEST_CASE("the listed options are exactly those each factory accepts") {
  // An unknown key is refused before any data is loaded, naming the keys the factory knows.
  for (const auto& info : dpareto::problems::list_problems()) {
    CAPTURE(info.name);
    REQUIRE(!info.options.empty());
    std::string keys;
    for (const auto& key : info.options) keys += (keys.empty() ? "" : ", ") + key;
    const std::string expected = "(known: " + keys + ")";
    CHECK_THROWS_WITH_AS(dpareto::problems::make_problem(info.name, {{"no_such_option", "1"}}),
                         doctest::Contains(expected.c_str()), dpareto::InputError);
  }
}

TEST_CASE("the listed domains are the problems' own spaces under the default options") {
  for (const char* name : {"svt", "synthetic-logreg-sgd"}) {  // the problems that need no data files
    CAPTURE(name);
    const auto problem = dpareto::problems::make_problem(name);
    dpareto::problems::ProblemInfo info;
    for (const auto& i : dpareto::problems::list_problems())
      if (i.name == name) info = i;
    const auto& actual = problem->space().parameters();
    REQUIRE(info.parameters.size() == actual.size());
    for (std::size_t k = 0; k < actual.size(); ++k) {
      CHECK(info.parameters[k].name == actual[k].name);
      CHECK(info.parameters[k].kind == actual[k].kind);
      CHECK(info.parameters[k].scale == actual[k].scale);
      CHECK(info.parameters[k].low == actual[k].low);
      CHECK(info.parameters[k].high == actual[k].high);
    }
  }
}
