#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "dpareto/bo/acquisition_registry.hpp"
#include "dpareto/bo/ehvi.hpp"
#include "dpareto/bo/hvpoi.hpp"
#include "dpareto/bo/improvement_region.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/gp/output_transform.hpp"
#include "dpareto/pareto/cells.hpp"
#include "dpareto/pareto/hypervolume.hpp"

using namespace dpareto;

namespace {
const std::vector<pareto::Point2> kFront = {{1, 3}, {2, 2}, {3, 1}};
const pareto::Point2 kReference = {4, 4};
const pareto::Point2 kMean = {1.5, 1.5};
const pareto::Point2 kSd = {1.0, 0.5};

// The non-dominated region below the reference: y1 < r1 and y2 below the staircase at y1.
bool improves(const pareto::Point2& y) {
  if (y[0] >= kReference[0] || y[1] >= kReference[1]) return false;
  for (const auto& p : kFront)
    if (p[0] <= y[0] && p[1] <= y[1]) return false;
  return true;
}
}  // namespace

TEST_CASE("PoI, HVI, HVPoI and EHVI match DESIGN's golden values") {
  const auto cells = pareto::nondominated_cells(kFront, kReference);
  CHECK(bo::probability_of_improvement(cells, kMean, kSd) == doctest::Approx(0.9039381301).epsilon(1e-9));
  CHECK(bo::hypervolume_improvement(cells, kMean) == doctest::Approx(1.25).epsilon(1e-12));
  CHECK(bo::hypervolume_improvement(cells, kMean) * bo::probability_of_improvement(cells, kMean, kSd) ==
        doctest::Approx(1.1299226626).epsilon(1e-9));
  CHECK(bo::expected_hypervolume_improvement(cells, kMean, kSd) == doctest::Approx(1.7355012573).epsilon(1e-9));
}

TEST_CASE("HVI on cells equals HV(P ∪ {m}) − HV(P) at random points") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 5.0);
  const auto cells = pareto::nondominated_cells(kFront, kReference);
  for (int i = 0; i < 500; ++i) {
    const pareto::Point2 m{u(rng), u(rng)};
    const double expected = pareto::hypervolume_improvement_2d(kFront, m, kReference);
    CHECK(bo::hypervolume_improvement(cells, m) == doctest::Approx(expected).epsilon(1e-12));
  }
}

TEST_CASE("PoI and EHVI agree with Monte Carlo within 4 standard errors") {
  const auto cells = pareto::nondominated_cells(kFront, kReference);
  std::mt19937_64 rng(11);
  std::normal_distribution<double> z(0.0, 1.0);
  const int n = 200000;
  double hits = 0, sum = 0, sum_sq = 0;
  for (int i = 0; i < n; ++i) {
    const pareto::Point2 y{kMean[0] + kSd[0] * z(rng), kMean[1] + kSd[1] * z(rng)};
    hits += improves(y);
    const double hvi = pareto::hypervolume_improvement_2d(kFront, y, kReference);
    sum += hvi;
    sum_sq += hvi * hvi;
  }
  const double poi = hits / n, poi_se = std::sqrt(poi * (1 - poi) / n);
  CHECK(std::abs(bo::probability_of_improvement(cells, kMean, kSd) - poi) < 4 * poi_se);
  const double mean = sum / n, se = std::sqrt((sum_sq / n - mean * mean) / n);
  CHECK(std::abs(bo::expected_hypervolume_improvement(cells, kMean, kSd) - mean) < 4 * se);
}

TEST_CASE("cells mapped to GP space give the PoI of the untransformed prediction (monotone maps are exact)") {
  // Objective-space front of (epsilon, error) on a linear axis; a log-normal epsilon and a
  // logit-normal utility: PoI computed in GP space must equal the Monte-Carlo probability in
  // objective space.
  const std::vector<pareto::Point2> front = {{0.5, 0.4}, {1.0, 0.2}, {4.0, 0.1}};
  const pareto::Point2 reference = {10, 1};
  pareto::EpsilonAxis axis;  // linear
  const auto cells = pareto::nondominated_cells(front, reference);
  const auto gp_cells = bo::cells_to_gp_space(cells, axis);
  const double mu_log_eps = std::log(1.5), sd_log_eps = 0.8, mu_logit_u = gp::forward(gp::Transform::logit, 0.75),
               sd_logit_u = 0.6;
  const double poi = bo::probability_of_improvement(gp_cells, {mu_log_eps, -mu_logit_u}, {sd_log_eps, sd_logit_u});
  std::mt19937_64 rng(3);
  std::normal_distribution<double> z(0.0, 1.0);
  const int n = 200000;
  double hits = 0;
  for (int i = 0; i < n; ++i) {
    const double eps = std::exp(mu_log_eps + sd_log_eps * z(rng));
    const double err = 1 - gp::inverse(gp::Transform::logit, mu_logit_u + sd_logit_u * z(rng));
    bool dominated = !(eps < reference[0] && err < reference[1]);
    for (const auto& p : front) dominated = dominated || (p[0] <= eps && p[1] <= err);
    hits += !dominated;
  }
  const double mc = hits / n;
  CHECK(std::abs(poi - mc) < 4 * std::sqrt(mc * (1 - mc) / n));
}

TEST_CASE("HVPoI is zero where the predicted mean is dominated and positive where it improves") {
  const std::vector<pareto::Point2> front = {{1.0, 0.3}, {5.0, 0.1}};
  pareto::EpsilonAxis axis;
  axis.kind = pareto::EpsilonAxis::Kind::log10;
  axis.floor = 1e-2;
  std::vector<pareto::Point2> mapped;
  for (const auto& p : front) mapped.push_back(axis.map(p));
  const auto cells = pareto::nondominated_cells(mapped, axis.map({1000, 1}));
  const bo::ImprovementRegion region{cells, bo::cells_to_gp_space(cells, axis), axis, false};
  const bo::GpPrediction dominated{std::log(2.0), 0.3, gp::forward(gp::Transform::logit, 0.6), 0.3};
  const bo::GpPrediction better{std::log(0.5), 0.3, gp::forward(gp::Transform::logit, 0.75), 0.3};
  const auto hvpoi = bo::make_acquisition("hvpoi");
  const auto ehvi = bo::make_acquisition("ehvi");
  CHECK(hvpoi->value(region, dominated) == 0.0);
  CHECK_FALSE(hvpoi->may_improve(region, dominated.mean_log_epsilon, dominated.mean_logit_utility));
  CHECK(hvpoi->value(region, better) > 0.0);
  CHECK(hvpoi->may_improve(region, better.mean_log_epsilon, better.mean_logit_utility));
  CHECK(ehvi->value(region, dominated) > 0.0);
  CHECK(ehvi->may_improve(region, dominated.mean_log_epsilon, dominated.mean_logit_utility));
}

TEST_CASE("acquisitions are registered by name; an unknown name lists the known ones") {
  // The default first, then alphabetically (this binary also registers a test acquisition).
  const auto names = bo::acquisition_names();
  REQUIRE(names.size() >= 2);
  CHECK(names[0] == "hvpoi");
  CHECK(names[1] == "ehvi");
  CHECK(bo::acquisition_choices(", ", " or ").rfind("hvpoi, ehvi", 0) == 0);
  CHECK(bo::make_acquisition("ehvi")->label() == "EHVI");
  CHECK(bo::make_acquisition("hvpoi")->name() == "hvpoi");
  CHECK_FALSE(bo::acquisition_exists("pi"));
  CHECK_THROWS_WITH_AS(bo::make_acquisition("pi"), doctest::Contains("unknown acquisition 'pi' (known: hvpoi, ehvi"),
                       InputError);
}
