#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "../support/test_support.hpp"

using dpareto::test::run_cli;

TEST_CASE("account dpsgd --json") {
  const auto r = run_cli(
      "account dpsgd --sampling poisson --q 0.01 --sigma 4 --steps 10000 --delta 1e-5 "
      "--orders 2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32 "
      "--conversion classic --json --rdp");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.output);
  CHECK(j["epsilon"].get<double>() == doctest::Approx(1.26).epsilon(0.005));
  CHECK(j["delta"].get<double>() == 1e-5);
  CHECK(j["conversion"] == "classic");
  CHECK(j["sampling"] == "poisson");
  CHECK(j.contains("order"));
  CHECK(j["rdp"].size() == 31);
  CHECK(j["rdp"][0][0].get<double>() == 2);
}

TEST_CASE("account gaussian, tuning and calibrate --json") {
  auto g = run_cli("account gaussian --eps 0.5 --delta 1e-5 --json");
  REQUIRE(g.status == 0);
  auto j = nlohmann::json::parse(g.output);
  CHECK(j["sigma_analytic"].get<double>() < j["sigma_classic"].get<double>());
  g = run_cli("account gaussian --eps 2 --delta 1e-5 --json");
  REQUIRE(g.status == 0);
  CHECK(nlohmann::json::parse(g.output)["sigma_classic"].is_null());  // not valid for ε >= 1
  const auto t = run_cli(
      "account tuning --distribution poisson --mu 10 --sampling fixed --q 0.01 --sigma 1.5 "
      "--steps 1000 --delta 1e-5 --json");
  REQUIRE(t.status == 0);
  j = nlohmann::json::parse(t.output);
  const auto base = nlohmann::json::parse(
      run_cli("account dpsgd --sampling fixed --q 0.01 --sigma 1.5 --steps 1000 --delta 1e-5 --json").output);
  CHECK(j["epsilon"].get<double>() > base["epsilon"].get<double>());
  CHECK(j["sampling"] == "fixed");
  const auto c = run_cli("calibrate dpsgd --eps 1 --delta 1e-5 --q 0.01 --steps 10000 --sampling poisson --json");
  REQUIRE(c.status == 0);
  j = nlohmann::json::parse(c.output);
  CHECK(j["sigma"].get<double>() > 1);
  CHECK(j["epsilon"].get<double>() <= 1);
}

TEST_CASE("bad input: one line naming the value, non-zero exit") {
  const std::string base = "account dpsgd --sampling poisson --sigma 1 --steps 10 --delta 1e-5 ";
  struct Case {
    std::string args, needle;
  };
  for (const Case& c :
       {Case{base + "--q 1.5", "--q 1.5"}, Case{base + "--q -0.1", "--q -0.1"},
        Case{"account dpsgd --sampling poisson --q 0.1 --sigma 0 --steps 10 --delta 1e-5", "--sigma 0"},
        Case{"account dpsgd --sampling poisson --q 0.1 --sigma 1 --steps=-3 --delta 1e-5", "--steps -3"},
        Case{"account dpsgd --sampling poisson --q 0.1 --sigma 1 --steps 3 --delta 1", "--delta 1"},
        Case{base + "--q 0.1 --orders 1,2", "order 1"}, Case{base + "--q 0.1 --conversion best", "best"},
        Case{"account gaussian --eps 1 --delta 0", "--delta 0"},
        Case{"calibrate dpsgd --eps 1e-9 --delta 1e-5 --q 0.01 --steps 10000 --sampling poisson", "1e-09"}}) {
    const auto r = run_cli(c.args);
    INFO(c.args, " -> ", r.output);
    CHECK(r.status != 0);
    CHECK(r.output.find(c.needle) != std::string::npos);
    CHECK(r.output.find('\n') == r.output.size() - 1);  // one line
  }
}

TEST_CASE("--accountant pld: the bracket in text and JSON, calibration, bad input") {
  const std::string args =
      "account dpsgd --sampling poisson --q 0.01 --sigma 1.1 --steps 10000 --delta 1e-5 --accountant pld";
  auto r = run_cli(args + " --json");
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.output);
  CHECK(j["accountant"] == "pld");
  CHECK(j["epsilon"].get<double>() == doctest::Approx(5.19).epsilon(0.005));
  CHECK(j["epsilon_optimistic"].get<double>() <= j["epsilon"].get<double>());
  CHECK(j["epsilon_optimistic"].get<double>() > 0.999 * j["epsilon"].get<double>());
  CHECK(j["epsilon_rdp"].get<double>() == doctest::Approx(5.63).epsilon(0.005));
  CHECK(j["discretization"].get<double>() == 1e-4);
  CHECK(j["sampling"] == "poisson");
  r = run_cli(args);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("(PLD, optimistic 5.19") != std::string::npos);
  CHECK(r.output.find("bracket width") != std::string::npos);
  CHECK(r.output.find("discretization 0.0001") != std::string::npos);
  // PLD is the default; RDP on request, or when --orders or --conversion (RDP notions) are given.
  const std::string base = "account dpsgd --sampling poisson --q 0.01 --sigma 1.1 --steps 10000 --delta 1e-5 --json";
  CHECK(nlohmann::json::parse(run_cli(base).output) == j);
  for (const char* rdp_flags : {" --accountant rdp", " --conversion improved", " --orders 2,4,8,16,32"}) {
    CAPTURE(rdp_flags);
    const auto k = nlohmann::json::parse(run_cli(base + rdp_flags).output);
    CHECK(k["epsilon"].get<double>() == doctest::Approx(5.63).epsilon(0.05));
    CHECK(!k.contains("epsilon_optimistic"));
  }

  r = run_cli("calibrate dpsgd --eps 1 --delta 1e-5 --q 0.01 --steps 10000 --sampling poisson --accountant pld --json");
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.output);
  const double pld_sigma = j["sigma"].get<double>();
  CHECK(j["accountant"] == "pld");
  CHECK(j["epsilon"].get<double>() <= 1);
  CHECK(j["epsilon_optimistic"].get<double>() <= j["epsilon"].get<double>());
  j = nlohmann::json::parse(
      run_cli("calibrate dpsgd --eps 1 --delta 1e-5 --q 0.01 --steps 10000 --sampling poisson --accountant rdp --json")
          .output);
  CHECK(pld_sigma < j["sigma"].get<double>());
  r = run_cli("calibrate steps --eps 2 --delta 1e-5 --q 0.01 --sigma 1.1 --sampling poisson --accountant pld --json");
  REQUIRE(r.status == 0);
  const long long pld_steps = nlohmann::json::parse(r.output)["steps"].get<long long>();
  j = nlohmann::json::parse(
      run_cli("calibrate steps --eps 2 --delta 1e-5 --q 0.01 --sigma 1.1 --sampling poisson --accountant rdp --json")
          .output);
  CHECK(pld_steps > j["steps"].get<long long>());

  struct Case {
    std::string args, needle;
  };
  for (const Case& c :
       {Case{"account dpsgd --sampling poisson --q 0.01 --sigma 1 --steps 10 --delta 1e-5 --accountant moments",
             "moments"},
        Case{"account dpsgd --sampling poisson --q 0 --sigma 1 --steps 10 --delta 1e-5 --accountant pld", "q = 0"},
        Case{"account dpsgd --sampling poisson --q 0.1 --sigma 1 --steps 0 --delta 1e-5 --accountant pld", "steps = 0"},
        Case{"calibrate dpsgd --eps 1 --delta 1e-5 --q 0.01 --steps 100 --sampling poisson --accountant pld "
             "--conversion classic",
             "--accountant pld"}}) {
    const auto bad = run_cli(c.args);
    INFO(c.args, " -> ", bad.output);
    CHECK(bad.status == 2);
    CHECK(bad.output.find(c.needle) != std::string::npos);
    CHECK(bad.output.find('\n') == bad.output.size() - 1);  // one line
  }
}
