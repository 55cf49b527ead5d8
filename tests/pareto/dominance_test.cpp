#include <doctest/doctest.h>

#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/pareto/dominance.hpp"
#include "dpareto/pareto/objective_axis.hpp"

using namespace dpareto::pareto;

TEST_CASE("dominates: strict in one objective, weak in all") {
  CHECK(dominates(Point2{1, 2}, Point2{1, 3}));
  CHECK(dominates(Point2{0, 0}, Point2{1, 1}));
  CHECK_FALSE(dominates(Point2{1, 2}, Point2{1, 2}));
  CHECK_FALSE(dominates(Point2{1, 3}, Point2{2, 2}));
  CHECK(dominates(Point3{1, 1, 1}, Point3{1, 1, 2}));
  CHECK_FALSE(dominates(Point3{1, 1, 3}, Point3{1, 2, 2}));
  CHECK(dominates(std::vector<double>{1, 2, 3, 4}, std::vector<double>{1, 2, 3, 5}));
  CHECK_FALSE(dominates(std::vector<double>{1, 2, 3, 4}, std::vector<double>{1, 2, 3, 4}));
  CHECK_THROWS_AS(dominates(std::vector<double>{1}, std::vector<double>{1, 2}), dpareto::InputError);
}

TEST_CASE("non_dominated_indices: order, duplicates, ties") {
  const std::vector<Point2> points{{3, 1}, {1, 3}, {2, 2}, {2, 2}, {2.5, 2.5}, {1, 4}, {0.5, INFINITY}};
  const auto idx = non_dominated_indices(points);
  CHECK(idx == std::vector<std::size_t>{6, 1, 2, 0});
  CHECK(pareto_front(points) == std::vector<Point2>{{0.5, INFINITY}, {1, 3}, {2, 2}, {3, 1}});
  CHECK_THROWS_AS(non_dominated_indices(std::vector<Point2>{{NAN, 1}}), dpareto::InputError);
  CHECK(non_dominated_indices(std::vector<Point2>{}).empty());
}

TEST_CASE("EpsilonAxis: linear and clipped log10") {
  EpsilonAxis linear;
  CHECK(linear.to_axis(3.5) == 3.5);
  CHECK(linear.from_axis(3.5) == 3.5);
  CHECK(linear.name() == "linear");
  EpsilonAxis log_axis{EpsilonAxis::Kind::log10, 1e-2};
  CHECK(log_axis.to_axis(1000) == doctest::Approx(3.0));
  CHECK(log_axis.to_axis(1e-5) == doctest::Approx(-2.0));  // clipped at the floor
  CHECK(log_axis.to_axis(0) == doctest::Approx(-2.0));
  CHECK(std::isinf(log_axis.to_axis(INFINITY)));
  CHECK(log_axis.from_axis(log_axis.to_axis(0.37)) == doctest::Approx(0.37));
  const Point mapped = log_axis.map({100, 0.25});
  CHECK(mapped[0] == doctest::Approx(2.0));
  CHECK(mapped[1] == 0.25);
  CHECK(log_axis.name() == "log");
  EpsilonAxis bad{EpsilonAxis::Kind::log10, 0.0};
  CHECK_THROWS_AS(bad.to_axis(1), dpareto::InputError);
}
