#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "dpareto/core/error.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/pareto/hypervolume.hpp"

using dpareto::pareto::fixed;
using dpareto::pareto::hypervolume;
using dpareto::pareto::hypervolume_2d;
using dpareto::pareto::hypervolume_3d;
using dpareto::pareto::hypervolume_improvement_2d;
using dpareto::pareto::Point;
using dpareto::pareto::Point2;
using dpareto::pareto::Point3;

namespace {

// Inclusion–exclusion over all non-empty subsets: HV = Σ_S (−1)^{|S|+1} Π_d (r_d − max_{p∈S} p_d)_+.
template <typename P>
double hypervolume_brute(const std::vector<P>& points, const P& reference) {
  double hv = 0;
  const std::size_t n = points.size();
  for (std::size_t mask = 1; mask < (std::size_t{1} << n); ++mask) {
    P corner = reference;  // a std::array or a std::vector of the reference's size
    std::fill(corner.begin(), corner.end(), -INFINITY);
    int size = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (mask >> i & 1) {
        ++size;
        for (std::size_t d = 0; d < corner.size(); ++d) corner[d] = std::max(corner[d], points[i][d]);
      }
    double volume = 1;
    for (std::size_t d = 0; d < corner.size(); ++d) volume *= std::max(0.0, reference[d] - corner[d]);
    hv += (size % 2 == 1 ? 1 : -1) * volume;
  }
  return hv;
}

// Random points in [0, 1.2)^D (some beyond the reference at 1), with exact duplicates and shared
// coordinates mixed in.
template <typename P>
std::vector<P> random_points(dpareto::Rng& rng, std::size_t n) {
  std::uniform_real_distribution<double> u(0.0, 1.2);
  std::vector<P> points;
  for (std::size_t i = 0; i < n; ++i) {
    P p;
    for (double& v : p) v = u(rng);
    if (!points.empty() && i % 4 == 3) p = points[rng() % points.size()];        // duplicate
    if (!points.empty() && i % 5 == 4) p[0] = points[rng() % points.size()][0];  // tie
    points.push_back(p);
  }
  return points;
}

}  // namespace

TEST_CASE("hypervolume_2d: hand cases and the DESIGN golden value") {
  const Point2 r{4, 4};
  CHECK(hypervolume_2d({}, r) == 0.0);
  CHECK(hypervolume_2d({{1, 3}, {2, 2}, {3, 1}}, r) == doctest::Approx(6.0));
  CHECK(hypervolume_2d({{3, 1}, {1, 3}, {2, 2}, {2, 2}, {2.5, 2.5}}, r) == doctest::Approx(6.0));
  CHECK(hypervolume_2d({{0, 0}}, r) == doctest::Approx(16.0));
  // On or beyond the reference in any coordinate: nothing.
  CHECK(hypervolume_2d({{4, 0}, {0, 4}, {5, 5}}, r) == 0.0);
  CHECK(hypervolume_2d({{4, 0}, {1, 3}}, r) == doctest::Approx(3.0));
  const double golden = hypervolume_2d({{0.1419, 0.9340}, {0.1576, 0.7922}, {0.4854, 0.0357}}, Point2{2, 2});
  CHECK(std::round(golden * 1e4) / 1e4 == doctest::Approx(3.3878).epsilon(1e-12));
  CHECK_THROWS_AS(hypervolume_2d({{1, 1}}, Point2{INFINITY, 1}), dpareto::InputError);
}

TEST_CASE("hypervolume_3d: hand cases and the DESIGN golden value") {
  CHECK(hypervolume_3d({{2, 2, 0}, {2, 0, 1}, {3, 1, 0}}, Point3{4, 4, 4}) == doctest::Approx(29.0));
  CHECK(hypervolume_3d({}, Point3{1, 1, 1}) == 0.0);
  CHECK(hypervolume_3d({{0, 0, 0}}, Point3{1, 2, 3}) == doctest::Approx(6.0));
  // Boxes 2·1·1 and 1·2·2 overlapping in 1·1·1.
  CHECK(hypervolume_3d({{0, 1, 1}, {1, 0, 0}}, Point3{2, 2, 2}) == doctest::Approx(5.0));
  // Dominated and beyond-reference points change nothing.
  CHECK(hypervolume_3d({{0, 1, 1}, {1, 0, 0}, {1, 1, 1}, {0, 0, 2}, {1, 0, 0}}, Point3{2, 2, 2}) ==
        doctest::Approx(5.0));
  // A 2-D front at constant z is its area times the depth.
  CHECK(hypervolume_3d({{1, 3, 1}, {2, 2, 1}, {3, 1, 1}}, Point3{4, 4, 3}) == doctest::Approx(12.0));
}

TEST_CASE("hypervolume_2d and _3d match inclusion–exclusion on small random sets") {
  dpareto::Rng rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + trial % 12;
    const auto p2 = random_points<Point2>(rng, n);
    CHECK(hypervolume_2d(p2, Point2{1, 1}) == doctest::Approx(hypervolume_brute(p2, Point2{1, 1})));
    const auto p3 = random_points<Point3>(rng, n);
    CHECK(hypervolume_3d(p3, Point3{1, 1, 1}) == doctest::Approx(hypervolume_brute(p3, Point3{1, 1, 1})));
  }
}

TEST_CASE("hypervolume_3d matches a grid count on integer points") {
  // Integer coordinates in 0..5 and r = (6,6,6): HV = number of unit cubes [c, c+1) whose lower
  // corner c is weakly dominated by some point.
  dpareto::Rng rng(11);
  std::uniform_int_distribution<int> u(0, 7);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Point3> points;
    for (int i = 0; i < 40; ++i) points.push_back({double(u(rng)), double(u(rng)), double(u(rng))});
    int count = 0;
    for (int x = 0; x < 6; ++x)
      for (int y = 0; y < 6; ++y)
        for (int z = 0; z < 6; ++z)
          count += std::any_of(points.begin(), points.end(), [&](const Point3& p) {
            return p[0] <= x && p[1] <= y && p[2] <= z && p[0] < 6 && p[1] < 6 && p[2] < 6;
          });
    CHECK(hypervolume_3d(points, Point3{6, 6, 6}) == doctest::Approx(count));
  }
}

TEST_CASE("hypervolume_improvement_2d equals HV(P ∪ {m}) − HV(P)") {
  const Point2 r{4, 4};
  const std::vector<Point2> front{{1, 3}, {2, 2}, {3, 1}};
  CHECK(hypervolume_improvement_2d(front, {1.5, 1.5}, r) == doctest::Approx(1.25));  // DESIGN golden
  CHECK(hypervolume_improvement_2d(front, {2.5, 2.5}, r) == 0.0);                    // dominated
  CHECK(hypervolume_improvement_2d(front, {2, 2}, r) == 0.0);                        // duplicate
  CHECK(hypervolume_improvement_2d(front, {0.5, 4}, r) == 0.0);                      // on the reference
  CHECK(hypervolume_improvement_2d({}, {1, 1}, r) == doctest::Approx(9.0));
  CHECK(hypervolume_improvement_2d(front, {0, 0}, r) == doctest::Approx(16.0 - 6.0));

  dpareto::Rng rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.2);
  for (int trial = 0; trial < 500; ++trial) {
    const auto points = random_points<Point2>(rng, 1 + trial % 15);
    const Point2 m{u(rng), u(rng)};
    auto with_m = points;
    with_m.push_back(m);
    const double expected = hypervolume_2d(with_m, Point2{1, 1}) - hypervolume_2d(points, Point2{1, 1});
    CHECK(hypervolume_improvement_2d(points, m, Point2{1, 1}) == doctest::Approx(expected));
  }
}

TEST_CASE("N-D hypervolume: the 2-D and 3-D paths on the same points, and inclusion-exclusion") {
  dpareto::Rng rng(12);
  // Random points of a coarse grid of [0, 1.2)^d: ties, duplicates, points beyond r = 1.
  auto grid_points = [&](std::size_t n, std::size_t d) {
    std::uniform_int_distribution<int> u(0, 6);
    std::vector<Point> points(n, Point(d));
    for (auto& p : points)
      for (double& v : p) v = u(rng) / 5.0;
    return points;
  };
  for (int trial = 0; trial < 100; ++trial) {
    const auto points2 = grid_points(1 + trial % 10, 2);
    CHECK(hypervolume(points2, {1, 1}) == hypervolume_2d(fixed<2>(points2), {1, 1}));
    const auto points3 = grid_points(1 + trial % 10, 3);
    CHECK(hypervolume(points3, {1, 1, 1}) == hypervolume_3d(fixed<3>(points3), {1, 1, 1}));
    for (std::size_t d = 3; d <= 5; ++d) {
      const auto points = grid_points(1 + trial % 10, d);
      const Point reference(d, 1.0);
      CHECK(hypervolume(points, reference) == doctest::Approx(hypervolume_brute(points, reference)).epsilon(1e-12));
    }
  }
  // The DESIGN 3-D points lifted to 4-D with the fourth coordinate 0 and reference 1: the same volume.
  // (Built by push_back: GCC 12 at -O3 -march=native miscompiles the nested initializer list
  // {{2, 2, 0, 0}, ...} in this function into {2, 2, 2, 2}.)
  std::vector<Point> lifted;
  for (const Point3& p : std::vector<Point3>{{2, 2, 0}, {2, 0, 1}, {3, 1, 0}}) lifted.push_back({p[0], p[1], p[2], 0});
  CHECK(hypervolume(lifted, {4, 4, 4, 1}) == doctest::Approx(29.0));
  CHECK_THROWS_AS(hypervolume({{1, 2, 3}}, {4, 4}), dpareto::InputError);
  CHECK_THROWS_AS(hypervolume({{1, 2, 3}}, {4, INFINITY, 4}), dpareto::InputError);
}
