#include "dpareto/pareto/cells.hpp"

#include <cmath>
#include <limits>

#include "dpareto/core/error.hpp"
#include "dpareto/pareto/dominance.hpp"

namespace dpareto::pareto {

std::vector<Cell> nondominated_cells(const std::vector<Point2>& points, const Point2& reference) {
  if (!std::isfinite(reference[0]) || !std::isfinite(reference[1]))
    throw InputError("nondominated_cells: reference has a non-finite coordinate");
  std::vector<Point2> inside;
  for (const Point2& p : points)
    if (p[0] < reference[0] && p[1] < reference[1]) inside.push_back(p);
  const std::vector<Point2> front = pareto_front(inside);
  // a_0 = −inf, a_i = p_i¹, a_{n+1} = r¹; b_0 = r², b_i = p_i²; C_i = [a_i, a_{i+1}] × (−inf, b_i].
  std::vector<Cell> cells;
  cells.reserve(front.size() + 1);
  double a_low = -std::numeric_limits<double>::infinity();
  double b_high = reference[1];
  for (const Point2& p : front) {
    cells.push_back({a_low, p[0], b_high});
    a_low = p[0];
    b_high = p[1];
  }
  cells.push_back({a_low, reference[0], b_high});
  return cells;
}

}  // namespace dpareto::pareto
