#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include "dpareto/bo/acquisition_registry.hpp"
#include "dpareto/bo/improvement_region.hpp"
#include "dpareto/pareto/boxes.hpp"
#include "dpareto/pareto/objective_transform.hpp"

using namespace dpareto;

namespace {

// The explorer's region for an observed front of (ε, error) points, reference (10, 1).
bo::ImprovementRegion region_of(const std::vector<pareto::Point>& front, pareto::EpsilonAxis::Kind axis) {
  bo::ImprovementRegion region;
  region.objectives = pareto::Objectives::privacy_utility(10, 1);
  region.axis.kind = axis;
  region.axis.floor = 1e-2;
  std::vector<pareto::Point> mapped;
  for (const auto& p : front) mapped.push_back(region.axis.map(p));
  region.geometry_boxes = pareto::nondominated_boxes(mapped, region.axis.map(region.objectives.reference()));
  region.gp_boxes = bo::boxes_to_gp_space(region.geometry_boxes, region.objectives, region.axis);
  return region;
}

// GP space: (ln ε, −logit u).
bo::GpPrediction prediction(double epsilon, double sd_log_epsilon, double utility, double sd_logit_utility) {
  return {{std::log(epsilon), -pareto::forward(pareto::Transform::logit, utility)}, {sd_log_epsilon, sd_logit_utility}};
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
    }
}

TEST_CASE("EHVI of a near-zero-variance prediction is the HVI of its mean") {
  const auto ehvi = bo::make_acquisition("ehvi");
  for (auto axis : {pareto::EpsilonAxis::Kind::linear, pareto::EpsilonAxis::Kind::log10}) {
    const auto region = region_of(fifty_point_front(), axis);
    const auto improving = prediction(0.05, 1e-9, 0.8, 1e-9);
    const double hvi = region.mean_hvi(improving.mean);
    REQUIRE(hvi > 1e-3);
    CHECK(ehvi->value(region, improving) == doctest::Approx(hvi).epsilon(1e-6));
    CHECK(ehvi->value(region, prediction(5.0, 1e-9, 0.2, 1e-9)) == doctest::Approx(0.0).epsilon(1e-9));
  }
}

TEST_CASE("EHVI is finite near the reference error 1, at the log floor and as sd -> 0") {
  const auto ehvi = bo::make_acquisition("ehvi");
  for (auto axis : {pareto::EpsilonAxis::Kind::linear, pareto::EpsilonAxis::Kind::log10})
    for (const auto& front : std::vector<std::vector<pareto::Point>>{{}, {{1.0, 0.999999}}, fifty_point_front()}) {
      const auto region = region_of(front, axis);
      for (double utility : {1e-12, 1e-6, 1e-3, 0.5, 1 - 1e-6})
        for (double epsilon : {1e-9, 1e-2, 9.99})
          for (double sd : {0.0, 1e-6, 1.0, 20.0}) {
            const double v = ehvi->value(region, prediction(epsilon, sd, utility, sd));
            INFO("utility " << utility << ", epsilon " << epsilon << ", sd " << sd);
            CHECK(std::isfinite(v));
            CHECK(v >= 0);
          }
    }
}
