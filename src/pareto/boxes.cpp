#include "dpareto/pareto/boxes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dpareto/core/error.hpp"
#include "dpareto/pareto/cells.hpp"
#include "dpareto/pareto/dominance.hpp"

namespace dpareto::pareto {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Boxes of the region below `reference` not dominated by `front` (points strictly below it).
void append_boxes(const std::vector<Point>& front, const Point& reference, std::vector<Box>& out) {
  const std::size_t d = reference.size();
  if (d == 2) {
    for (const Cell& c : nondominated_cells(fixed<2>(front), fixed<2>(reference)))
      out.push_back({{c.a_low, -kInf}, {c.a_high, c.b_high}});
    return;
  }
  std::vector<double> levels;
  for (const Point& p : front) levels.push_back(p.back());
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  const Point lower_reference(reference.begin(), reference.end() - 1);
  double low = -kInf;
  for (std::size_t j = 0; j <= levels.size(); ++j) {
    const double high = j < levels.size() ? levels[j] : reference.back();
    std::vector<Point> below;  // projections of the points at or below the slab's lower level
    for (const Point& p : front)
      if (p.back() <= low) below.emplace_back(p.begin(), p.end() - 1);
    std::vector<Point> projected_front;
    for (std::size_t i : non_dominated_indices(below)) projected_front.push_back(below[i]);
    std::vector<Box> slab;
    append_boxes(projected_front, lower_reference, slab);
    for (Box& b : slab) {
      b.lower.push_back(low);
      b.upper.push_back(high);
      out.push_back(std::move(b));
    }
    low = high;
  }
}

}  // namespace

std::vector<Box> nondominated_boxes(const std::vector<Point>& points, const Point& reference) {
  if (reference.size() < 2) throw InputError("nondominated_boxes: need at least 2 objectives");
  for (double r : reference)
    if (!std::isfinite(r)) throw InputError("nondominated_boxes: reference has a non-finite coordinate");
  std::vector<Point> inside;
  for (const Point& p : points)
    if (strictly_below(p, reference)) inside.push_back(p);
  std::vector<Point> front;
  for (std::size_t i : non_dominated_indices(inside)) front.push_back(inside[i]);
  std::vector<Box> boxes;
  append_boxes(front, reference, boxes);
  return boxes;
}

double hypervolume_improvement(const std::vector<Box>& boxes, const Point& m) {
  double hvi = 0;
  for (const Box& b : boxes) {
    bool inside = true;
    for (std::size_t d = 0; d < m.size() && inside; ++d) inside = b.upper[d] > m[d];
    if (!inside) continue;
    if (m.size() == 2) {  // one product, as the 2-D cells formula
      hvi += (b.upper[0] - std::max(b.lower[0], m[0])) * (b.upper[1] - std::max(b.lower[1], m[1]));
      continue;
    }
    double volume = 1;
    for (std::size_t d = 0; d < m.size(); ++d) volume *= b.upper[d] - std::max(b.lower[d], m[d]);
    hvi += volume;
  }
  return hvi;
}

}  // namespace dpareto::pareto
