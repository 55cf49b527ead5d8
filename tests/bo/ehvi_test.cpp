#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "dpareto/bo/acquisition_registry.hpp"
#include "dpareto/bo/improvement_region.hpp"
#include "dpareto/pareto/boxes.hpp"
#include "dpareto/pareto/objective_transform.hpp"

using namespace dpareto;

namespace {

// The explorer's region for an observed front of (ε, error) points, reference (10, 1).
bo::ImprovementRegion region_of(const std::vector<pareto::Point>& front, pareto::EpsilonAxis::Kind axis,
                                pareto::Transform utility_transform = pareto::Transform::logit) {
  bo::ImprovementRegion region;
  region.objectives = pareto::Objectives::privacy_utility(10, 1);
  region.objectives.set_utility_transform(utility_transform, "test");
  region.axis.kind = axis;
  region.axis.floor = 1e-2;
  std::vector<pareto::Point> mapped;
  for (const auto& p : front) mapped.push_back(region.axis.map(p));
  region.geometry_boxes = pareto::nondominated_boxes(mapped, region.axis.map(region.objectives.reference()));
  region.gp_boxes = bo::boxes_to_gp_space(region.geometry_boxes, region.objectives, region.axis);
  return region;
}

// GP space: (ln ε, −logit u), or −arcsine u.
bo::GpPrediction prediction(double epsilon, double sd_log_epsilon, double utility, double sd_logit_utility,
                            pareto::Transform utility_transform = pareto::Transform::logit) {
  return {{std::log(epsilon), -pareto::forward(utility_transform, utility)}, {sd_log_epsilon, sd_logit_utility}};
}

// EHVI within 5 standard errors of the mean HVI, on the region's axes, of 10^6 draws from the
// GP-space prediction mapped back (exp, σ) and onto the axes (log10 clipped at the floor).
void check_against_monte_carlo(const bo::ImprovementRegion& region, const bo::GpPrediction& p, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> z(0.0, 1.0);
  const int n = 1000000;
  double sum = 0, sum_sq = 0;
  for (int i = 0; i < n; ++i) {
    const pareto::Point draw = {p.mean[0] + p.sd[0] * z(rng), p.mean[1] + p.sd[1] * z(rng)};
    const double hvi = pareto::hypervolume_improvement(region.geometry_boxes, region.geometry_of_mean(draw));
    sum += hvi, sum_sq += hvi * hvi;
  }
  const double mean = sum / n, se = std::sqrt((sum_sq / n - mean * mean) / n);
  const double ehvi = bo::make_acquisition("ehvi")->value(region, p);
  INFO("EHVI " << ehvi << ", Monte Carlo " << mean << " ± " << se);
  CHECK(se < 0.01 * mean);  // a test that can fail
  CHECK(std::abs(ehvi - mean) <= 5 * se);
}

std::vector<pareto::Point> fifty_point_front() {
  std::vector<pareto::Point> front;
  for (int i = 0; i < 50; ++i)
    front.push_back({0.005 * std::pow(10.0, 3.2 * i / 49), 0.95 * std::exp(-i / 20.0) + 0.05});
  return front;
}

}  // namespace

TEST_CASE("EHVI on the run's axes matches a 10^6-draw Monte Carlo on fronts of 1, 2 and 50 points") {
  using Kind = pareto::EpsilonAxis::Kind;
  const std::vector<std::vector<pareto::Point>> fronts = {{{1.0, 0.3}}, {{0.2, 0.5}, {2.0, 0.2}}, fifty_point_front()};
  std::uint64_t seed = 1;
  for (Kind axis : {Kind::linear, Kind::log10})
    for (const auto& front : fronts) {
      const std::string axis_name = axis == Kind::linear ? "linear" : "log10";
      INFO("axis " << axis_name << ", " << front.size() << " points");
      const auto region = region_of(front, axis);
      check_against_monte_carlo(region, prediction(0.5, 0.7, 0.7, 0.5), seed++);
      check_against_monte_carlo(region, prediction(0.03, 1.2, 0.9, 1.5), seed++);  // much of ε below the floor
      // The arcsine utility GP (SVT's): its law has point masses at error 0 and 1.
      const auto arcsine = pareto::Transform::arcsine;
      const auto on_arcsine = region_of(front, axis, arcsine);
      check_against_monte_carlo(on_arcsine, prediction(0.5, 0.7, 0.7, 0.3, arcsine), seed++);
      check_against_monte_carlo(on_arcsine, prediction(0.03, 1.2, 0.95, 0.6, arcsine), seed++);
    }
}

TEST_CASE("EHVI of a near-zero-variance prediction is the HVI of its mean") {
  const auto ehvi = bo::make_acquisition("ehvi");
  for (auto axis : {pareto::EpsilonAxis::Kind::linear, pareto::EpsilonAxis::Kind::log10})
    for (auto transform : {pareto::Transform::logit, pareto::Transform::arcsine}) {
      const auto region = region_of(fifty_point_front(), axis, transform);
      const auto improving = prediction(0.05, 1e-9, 0.8, 1e-9, transform);
      const double hvi = region.mean_hvi(improving.mean);
      REQUIRE(hvi > 1e-3);
      CHECK(ehvi->value(region, improving) == doctest::Approx(hvi).epsilon(1e-6));
      CHECK(ehvi->value(region, prediction(5.0, 1e-9, 0.2, 1e-9, transform)) == doctest::Approx(0.0).epsilon(1e-9));
    }
}

TEST_CASE("EHVI is finite near the reference error 1, at the log floor and as sd -> 0") {
  const auto ehvi = bo::make_acquisition("ehvi");
  for (auto axis : {pareto::EpsilonAxis::Kind::linear, pareto::EpsilonAxis::Kind::log10})
    for (const auto& front : std::vector<std::vector<pareto::Point>>{{}, {{1.0, 0.999999}}, fifty_point_front()})
      for (auto transform : {pareto::Transform::logit, pareto::Transform::arcsine}) {
        const auto region = region_of(front, axis, transform);
        for (double utility : {0.0, 1e-12, 1e-6, 1e-3, 0.5, 1 - 1e-6, 1.0})
          for (double epsilon : {1e-9, 1e-2, 9.99})
            for (double sd : {0.0, 1e-6, 1.0, 20.0}) {
              const double v = ehvi->value(region, prediction(epsilon, sd, utility, sd, transform));
              INFO("utility " << utility << ", epsilon " << epsilon << ", sd " << sd);
              CHECK(std::isfinite(v));
              CHECK(v >= 0);
            }
      }
}

// Issue 18 item 1: ε computed exactly is a point mass (sd 0) in its coordinate.
TEST_CASE("known epsilon: HVPoI and EHVI with an exact epsilon are the limit of a vanishing epsilon sd") {
  const auto hvpoi = bo::make_acquisition("hvpoi");
  const auto ehvi = bo::make_acquisition("ehvi");
  int nonzero = 0;
  for (auto axis : {pareto::EpsilonAxis::Kind::linear, pareto::EpsilonAxis::Kind::log10})
    for (const auto& front :
         std::vector<std::vector<pareto::Point>>{{{1.0, 0.3}}, {{0.2, 0.5}, {2.0, 0.2}}, fifty_point_front()})
      for (double epsilon : {0.004, 0.15, 0.5, 3.0, 12.0})
        for (double utility : {0.4, 0.75, 0.9}) {
          const auto region = region_of(front, axis);
          const auto exact = prediction(epsilon, 0.0, utility, 0.6);
          const auto vanishing = prediction(epsilon, 1e-9, utility, 0.6);
          INFO("epsilon " << epsilon << ", utility " << utility << ", " << front.size() << " points");
          for (const auto* a : {hvpoi.get(), ehvi.get()}) {
            const double v = a->value(region, exact);
            CHECK(v == doctest::Approx(a->value(region, vanishing)).epsilon(1e-6));
            nonzero += v > 1e-6;
          }
          if (epsilon > 10) CHECK(ehvi->value(region, exact) == 0.0);  // beyond the reference: nothing
        }
  CHECK(nonzero > 40);  // the comparisons above are not all of zeros
}

TEST_CASE("known epsilon: closed forms on a one-point front") {
  // Front {(1, 0.3)}, reference (10, 1), linear axis; ε = 2 known exactly, logit u ~ N(logit 0.6, 0.5²).
  // Improvement needs error < 0.3, i.e. u > 0.7, in the slab ε in [2, 10]: HVPoI = HVI(mean) · P(u > 0.7)
  // with HVI(mean) = 0 here (0.4 error > 0.3); at mean utility 0.8: HVI = 8 · 0.1 and
  // P(u > 0.7) = Φ((logit 0.8 − logit 0.7)/0.5). EHVI = 8 · E[(0.3 − (1 − u))⁺].
  const auto region = region_of({{1.0, 0.3}}, pareto::EpsilonAxis::Kind::linear);
  const auto logit = [](double u) { return std::log(u / (1 - u)); };
  const double s = 0.5;
  const auto p = prediction(2.0, 0.0, 0.8, s);
  const double poi = 0.5 * std::erfc(-(logit(0.8) - logit(0.7)) / s / std::sqrt(2.0));
  CHECK(bo::make_acquisition("hvpoi")->value(region, p) == doctest::Approx(8 * 0.1 * poi).epsilon(1e-9));
  CHECK(bo::make_acquisition("hvpoi")->value(region, prediction(2.0, 0.0, 0.6, s)) == 0.0);
  // E[(u − 0.7)⁺] for logit u ~ N(logit 0.8, s²), by the midpoint rule on 2·10⁵ cells of ±10 s.
  const int cells = 200000;
  double expected = 0;
  for (int i = 0; i < cells; ++i) {
    const double z = -10 + 20.0 * (i + 0.5) / cells;
    const double u = 1 / (1 + std::exp(-(logit(0.8) + s * z)));
    expected += std::max(0.0, u - 0.7) * std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI) * (20.0 / cells);
  }
  CHECK(bo::make_acquisition("ehvi")->value(region, p) == doctest::Approx(8 * expected).epsilon(1e-7));
}

TEST_CASE("known epsilon: EHVI matches a 10^6-draw Monte Carlo with epsilon exact") {
  std::uint64_t seed = 101;
  for (auto axis : {pareto::EpsilonAxis::Kind::linear, pareto::EpsilonAxis::Kind::log10}) {
    const auto region = region_of(fifty_point_front(), axis);
    check_against_monte_carlo(region, prediction(0.5, 0.0, 0.7, 0.5), seed++);
    check_against_monte_carlo(region, prediction(0.03, 0.0, 0.9, 1.5), seed++);
  }
}

TEST_CASE("EHVI's quadrature-free upper bound is never below EHVI, and close where the prediction is sharp") {
  const auto ehvi = bo::make_acquisition("ehvi");
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int checked = 0;
  for (auto axis : {pareto::EpsilonAxis::Kind::linear, pareto::EpsilonAxis::Kind::log10})
    for (const auto& front : std::vector<std::vector<pareto::Point>>{{}, {{1.0, 0.3}}, fifty_point_front()}) {
      const auto region = region_of(front, axis);
      for (int i = 0; i < 200; ++i) {
        const auto p =
            prediction(0.001 * std::pow(10.0, 4 * unit(rng)), 2 * unit(rng), 0.05 + 0.9 * unit(rng), 3 * unit(rng));
        const double value = ehvi->value(region, p), bound = ehvi->upper_bound(region, p);
        INFO("EHVI " << value << ", bound " << bound);
        CHECK(bound >= value * (1 - 1e-9));
        ++checked;
      }
      // A sharp utility: the 21 quantiles crowd where its CDF rises, so the bound is tight.
      const auto sharp = prediction(0.05, 0.3, 0.8, 0.01);
      const double value = ehvi->value(region, sharp);
      REQUIRE(value > 0);
      CHECK(ehvi->upper_bound(region, sharp) <= 1.05 * value);
      // The arcsine utility GP: the same bound, mass at 0 and 1 included.
      const auto arcsine = pareto::Transform::arcsine;
      const auto on_arcsine = region_of(front, axis, arcsine);
      for (int i = 0; i < 100; ++i) {
        const auto p = prediction(0.001 * std::pow(10.0, 4 * unit(rng)), 2 * unit(rng), unit(rng), unit(rng), arcsine);
        CHECK(ehvi->upper_bound(on_arcsine, p) >= ehvi->value(on_arcsine, p) * (1 - 1e-9));
        ++checked;
      }
      const auto sharp_arcsine = prediction(0.05, 0.3, 0.8, 0.005, arcsine);
      const double arcsine_value = ehvi->value(on_arcsine, sharp_arcsine);
      REQUIRE(arcsine_value > 0);
      CHECK(ehvi->upper_bound(on_arcsine, sharp_arcsine) <= 1.05 * arcsine_value);
    }
  CHECK(checked == 1800);
  // Three objectives: the same on 3-D boxes (a third, log-modelled objective on a linear axis).
  bo::ImprovementRegion region;
  region.objectives = pareto::Objectives::with({"train_seconds"}, {10, 1, 100});
  std::vector<pareto::Point> points;
  for (int i = 0; i < 30; ++i) points.push_back({10 * unit(rng), unit(rng), 100 * unit(rng)});
  region.geometry_boxes = pareto::nondominated_boxes(points, region.objectives.reference());
  region.gp_boxes = bo::boxes_to_gp_space(region.geometry_boxes, region.objectives, region.axis);
  for (int i = 0; i < 50; ++i) {
    const bo::GpPrediction p{
        {std::log(10 * unit(rng)), -pareto::forward(pareto::Transform::logit, unit(rng)), std::log(100 * unit(rng))},
        {unit(rng), 2 * unit(rng), unit(rng)}};
    CHECK(ehvi->upper_bound(region, p) >= ehvi->value(region, p) * (1 - 1e-9));
  }
  CHECK(bo::make_acquisition("hvpoi")->upper_bound(region_of({}, pareto::EpsilonAxis::Kind::linear),
                                                   prediction(1, 1, 0.5, 1)) ==
        std::numeric_limits<double>::infinity());
}
