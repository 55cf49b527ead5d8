#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "dpareto/core/random.hpp"
#include "dpareto/pareto/cells.hpp"
#include "dpareto/pareto/dominance.hpp"
#include "dpareto/pareto/hypervolume.hpp"

using dpareto::pareto::Cell;
using dpareto::pareto::nondominated_cells;
using dpareto::pareto::Point2;

namespace {

// Area of a cell clipped to the box [lower, upper].
double clipped_area(const Cell& c, const Point2& lower, const Point2& upper) {
  const double w = std::min(c.a_high, upper[0]) - std::max(c.a_low, lower[0]);
  const double h = std::min(c.b_high, upper[1]) - lower[1];
  return std::max(0.0, w) * std::max(0.0, h);
}

bool in_cell(const Cell& c, const Point2& q) {
  return q[0] > c.a_low && q[0] < c.a_high && q[1] < c.b_high;
}

}  // namespace

TEST_CASE("nondominated_cells: the DESIGN example, exactly") {
  const auto cells = nondominated_cells({{3, 1}, {1, 3}, {2, 2}, {2.5, 2.5}, {5, 0}}, Point2{4, 4});
  REQUIRE(cells.size() == 4);
  CHECK(std::isinf(cells[0].a_low));
  CHECK(cells[0].a_low < 0);
  CHECK(cells[0].a_high == 1);
  CHECK(cells[0].b_high == 4);
  CHECK(cells[1].a_low == 1);
  CHECK(cells[1].a_high == 2);
  CHECK(cells[1].b_high == 3);
  CHECK(cells[2].a_low == 2);
  CHECK(cells[2].a_high == 3);
  CHECK(cells[2].b_high == 2);
  CHECK(cells[3].a_low == 3);
  CHECK(cells[3].a_high == 4);
  CHECK(cells[3].b_high == 1);
}

TEST_CASE("nondominated_cells: empty set and points outside the reference give one cell") {
  for (const auto& points : {std::vector<Point2>{}, std::vector<Point2>{{4, 1}, {1, 4}, {9, 9}}}) {
    const auto cells = nondominated_cells(points, Point2{4, 4});
    REQUIRE(cells.size() == 1);
    CHECK(std::isinf(cells[0].a_low));
    CHECK(cells[0].a_high == 4);
    CHECK(cells[0].b_high == 4);
  }
}

TEST_CASE("cells tile the non-dominated part of a box: area(box) = HV + Σ clipped cell areas") {
  dpareto::Rng rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.3);
  const Point2 r{1, 1};
  const Point2 lower{-0.5, -0.25};
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Point2> points;
    const int n = trial % 20;
    for (int i = 0; i < n; ++i) points.push_back({u(rng), u(rng)});
    if (n > 2) points.push_back(points[1]);
    const auto cells = nondominated_cells(points, r);
    double cell_area = 0;
    for (const Cell& c : cells) cell_area += clipped_area(c, lower, r);
    const double box = (r[0] - lower[0]) * (r[1] - lower[1]);
    CHECK(cell_area + dpareto::pareto::hypervolume_2d(points, r) == doctest::Approx(box));

    // Geometry: cells are consecutive in the first objective with decreasing upper bounds, and a
    // point of the box lies in (exactly) one cell iff no input point inside r weakly dominates it.
    for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
      CHECK(cells[i].a_high == cells[i + 1].a_low);
      CHECK(cells[i].b_high > cells[i + 1].b_high);
    }
    CHECK(cells.back().a_high == r[0]);
    for (int k = 0; k < 50; ++k) {
      const Point2 q{lower[0] + (r[0] - lower[0]) * u(rng) / 1.3, lower[1] + (r[1] - lower[1]) * u(rng) / 1.3};
      const bool covered = std::any_of(points.begin(), points.end(), [&](const Point2& p) {
        return p[0] < r[0] && p[1] < r[1] && p[0] <= q[0] && p[1] <= q[1];
      });
      const auto hits = std::count_if(cells.begin(), cells.end(), [&](const Cell& c) { return in_cell(c, q); });
      CHECK(hits == (covered ? 0 : 1));
    }
  }
}
