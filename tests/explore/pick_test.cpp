#include <doctest/doctest.h>

#include <sys/wait.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "../plot/run_fixtures.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/explore/pick.hpp"
#include "dpareto/explore/robust_front.hpp"
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
    return {u, u - 0.01, u + 0.01, "", {}, {}};
  }

 private:
  space::Space space_;
};

const problems::ProblemRegistration registration({"plot_test_tradeoff", "closed-form test trade-off",
                                                  [](const problems::ProblemOptions&) {
                                                    return std::make_unique<TradeoffProblem>();
                                                  }});

// The trade-off's noise-free utility.
double tradeoff_utility(const std::vector<double>& p) {
  return 0.2 + 0.6 * p[0] - 0.3 * p[1] * p[1];
}

// A run directory of the problem evaluated on a 7×7 grid; with `noise_sd`, each utility measured with
// that much Gaussian noise (fixed seed), and `lucky` added to the one at a = 1/6, b = 1/2.
std::string tradeoff_run(double noise_sd = 0, double lucky = 0, const std::string& name = "pick-tradeoff") {
  const std::string dir = plot::test::temp_dir(name);
  std::mt19937_64 noise_rng(17);
  std::normal_distribution<double> noise(0, 1);
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
    r.utility = e.utility + noise_sd * noise(noise_rng) +
                (std::abs(p[0] - 1.0 / 6) < 1e-9 && std::abs(p[1] - 0.5) < 1e-9 ? lucky : 0);
    r.utility_min = r.utility - 0.01;
    r.utility_max = r.utility + 0.01;
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

TEST_CASE("pick observed: an unreachable target's closest point keeps the limits where a front point can") {
  // Three points, each best in one objective, so all three are on the 3-D front.
  study::RunData run;
  run.info.parameter_names = {"a"};
  run.info.objectives = pareto::Objectives::with({"train_seconds"}, {10, 1, 100});
  const std::vector<std::array<double, 3>> points{{1, 0.3, 50}, {2, 0.5, 5}, {5, 0.7, 40}};
  for (const auto& [eps, u, seconds] : points) {
    study::EvaluationRecord r;
    r.id = static_cast<int>(run.records.size()) + 1;
    r.phase = "bo";
    r.status = study::EvaluationStatus::ok;
    r.params = {eps};
    r.epsilon = eps;
    r.utility = r.utility_min = r.utility_max = u;
    r.further["train_seconds"] = seconds;
    run.records.push_back(r);
  }
  const std::vector<explore::Limit> fast{{"train_seconds", 10}};
  const auto too_private = explore::pick_observed(run, {explore::Target::Kind::max_epsilon, 0.5, fast});
  CHECK_FALSE(too_private.reached);
  CHECK(too_private.point.epsilon == doctest::Approx(2));  // the most private within 10 s, not ε 1 at 50 s
  const auto too_useful = explore::pick_observed(run, {explore::Target::Kind::min_utility, 0.9, fast});
  CHECK_FALSE(too_useful.reached);
  CHECK(too_useful.point.utility == doctest::Approx(0.5));  // not 0.7 at 40 s
  // Without limits, and where no point keeps them, the most private / most useful point overall.
  CHECK(explore::pick_observed(run, {explore::Target::Kind::max_epsilon, 0.5}).point.epsilon == doctest::Approx(1));
  const std::vector<explore::Limit> impossible{{"train_seconds", 1}};
  CHECK(explore::pick_observed(run, {explore::Target::Kind::min_utility, 0.9, impossible}).point.utility ==
        doctest::Approx(0.7));
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

  // Under ε ≤ 10 the optimum is the evaluated corner a = 1, b = 0: the model pick is another
  // setting, not that corner again: at least 0.1% of a range away.
  const auto corner = explore::pick_model(model, {explore::Target::Kind::max_epsilon, 10});
  REQUIRE(corner.reached);
  const double from_corner = std::max(std::abs(corner.point.params[0] - 1), std::abs(corner.point.params[1]));
  INFO("a = ", corner.point.params[0], ", b = ", corner.point.params[1]);
  CHECK(from_corner >= 1e-3);
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

TEST_CASE("robust utilities: the observed ones where there is no noise, closer to the truth where there is") {
  SUBCASE("noise-free: the GP reproduces every utility, and the robust pick is the observed one") {
    const std::string dir = tradeoff_run();
    const auto run = study::read_run_directory(dir);
    const auto robust = explore::robust_run(explore::rebuild_run_model(run, dir), run);
    REQUIRE(robust.records.size() == run.records.size());
    for (std::size_t i = 0; i < run.records.size(); ++i) {
      CAPTURE(i);
      if (run.records[i].utility > 0.05)  // below, the logit transform clips the utility
        CHECK(robust.records[i].utility == doctest::Approx(run.records[i].utility).epsilon(0.003));
      CHECK(robust.records[i].epsilon == run.records[i].epsilon);
      CHECK(robust.records[i].utility_max == run.records[i].utility_max);  // the observed repeats are kept
    }
    const auto picked =
        explore::pick_robust(explore::rebuild_run_model(run, dir), run, {explore::Target::Kind::max_epsilon, 5.6});
    REQUIRE(picked.reached);
    CHECK(picked.point.params[0] == doctest::Approx(0.5));
    CHECK(picked.point.params[1] == doctest::Approx(0));
    CHECK(picked.point.utility == doctest::Approx(0.5));  // observed, as measured
    CHECK(picked.point.robust_utility == doctest::Approx(0.5).epsilon(0.003));
  }
  SUBCASE("noise of sd 0.03: the robust utilities are nearer the noise-free ones than the measured ones") {
    const std::string dir = tradeoff_run(0.03, 0, "pick-noisy");
    const auto run = study::read_run_directory(dir);
    const auto robust = explore::robust_run(explore::rebuild_run_model(run, dir), run);
    double observed_error = 0, robust_error = 0;
    for (std::size_t i = 0; i < run.records.size(); ++i) {
      const double truth = tradeoff_utility(run.records[i].params);
      if (truth < 0.05) continue;
      observed_error += std::abs(run.records[i].utility - truth);
      robust_error += std::abs(robust.records[i].utility - truth);
    }
    INFO("mean absolute errors, observed ", observed_error / 49, ", robust ", robust_error / 49);
    CHECK(robust_error < 0.6 * observed_error);
  }
}

TEST_CASE("pick by robust utility passes over a lucky draw that pick by observed utility takes") {
  // At a = 1/6 (ε = 2.5) the noise-free utility is 0.3 at b = 0 and 0.225 at b = 1/2, where one
  // measurement drew +0.12: ranked as measured it tops the column.
  const std::string dir = tradeoff_run(0.01, 0.12, "pick-lucky");
  const auto run = study::read_run_directory(dir);
  const explore::Target target{explore::Target::Kind::max_epsilon, 2.6};
  const auto observed = explore::pick_observed(run, target);
  REQUIRE(observed.reached);
  CHECK(observed.point.params[1] == doctest::Approx(0.5));
  const auto robust = explore::pick_robust(explore::rebuild_run_model(run, dir), run, target);
  REQUIRE(robust.reached);
  CHECK(robust.point.epsilon <= 2.6);
  CHECK(tradeoff_utility(robust.point.params) >= 0.29);  // b = 0 or 1/6, not the lucky b = 1/2
  CHECK(robust.point.robust_utility < robust.point.utility + 0.05);
}

TEST_CASE("robust fronts are left to runs a GP can be fitted on quickly") {
  study::RunData run;
  study::EvaluationRecord r;
  r.status = study::EvaluationStatus::ok;
  run.records.assign(bo::Explorer::kMaxGpObservations, r);
  CHECK(explore::robust_front_unavailable(run).empty());
  r.phase = study::kIntermediatePhase;  // intermediate results do not count: the GP thins them
  run.records.push_back(r);
  CHECK(explore::robust_front_unavailable(run).empty());
  r.phase = "random";
  run.records.push_back(r);
  CHECK(explore::robust_front_unavailable(run) == "513 evaluations, more than the 512 a GP is fitted on");
}

TEST_CASE("pick --from model --verify: exit 1 when the measured utility falls outside the model's interval") {
  // An SVT run whose recorded utilities are all 0.97 (never measured so): the surrogate is sure of
  // 0.97 everywhere, and the real oracle measures far less at ε ≤ 5.
  const std::string dir = plot::test::temp_dir("pick-overconfident");
  {
    study::RunDirectoryWriter writer(dir, plot::test::svt_like_info("dpareto", 1));
    int id = 0;
    for (const double bound : {1.0, 5.0, 10.0, 20.0, 30.0})
      for (int k = 0; k < 8; ++k) {
        study::EvaluationRecord r;
        r.id = ++id;
        r.phase = "bo";
        r.status = study::EvaluationStatus::ok;
        r.params = {bound, std::pow(10.0, -2 + 4 * k / 7.0)};
        const double c2 = 2 * bound;
        r.epsilon = (1 + std::cbrt(c2)) * (1 + std::cbrt(c2 * c2)) / r.params[1];
        r.utility = 0.97 + 0.001 * (id % 3);
        r.utility_min = r.utility - 0.01;
        r.utility_max = r.utility + 0.01;
        writer.add(r);
      }
  }
  std::string out, err;
  const int rc = run_cli("pick " + dir + " --max-epsilon 5 --from model --verify --json", out, err);
  INFO(out, err);
  REQUIRE(WIFEXITED(rc));
  CHECK(WEXITSTATUS(rc) == 1);
  const auto j = nlohmann::json::parse(out);
  CHECK(j.at("utility_interval").at(0).get<double>() > 0.9);
  CHECK(j.at("verify").at("utility").get<double>() < 0.9);
  CHECK(j.at("verify").at("within_interval") == false);
  CHECK(run_cli("pick " + dir + " --max-epsilon 5 --from model --verify", out, err) != 0);
  CHECK(out.find("OUTSIDE the model's 95% interval") != std::string::npos);

  // A real exploration's surrogate: the measurement falls inside, exit 0.
  const std::string real = plot::test::temp_dir("pick-explored");
  REQUIRE(run_cli("explore --problem svt --budget 40 --seed 3 --out " + real + "/svt", out, err) == 0);
  CHECK(out.find("robust front (each evaluated setting at the utility GP's posterior median)") != std::string::npos);
  REQUIRE(run_cli("pick " + real + "/svt --max-epsilon 5 --from model --verify --json", out, err) == 0);
  const auto inside = nlohmann::json::parse(out);
  CHECK(inside.at("verify").at("within_interval") == true);
  CHECK(inside.at("utility_interval").at(0).get<double>() <= inside.at("verify").at("utility").get<double>());
  CHECK(inside.at("verify").at("utility").get<double>() <= inside.at("utility_interval").at(1).get<double>());
  // The default ranking is the robust one; --by observed ranks as measured.
  REQUIRE(run_cli("pick " + real + "/svt --max-epsilon 5 --json", out, err) == 0);
  CHECK(nlohmann::json::parse(out).at("by") == "robust");
  CHECK(nlohmann::json::parse(out).at("robust_utility").is_number());
  REQUIRE(run_cli("pick " + real + "/svt --max-epsilon 5 --by observed --json", out, err) == 0);
  CHECK(nlohmann::json::parse(out).at("by") == "observed");
  CHECK_FALSE(nlohmann::json::parse(out).contains("robust_utility"));
  CHECK(run_cli("pick " + real + "/svt --max-epsilon 5 --by luck", out, err) != 0);
  CHECK(err.find("--by luck: expected robust or observed") != std::string::npos);
  CHECK(run_cli("pick " + real + "/svt --max-epsilon 5 --from model --by observed", out, err) != 0);
  CHECK(err.find("no meaning with --from model") != std::string::npos);
}
