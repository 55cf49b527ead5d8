#include <doctest/doctest.h>

#include <cmath>

#include "dpareto/plot/hv_figure.hpp"
#include "dpareto/plot/staircase.hpp"

using dpareto::pareto::Point2;
using dpareto::plot::staircase;

TEST_CASE("staircase vertices of a known front, unsorted input with a dominated point") {
  // Front {(1,3),(2,2),(3,1)}; (2.5, 2.5) is dominated by (2,2).
  const std::vector<Point2> points{{3, 1}, {1, 3}, {2.5, 2.5}, {2, 2}};
  const auto v = staircase(points, 4.0, 5.0);
  const std::vector<Point2> expected{{1, 5}, {1, 3}, {2, 3}, {2, 2}, {3, 2}, {3, 1}, {4, 1}};
  REQUIRE(v.size() == expected.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    CHECK(v[i][0] == doctest::Approx(expected[i][0]));
    CHECK(v[i][1] == doctest::Approx(expected[i][1]));
  }
}

TEST_CASE("staircase without the optional ends, single point, empty") {
  const auto v = staircase({{1, 3}, {2, 2}});
  REQUIRE(v.size() == 3);
  CHECK(v[0] == Point2{1, 3});
  CHECK(v[1] == Point2{2, 3});
  CHECK(v[2] == Point2{2, 2});
  const auto one = staircase({{5, 0.5}}, 10.0);
  REQUIRE(one.size() == 2);
  CHECK(one[1] == Point2{10, 0.5});
  CHECK(staircase({}, 1.0, 1.0).empty());
}

TEST_CASE("staircase: every segment is horizontal or vertical and monotone") {
  std::vector<Point2> points;
  for (int i = 0; i < 50; ++i) points.push_back({std::exp(0.1 * i), 1.0 / (1 + i) + 0.01 * (i % 3)});
  const auto v = staircase(points, 1e3);
  for (std::size_t i = 1; i < v.size(); ++i) {
    const bool horizontal = v[i][1] == v[i - 1][1] && v[i][0] >= v[i - 1][0];
    const bool vertical = v[i][0] == v[i - 1][0] && v[i][1] <= v[i - 1][1];
    CHECK((horizontal || vertical));
  }
}

TEST_CASE("hv band: mean, min and max per index over series of different lengths") {
  const auto band = dpareto::plot::band_of({{1, 2, 3}, {3, 4}});
  REQUIRE(band.mean.size() == 3);
  CHECK(band.mean[0] == doctest::Approx(2));
  CHECK(band.low[1] == doctest::Approx(2));
  CHECK(band.high[1] == doctest::Approx(4));
  CHECK(band.mean[2] == doctest::Approx(3));
  CHECK(band.count[2] == 1);
}
