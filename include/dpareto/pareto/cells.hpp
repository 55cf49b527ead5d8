#pragma once
// Cell decomposition of the non-dominated region below the reference (DESIGN.md §3.2).
// For a front p_1..p_n sorted by the first objective: a_0 = −inf, a_i = p_i¹, a_{n+1} = r¹,
// b_0 = r², b_i = p_i²; cell C_i = [a_i, a_{i+1}] × (−inf, b_i], i = 0..n.
#include <vector>

#include "dpareto/pareto/point.hpp"

namespace dpareto::pareto {

struct Cell {
  double a_low;  // may be -inf (cell 0)
  double a_high;
  double b_high;  // the cell extends to -inf in the second objective
};

// Builds the cells from any point set: dominated points and points not strictly better than the
// reference are dropped first. An empty set gives the single cell (−inf, r¹] × (−inf, r²].
std::vector<Cell> nondominated_cells(const std::vector<Point2>& points, const Point2& reference);

}  // namespace dpareto::pareto
