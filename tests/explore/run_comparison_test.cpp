// explore::compare_runs (dpareto compare): hypervolumes of hand-made runs on the common axis, the
// first-N cut, runs split into parts, and the refusals.
#include <doctest/doctest.h>

#include <filesystem>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/explore/run_comparison.hpp"
#include "dpareto/study/run_record.hpp"

using namespace dpareto;

namespace {

const test::TempRoot run_comparison_root("dpareto_run_comparison_test_");

// A run directory holding the given (epsilon, utility) evaluations, in order.
std::string make_run(const std::string& name, const std::vector<std::pair<double, double>>& points) {
  const std::string dir = run_comparison_root.dir(name).string();
  study::RunInfo info;
  info.problem = "toy";
  info.method = "random";
  info.seed = 1;
  info.parameter_names = {"x"};
  study::RunDirectoryWriter writer(dir, info);
  int id = 0;
  for (const auto& [epsilon, utility] : points) {
    study::EvaluationRecord r;
    r.id = ++id;
    r.phase = "random";
    r.status = study::EvaluationStatus::ok;
    r.params = {double(id)};
    r.epsilon = epsilon;
    r.delta = 1e-5;
    r.utility = r.utility_min = r.utility_max = utility;
    writer.add(r);
  }
  return dir;
}

}  // namespace

TEST_CASE("hypervolumes by hand under reference (10, 1), linear epsilon; the paper's difference") {
  const auto a = make_run("a", {{1, 0.8}});  // (10 − 1) · 0.8 = 7.2
  // Parts of 2: {(2, err .5), (5, err .1)}: 3 · 0.5 + 5 · 0.9 = 6; {(1, err .9), (9, err .5)}: 8 · 0.1 + 1 · 0.5 = 1.3.
  const auto b = make_run("b", {{2, 0.5}, {5, 0.9}, {1, 0.1}, {9, 0.5}, {3, 0.99}});
  explore::ComparisonAxis axis;
  axis.split_against = 2;
  const auto c = explore::compare_runs({a}, {b}, axis);
  REQUIRE(c.runs.size() == 1);
  CHECK(c.runs[0].hypervolume == doctest::Approx(7.2));
  REQUIRE(c.against.size() == 2);  // the fifth evaluation fills no part
  CHECK(c.against[0].directory == b + "[1-2]");
  CHECK(c.against[0].hypervolume == doctest::Approx(6.0));
  CHECK(c.against[1].directory == b + "[3-4]");
  CHECK(c.against[1].hypervolume == doctest::Approx(1.3));
  REQUIRE(c.per_run.size() == 1);
  CHECK(c.per_run[0].mean == doctest::Approx(7.2 - (6.0 + 1.3) / 2));
  CHECK_FALSE(c.welch);  // one run on the first side
  bool warned_leftover = false;
  for (const auto& w : c.warnings) warned_leftover |= w.find("the last 1 evaluations") != std::string::npos;
  CHECK(warned_leftover);
}

TEST_CASE("the first N evaluations, another reference and the log axis") {
  const auto b = make_run("cut", {{2, 0.5}, {5, 0.9}});
  const auto a = make_run("cut_a", {{1, 0.8}, {0.5, 0.5}});
  explore::ComparisonAxis axis;
  axis.evaluations = 1;
  auto c = explore::compare_runs({b}, {a}, axis);
  CHECK(c.runs[0].hypervolume == doctest::Approx(8 * 0.5));  // (2, err .5) alone
  CHECK(c.against[0].hypervolume == doctest::Approx(9 * 0.8));
  axis.reference = pareto::Point{4, 1};
  c = explore::compare_runs({b}, {a}, axis);
  CHECK(c.runs[0].hypervolume == doctest::Approx(2 * 0.5));
  axis = {};
  axis.hv_axis = "log";
  axis.log_floor = 0.01;
  c = explore::compare_runs({a}, {b}, axis);
  // log10 axis, reference log10(10) = 1: (0, err .2) → (1 − 0) · 0.8, with (log10 0.5, err .5) left of it.
  CHECK(c.runs[0].hypervolume == doctest::Approx(0.8 + (0 - std::log10(0.5)) * 0.5));
}

TEST_CASE("refusals name the run: too few evaluations, a part larger than the run, a reference of the wrong size") {
  const auto b = make_run("short", {{2, 0.5}});
  explore::ComparisonAxis axis;
  axis.evaluations = 5;
  CHECK_THROWS_WITH_AS(explore::compare_runs({b}, {b}, axis),
                       doctest::Contains((b + ": 1 evaluations, fewer than the 5").c_str()), InputError);
  axis = {};
  axis.split_against = 3;
  CHECK_THROWS_WITH_AS(explore::compare_runs({b}, {b}, axis), doctest::Contains("fewer than one part of 3"),
                       InputError);
  axis = {};
  axis.reference = pareto::Point{10, 1, 5};
  CHECK_THROWS_WITH_AS(explore::compare_runs({b}, {b}, axis),
                       doctest::Contains("2 objectives, but the reference has 3"), InputError);
  CHECK_THROWS_AS(explore::compare_runs({run_comparison_root.dir("empty").string() + "/missing"}, {b}, {}), InputError);
}
