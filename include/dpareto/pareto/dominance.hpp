#pragma once
// Pareto dominance and non-dominated filtering (DPareto Def. 2), objectives minimized.
#include <cstddef>
#include <vector>

#include "dpareto/pareto/point.hpp"

namespace dpareto::pareto {

// a dominates b: a <= b in every objective and a < b in at least one.
bool dominates(const Point2& a, const Point2& b);
bool dominates(const Point3& a, const Point3& b);
bool dominates(const Point& a, const Point& b);  // InputError for points of different sizes

// p is strictly better than the reference in every objective (false for NaN).
template <typename P>
bool strictly_below(const P& p, const P& reference) {
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!(p[i] < reference[i])) return false;
  return true;
}

// Indices of the non-dominated points (duplicates: the first occurrence is kept), sorted by the
// first objective ascending (ties: the next objectives ascending). A NaN objective is an
// InputError. 2-D: a sweep in O(n log n); d-D: O(n^2 d), 2-D points take the sweep.
std::vector<std::size_t> non_dominated_indices(const std::vector<Point2>& points);
std::vector<std::size_t> non_dominated_indices(const std::vector<Point>& points);

// The front itself: non-dominated points sorted by the first objective (so in 2-D the second
// decreases).
std::vector<Point2> pareto_front(const std::vector<Point2>& points);
std::vector<Point> pareto_front(const std::vector<Point>& points);

}  // namespace dpareto::pareto
