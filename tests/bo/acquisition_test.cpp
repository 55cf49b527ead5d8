#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "dpareto/bo/acquisition_registry.hpp"
#include "dpareto/bo/ehvi.hpp"
#include "dpareto/bo/hvpoi.hpp"
#include "dpareto/bo/improvement_region.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/pareto/boxes.hpp"
#include "dpareto/pareto/hypervolume.hpp"
#include "dpareto/pareto/objective_transform.hpp"

using namespace dpareto;

namespace {
const std::vector<pareto::Point> kFront = {{1, 3}, {2, 2}, {3, 1}};
const pareto::Point kReference = {4, 4};
const pareto::Point kMean = {1.5, 1.5};
const pareto::Point kSd = {1.0, 0.5};

// EHVI of N(mean, sd²) on boxes in the same space.
double gaussian_ehvi(const std::vector<pareto::Box>& boxes, const pareto::Point& mean, const pareto::Point& sd) {
  std::vector<bo::AxisLaw> laws;
  for (std::size_t d = 0; d < mean.size(); ++d) laws.push_back({bo::AxisLaw::Kind::normal, mean[d], sd[d]});
  return bo::expected_hypervolume_improvement(boxes, laws);
}

// y is below the reference and no point of the front weakly dominates it.
bool improves(const std::vector<pareto::Point>& front, const pareto::Point& reference, const pareto::Point& y) {
  for (std::size_t d = 0; d < y.size(); ++d)
    if (y[d] >= reference[d]) return false;
  for (const auto& p : front) {
    bool weakly = true;
    for (std::size_t d = 0; d < y.size(); ++d) weakly = weakly && p[d] <= y[d];
    if (weakly) return false;
  }
  return true;
}

// PoI and EHVI of N(mean, sd²) by Monte Carlo, each within 4 standard errors.
void check_against_monte_carlo(const std::vector<pareto::Point>& front, const pareto::Point& reference,
                               const pareto::Point& mean, const pareto::Point& sd, std::uint64_t seed) {
  const auto boxes = pareto::nondominated_boxes(front, reference);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> z(0.0, 1.0);
  const int n = 200000;
  double hits = 0, sum = 0, sum_sq = 0;
  for (int i = 0; i < n; ++i) {
    pareto::Point y(mean.size());
    for (std::size_t d = 0; d < y.size(); ++d) y[d] = mean[d] + sd[d] * z(rng);
    hits += improves(front, reference, y);
    const double hvi = pareto::hypervolume_improvement(boxes, y);
    sum += hvi;
    sum_sq += hvi * hvi;
  }
  const double poi = hits / n, poi_se = std::sqrt(poi * (1 - poi) / n);
  CHECK(std::abs(bo::probability_of_improvement(boxes, mean, sd) - poi) < 4 * poi_se);
  const double hvi_mean = sum / n, se = std::sqrt((sum_sq / n - hvi_mean * hvi_mean) / n);
  CHECK(std::abs(gaussian_ehvi(boxes, mean, sd) - hvi_mean) < 4 * se);
}
}  // namespace

TEST_CASE("PoI, HVI, HVPoI and EHVI match DESIGN's golden values") {
  const auto boxes = pareto::nondominated_boxes(kFront, kReference);
  CHECK(bo::probability_of_improvement(boxes, kMean, kSd) == doctest::Approx(0.9039381301).epsilon(1e-9));
  CHECK(pareto::hypervolume_improvement(boxes, kMean) == doctest::Approx(1.25).epsilon(1e-12));
  CHECK(pareto::hypervolume_improvement(boxes, kMean) * bo::probability_of_improvement(boxes, kMean, kSd) ==
        doctest::Approx(1.1299226626).epsilon(1e-9));
  CHECK(gaussian_ehvi(boxes, kMean, kSd) == doctest::Approx(1.7355012573).epsilon(1e-9));
}

TEST_CASE("PoI and EHVI agree with Monte Carlo within 4 standard errors, in 2-D and 3-D") {
  check_against_monte_carlo(kFront, kReference, kMean, kSd, 11);
  const std::vector<pareto::Point> front3 = {{1, 3, 2}, {2, 2, 1}, {3, 1, 3}, {2, 3, 0.5}};
  check_against_monte_carlo(front3, {4, 4, 4}, {1.5, 1.5, 1.5}, {1.0, 0.5, 0.8}, 12);
}

TEST_CASE("boxes mapped to GP space give the PoI of the untransformed prediction (monotone maps are exact)") {
  // Objective-space front of (epsilon, error) on a linear axis; a log-normal epsilon and a
  // logit-normal utility: PoI computed in GP space must equal the Monte-Carlo probability in
  // objective space.
  const std::vector<pareto::Point> front = {{0.5, 0.4}, {1.0, 0.2}, {4.0, 0.1}};
  const pareto::Point reference = {10, 1};
  pareto::EpsilonAxis axis;  // linear
  const auto boxes = pareto::nondominated_boxes(front, reference);
  const auto gp_boxes = bo::boxes_to_gp_space(boxes, pareto::Objectives::privacy_utility(), axis);
  const double mu_log_eps = std::log(1.5), sd_log_eps = 0.8,
               mu_logit_u = pareto::forward(pareto::Transform::logit, 0.75), sd_logit_u = 0.6;
  const double poi = bo::probability_of_improvement(gp_boxes, {mu_log_eps, -mu_logit_u}, {sd_log_eps, sd_logit_u});
  std::mt19937_64 rng(3);
  std::normal_distribution<double> z(0.0, 1.0);
  const int n = 200000;
  double hits = 0;
  for (int i = 0; i < n; ++i) {
    const double eps = std::exp(mu_log_eps + sd_log_eps * z(rng));
    const double err = 1 - pareto::inverse(pareto::Transform::logit, mu_logit_u + sd_logit_u * z(rng));
    bool dominated = !(eps < reference[0] && err < reference[1]);
    for (const auto& p : front) dominated = dominated || (p[0] <= eps && p[1] <= err);
    hits += !dominated;
  }
  const double mc = hits / n;
  CHECK(std::abs(poi - mc) < 4 * std::sqrt(mc * (1 - mc) / n));
}

TEST_CASE("HVPoI is zero where the predicted mean is dominated and positive where it improves") {
  const std::vector<pareto::Point> front = {{1.0, 0.3}, {5.0, 0.1}};
  bo::ImprovementRegion region;
  region.objectives = pareto::Objectives::privacy_utility(1000, 1);
  region.axis.kind = pareto::EpsilonAxis::Kind::log10;
  region.axis.floor = 1e-2;
  std::vector<pareto::Point> mapped;
  for (const auto& p : front) mapped.push_back(region.axis.map(p));
  region.geometry_boxes = pareto::nondominated_boxes(mapped, region.axis.map(region.objectives.reference()));
  region.gp_boxes = bo::boxes_to_gp_space(region.geometry_boxes, region.objectives, region.axis);
  // GP space: (log ε, −logit u).
  const auto gp_mean = [](double epsilon, double utility) {
    return pareto::Point{std::log(epsilon), -pareto::forward(pareto::Transform::logit, utility)};
  };
  const bo::GpPrediction dominated{gp_mean(2.0, 0.6), {0.3, 0.3}};
  const bo::GpPrediction better{gp_mean(0.5, 0.75), {0.3, 0.3}};
  CHECK(region.geometry_of_mean(better.mean)[0] == doctest::Approx(std::log10(0.5)));
  CHECK(region.geometry_of_mean(better.mean)[1] == doctest::Approx(0.25));
  const auto hvpoi = bo::make_acquisition("hvpoi");
  const auto ehvi = bo::make_acquisition("ehvi");
  CHECK(hvpoi->value(region, dominated) == 0.0);
  CHECK_FALSE(hvpoi->may_improve(region, dominated.mean));
  CHECK(hvpoi->value(region, better) > 0.0);
  CHECK(hvpoi->may_improve(region, better.mean));
  CHECK(ehvi->value(region, dominated) > 0.0);
  CHECK(ehvi->may_improve(region, dominated.mean));
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
