#include "dpareto/pareto/dominance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "dpareto/core/error.hpp"

namespace dpareto::pareto {

namespace {

template <typename Vec>
bool dominates_impl(const Vec& a, const Vec& b) {
  bool strictly_better = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] > b[i]) return false;
    if (a[i] < b[i]) strictly_better = true;
  }
  return strictly_better;
}

}  // namespace

bool dominates(const Point2& a, const Point2& b) {
  return dominates_impl(a, b);
}
bool dominates(const Point3& a, const Point3& b) {
  return dominates_impl(a, b);
}

bool dominates(const Point& a, const Point& b) {
  if (a.size() != b.size())
    throw InputError("dominates: points have " + std::to_string(a.size()) + " and " + std::to_string(b.size()) +
                     " objectives");
  return dominates_impl(a, b);
}

std::vector<std::size_t> non_dominated_indices(const std::vector<Point2>& points) {
  for (std::size_t i = 0; i < points.size(); ++i)
    if (std::isnan(points[i][0]) || std::isnan(points[i][1]))
      throw InputError("non_dominated_indices: point " + std::to_string(i) + " has a NaN objective");
  std::vector<std::size_t> order(points.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Stable: among exact duplicates the first occurrence comes first and is the one kept.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return points[i] < points[j]; });
  // Sweep by the first objective: a point survives iff its second objective beats every earlier one.
  std::vector<std::size_t> front;
  double best_second = std::numeric_limits<double>::infinity();
  bool any = false;
  for (std::size_t i : order) {
    if (!any || points[i][1] < best_second) {
      front.push_back(i);
      best_second = points[i][1];
      any = true;
    }
  }
  return front;
}

std::vector<std::size_t> non_dominated_indices(const std::vector<Point>& points) {
  if (points.empty()) return {};
  const std::size_t d = points[0].size();
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].size() != d)
      throw InputError("non_dominated_indices: point " + std::to_string(i) + " has " +
                       std::to_string(points[i].size()) + " objectives, point 0 has " + std::to_string(d));
    for (double v : points[i])
      if (std::isnan(v)) throw InputError("non_dominated_indices: point " + std::to_string(i) + " has a NaN objective");
  }
  if (d == 2) {
    return non_dominated_indices(fixed<2>(points));
  }
  std::vector<std::size_t> front;
  for (std::size_t i = 0; i < points.size(); ++i) {
    bool keep = true;
    for (std::size_t j = 0; j < points.size() && keep; ++j) {
      if (j == i) continue;
      // Dominated, or an exact duplicate of an earlier point.
      if (dominates_impl(points[j], points[i]) || (j < i && points[j] == points[i])) keep = false;
    }
    if (keep) front.push_back(i);
  }
  std::sort(front.begin(), front.end(), [&](std::size_t i, std::size_t j) { return points[i] < points[j]; });
  return front;
}

std::vector<Point2> pareto_front(const std::vector<Point2>& points) {
  for (std::size_t i = 0; i < points.size(); ++i)
    if (std::isnan(points[i][0]) || std::isnan(points[i][1]))
      throw InputError("pareto_front: point " + std::to_string(i) + " has a NaN objective");
  // Values only, so sort the points themselves (cheaper than sorting indices) and sweep.
  std::vector<Point2> sorted = points;
  std::sort(sorted.begin(), sorted.end());
  std::vector<Point2> front;
  for (const Point2& p : sorted)
    if (front.empty() || p[1] < front.back()[1]) front.push_back(p);
  return front;
}

std::vector<Point> pareto_front(const std::vector<Point>& points) {
  std::vector<Point> front;
  for (std::size_t i : non_dominated_indices(points)) front.push_back(points[i]);
  return front;
}

}  // namespace dpareto::pareto
