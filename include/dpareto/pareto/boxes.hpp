#pragma once
// The non-dominated region below the reference as disjoint boxes, in any number of objectives
// (DESIGN.md §3.7). 2-D: the cells of cells.hpp (the fast path). d > 2: a sweep on the last
// objective; between consecutive levels z_j < z_{j+1} of the front, the slab is the (d−1)-D region
// not dominated by the points at or below z_j, times [z_j, z_{j+1}] (O(n^{d−1}) boxes).
#include <vector>

#include "dpareto/pareto/point.hpp"

namespace dpareto::pareto {

struct Box {
  Point lower;  // coordinates may be −inf
  Point upper;
};

// Dominated points and points not strictly better than the reference are dropped first. An empty
// set gives the single box (−inf, r]. InputError for a non-finite reference.
std::vector<Box> nondominated_boxes(const std::vector<Point>& points, const Point& reference);

// HVI of a point m on the boxes: Σ_boxes Π_d (u_d − max(l_d, m_d))⁺ = HV(P ∪ {m}) − HV(P)
// (2-D: Σ_i 1[a_{i+1} > m₁ ∧ b_i > m₂] (a_{i+1} − max(a_i, m₁))(b_i − m₂)).
double hypervolume_improvement(const std::vector<Box>& boxes, const Point& m);

}  // namespace dpareto::pareto
