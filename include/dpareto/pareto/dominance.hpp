#pragma once
// Pareto dominance and non-dominated filtering (DPareto Def. 2), objectives minimized.
#include <cstddef>
#include <vector>

#include "dpareto/pareto/point.hpp"

namespace dpareto::pareto {

// a dominates b: a <= b in every objective and a < b in at least one.
bool dominates(const Point2& a, const Point2& b);
bool dominates(const Point3& a, const Point3& b);
bool dominates(const std::vector<double>& a, const std::vector<double>& b);

// Indices of the non-dominated points (duplicates: the first occurrence is kept), sorted by the
// first objective ascending (ties: second ascending). O(n log n) for 2-D.
std::vector<std::size_t> non_dominated_indices(const std::vector<Point2>& points);
// Generic d-dimensional version (O(n^2 d)), in input order.
std::vector<std::size_t> non_dominated_indices(const std::vector<std::vector<double>>& points);

// The front itself: non-dominated points sorted by the first objective (so the second decreases).
std::vector<Point2> pareto_front(const std::vector<Point2>& points);

}  // namespace dpareto::pareto
