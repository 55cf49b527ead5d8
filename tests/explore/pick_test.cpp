#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../plot/run_fixtures.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/explore/pick.hpp"
#include "dpareto/problems/registry.hpp"
#include "dpareto/space/grid.hpp"

using namespace dpareto;

namespace {

// A trade-off known in closed form: ε = 1 + 9a, utility = 0.2 + 0.6a − 0.3b² on [0,1]².
// Under ε ≤ E the best setting is a = (E − 1)/9, b = 0; under utility ≥ U the most private is
// a = (U − 0.2)/0.6, b = 0.
class TradeoffProblem : public problems::Problem {
 public:
  TradeoffProblem()
      : space_({{"a", space::Kind::continuous, space::Scale::linear, 0, 1, {}},
                {"b", space::Kind::continuous, space::Scale::linear, 0, 1, {}}}) {}
  std::string name() const override { return "plot_test_tradeoff"; }
  const space::Space& space() const override { return space_; }
  double delta() const override { return 0; }
  double privacy(const space::Params& p) const override { return 1 + 9 * p[0]; }
  problems::UtilityResult utility(const space::Params& p, std::uint64_t) const override {
    const double u = 0.2 + 0.6 * p[0] - 0.3 * p[1] * p[1];
    return {u, u - 0.01, u + 0.01, "", {}};
  }

 private:
  space::Space space_;
};

const problems::ProblemRegistration registration({"plot_test_tradeoff", "closed-form test trade-off",
                                                  [](const problems::ProblemOptions&) {
                                                    return std::make_unique<TradeoffProblem>();
                                                  }});

// A run directory of the problem evaluated on a 7×7 grid.
std::string tradeoff_run() {
  const std::string dir = plot::test::temp_dir("pick-tradeoff");
  const auto problem = problems::make_problem("plot_test_tradeoff");
  study::RunInfo info;
  info.problem = "plot_test_tradeoff";
  info.method = "grid";
  info.seed = 1;
  info.parameter_names = {"a", "b"};
  info.objectives.set_reference({10, 1});
  study::RunDirectoryWriter writer(dir, info);
  int id = 0;
  for (const auto& p : space::full_grid(problem->space(), 7)) {
    const auto e = problem->evaluate(p, 1);
    study::EvaluationRecord r;
    r.id = ++id;
    r.phase = "grid";
    r.status = e.ok ? study::EvaluationStatus::ok : study::EvaluationStatus::failed;
    r.params = p;
    r.epsilon = e.epsilon;
    r.utility = e.utility;
    r.utility_min = e.utility_min;
    r.utility_max = e.utility_max;
    writer.add(r);
  }
  return dir;
}

int run_cli(const std::string& args, std::string& out, std::string& err) {
  const std::string dir = plot::test::temp_dir("pick-cli-io");
  const int rc = std::system((std::string(DPARETO_CLI) + " " + args + " >" + dir + "/out 2>" + dir + "/err").c_str());
  std::stringstream o, e;
  o << std::ifstream(dir + "/out").rdbuf();
  e << std::ifstream(dir + "/err").rdbuf();
  out = o.str();
  err = e.str();
  return rc;
}

}  // namespace

TEST_CASE("pick observed: best front point under a privacy or utility target") {
  const auto run = study::read_run_directory(tradeoff_run());
  const auto picked = explore::pick_observed(run, {explore::Target::Kind::max_epsilon, 5.6});
  REQUIRE(picked.reached);
  CHECK(picked.point.params[0] == doctest::Approx(0.5));
  CHECK(picked.point.params[1] == doctest::Approx(0));
  CHECK(picked.point.epsilon == doctest::Approx(5.5));
  CHECK(picked.point.utility == doctest::Approx(0.5));
  CHECK(picked.point.source == "observed");

  const auto private_pick = explore::pick_observed(run, {explore::Target::Kind::min_utility, 0.55});
  REQUIRE(private_pick.reached);
  CHECK(private_pick.point.params[0] == doctest::Approx(4.0 / 6));  // a = 0.5833 rounds up to the grid's 2/3
  CHECK(private_pick.point.epsilon == doctest::Approx(7));

  const auto unreachable = explore::pick_observed(run, {explore::Target::Kind::max_epsilon, 0.5});
  CHECK_FALSE(unreachable.reached);
  CHECK(unreachable.point.epsilon == doctest::Approx(1));  // the most private point
}

TEST_CASE("pick observed: ties in utility go to the more private point") {
  const std::string dir = plot::test::temp_dir("pick-ties");
  study::RunInfo info = plot::test::svt_like_info("dpareto", 1);
  study::RunDirectoryWriter writer(dir, info);
  const std::vector<std::pair<double, double>> points{{3, 0.5}, {2, 0.5}, {8, 0.7}};
  int id = 0;
  for (const auto& [eps, u] : points) {
    study::EvaluationRecord r;
    r.id = ++id;
    r.phase = "bo";
    r.status = study::EvaluationStatus::ok;
    r.params = {static_cast<double>(id), 1};
    r.epsilon = eps;
    r.utility = r.utility_min = r.utility_max = u;
    writer.add(r);
  }
  const auto picked = explore::pick_observed(study::read_run_directory(dir), {explore::Target::Kind::max_epsilon, 5});
  REQUIRE(picked.reached);
  CHECK(picked.point.epsilon == doctest::Approx(2));
  CHECK(picked.point.record_id == 2);
}

TEST_CASE("pick model: finds the closed-form optimum among unevaluated settings") {
  const std::string dir = tradeoff_run();
  const auto run = study::read_run_directory(dir);
  const auto model = explore::rebuild_run_model(run, dir);
  for (const double E : {3.0, 6.2, 8.5}) {
    const auto picked = explore::pick_model(model, {explore::Target::Kind::max_epsilon, E});
    REQUIRE(picked.reached);
    CHECK(picked.point.source == "model");
    CHECK(picked.point.epsilon <= E);
    CHECK(picked.point.params[0] == doctest::Approx((E - 1) / 9).epsilon(0.03));
    CHECK(picked.point.params[1] < 0.08);
    CHECK(picked.point.utility == doctest::Approx(0.2 + 0.6 * (E - 1) / 9).epsilon(0.03));
    CHECK(picked.point.utility_std >= 0);
    CHECK(picked.point.utility_std < 0.05);
  }
  const auto private_pick = explore::pick_model(model, {explore::Target::Kind::min_utility, 0.55});
  REQUIRE(private_pick.reached);
  CHECK(private_pick.point.epsilon == doctest::Approx(1 + 9 * (0.35 / 0.6)).epsilon(0.03));
  CHECK(private_pick.point.utility >= 0.55);

  const auto unreachable = explore::pick_model(model, {explore::Target::Kind::max_epsilon, 0.5});
  CHECK_FALSE(unreachable.reached);
  CHECK(unreachable.point.epsilon == doctest::Approx(1).epsilon(0.01));
  CHECK_FALSE(explore::pick_model(model, {explore::Target::Kind::min_utility, 0.95}).reached);
}

TEST_CASE("dpareto pick CLI: JSON keys, unreachable target, candidate file") {
  const std::string dir = tradeoff_run();
  std::string out, err;
  REQUIRE(run_cli("pick " + dir + " --max-epsilon 5.6 --json", out, err) == 0);
  const auto j = nlohmann::json::parse(out);
  CHECK(j.at("params").at("a").get<double>() == doctest::Approx(0.5));
  CHECK(j.at("epsilon").get<double>() == doctest::Approx(5.5));
  CHECK(j.at("utility").get<double>() == doctest::Approx(0.5));
  CHECK(j.at("utility_std").is_null());
  CHECK(j.at("source") == "observed");

  CHECK(run_cli("pick " + dir + " --max-epsilon 0.5", out, err) != 0);
  CHECK(err.find("unreachable") != std::string::npos);
  CHECK(err.find("closest achievable") != std::string::npos);
  CHECK(err.find("epsilon 1") != std::string::npos);

  const std::string file = dir + "/candidates.json";
  REQUIRE(run_cli("pick " + dir + " --max-epsilon 8 --candidates 3 --out " + file, out, err) == 0);
  const auto c = nlohmann::json::parse(std::ifstream(file));
  CHECK(c.at("problem") == "plot_test_tradeoff");
  REQUIRE(c.at("candidates").size() == 3);
  for (const auto& candidate : c.at("candidates")) {
    CHECK(candidate.contains("a"));
    CHECK(candidate.contains("b"));
  }
}
