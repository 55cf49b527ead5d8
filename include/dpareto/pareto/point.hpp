#pragma once
// Objective vectors. All objectives are minimized (DESIGN.md §2). `Point` has one coordinate per
// objective; Point2 and Point3 are the fixed-size types of the 2-D and 3-D fast paths.
#include <array>
#include <cstddef>
#include <vector>

namespace dpareto::pareto {

using Point = std::vector<double>;
using Point2 = std::array<double, 2>;
using Point3 = std::array<double, 3>;

// The first N coordinates as a fixed-size point (the fast paths), one point or many.
template <std::size_t N>
std::array<double, N> fixed(const Point& p) {
  std::array<double, N> q;
  for (std::size_t i = 0; i < N; ++i) q[i] = p[i];
  return q;
}
template <std::size_t N>
std::vector<std::array<double, N>> fixed(const std::vector<Point>& points) {
  std::vector<std::array<double, N>> q;
  q.reserve(points.size());
  for (const Point& p : points) q.push_back(fixed<N>(p));
  return q;
}

}  // namespace dpareto::pareto
