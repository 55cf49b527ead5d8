#include "dpareto/pareto/hypervolume.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/pareto/boxes.hpp"
#include "dpareto/pareto/cells.hpp"
#include "dpareto/pareto/dominance.hpp"

namespace dpareto::pareto {

namespace {

template <typename P>
void check_finite_reference(const P& reference, const char* who) {
  for (double r : reference)
    if (!std::isfinite(r)) throw InputError(std::string(who) + ": reference has a non-finite coordinate");
}

// The 2-D staircase {(x, y)} of a front with the area it dominates inside [., r1] × [., r2]:
// x strictly increasing, y strictly decreasing. Inserting a point updates the area in time
// proportional to the number of points it removes, plus O(log n) (Beume et al. 2009, Sec. 3).
class Staircase {
 public:
  Staircase(double r1, double r2) : r1_(r1), r2_(r2) {}

  void insert(double x, double y) {
    auto it = steps_.lower_bound(x);
    if (it != steps_.end() && it->first == x && it->second <= y) return;  // weakly dominated
    double top = it == steps_.begin() ? r2_ : std::prev(it)->second;
    if (top <= y) return;  // dominated by the step to its left
    // Added area = ∫_x^{r1} max(0, h(t) − y) dt with h the staircase height; the steps passed on
    // the way (y_q >= y) are dominated by (x, y) and removed.
    double added = 0, cx = x;
    while (it != steps_.end() && it->second >= y) {
      added += (it->first - cx) * (top - y);
      cx = it->first;
      top = it->second;
      it = steps_.erase(it);
    }
    const double end_x = it == steps_.end() ? r1_ : it->first;
    added += (end_x - cx) * (top - y);
    steps_.emplace_hint(it, x, y);
    area_ += added;
  }

  double area() const { return area_; }

 private:
  double r1_, r2_;
  std::map<double, double> steps_;
  double area_ = 0;
};

// d >= 4: slices between consecutive levels of the last objective, each the (d−1)-D hypervolume
// of the points at or below the slice's lower level.
double hypervolume_sliced(std::vector<Point> inside, const Point& reference) {
  const std::size_t d = reference.size();
  if (d == 3) {
    return hypervolume_3d(fixed<3>(inside), fixed<3>(reference));
  }
  std::sort(inside.begin(), inside.end(), [](const Point& a, const Point& b) { return a.back() < b.back(); });
  const Point lower_reference(reference.begin(), reference.end() - 1);
  std::vector<Point> below;
  double hv = 0;
  for (std::size_t i = 0; i < inside.size(); ++i) {
    below.emplace_back(inside[i].begin(), inside[i].end() - 1);
    const double next = i + 1 < inside.size() ? inside[i + 1].back() : reference.back();
    if (next > inside[i].back())
      hv += hypervolume_sliced(pareto_front(below), lower_reference) * (next - inside[i].back());
  }
  return hv;
}

void check_sizes(const std::vector<Point>& points, const Point& reference, const char* who) {
  if (reference.size() < 2) throw InputError(std::string(who) + ": need at least 2 objectives");
  for (std::size_t i = 0; i < points.size(); ++i)
    if (points[i].size() != reference.size())
      throw InputError(std::string(who) + ": point " + std::to_string(i) + " has " + std::to_string(points[i].size()) +
                       " objectives, the reference " + std::to_string(reference.size()));
}

}  // namespace

double hypervolume_2d(const std::vector<Point2>& points, const Point2& reference) {
  check_finite_reference(reference, "hypervolume_2d");
  std::vector<Point2> inside;
  inside.reserve(points.size());
  for (const Point2& p : points)
    if (strictly_below(p, reference)) inside.push_back(p);
  std::sort(inside.begin(), inside.end());
  // Sweep by the first objective: each new record low in the second objective adds a strip
  // reaching to the next record (or r1) — here summed as (r2 − y)·width per front point.
  double hv = 0;
  double best_y = reference[1];
  double prev_x = 0, prev_y = 0;
  bool have_prev = false;
  for (const Point2& p : inside) {
    if (p[1] >= best_y) continue;
    if (have_prev) hv += (p[0] - prev_x) * (reference[1] - prev_y);
    prev_x = p[0];
    prev_y = p[1];
    best_y = p[1];
    have_prev = true;
  }
  if (have_prev) hv += (reference[0] - prev_x) * (reference[1] - prev_y);
  return hv;
}

double hypervolume_3d(const std::vector<Point3>& points, const Point3& reference) {
  check_finite_reference(reference, "hypervolume_3d");
  std::vector<Point3> inside;
  inside.reserve(points.size());
  for (const Point3& p : points)
    if (strictly_below(p, reference)) inside.push_back(p);
  std::sort(inside.begin(), inside.end(), [](const Point3& a, const Point3& b) { return a[2] < b[2]; });
  // Sweep on the third objective: between consecutive z levels the dominated slice is the 2-D
  // staircase of all points seen so far.
  Staircase staircase(reference[0], reference[1]);
  double hv = 0;
  for (std::size_t i = 0; i < inside.size(); ++i) {
    staircase.insert(inside[i][0], inside[i][1]);
    const double next_z = i + 1 < inside.size() ? inside[i + 1][2] : reference[2];
    hv += staircase.area() * (next_z - inside[i][2]);
  }
  return hv;
}

double hypervolume_improvement_2d(const std::vector<Point2>& points, const Point2& m, const Point2& reference) {
  double hvi = 0;
  for (const Cell& c : nondominated_cells(points, reference))
    if (c.a_high > m[0] && c.b_high > m[1]) hvi += (c.a_high - std::max(c.a_low, m[0])) * (c.b_high - m[1]);
  return hvi;
}

double hypervolume(const std::vector<Point>& points, const Point& reference) {
  check_sizes(points, reference, "hypervolume");
  if (reference.size() == 2) {
    return hypervolume_2d(fixed<2>(points), fixed<2>(reference));
  }
  check_finite_reference(reference, "hypervolume");
  std::vector<Point> inside;
  for (const Point& p : points)
    if (strictly_below(p, reference)) inside.push_back(p);
  return hypervolume_sliced(std::move(inside), reference);
}

double hypervolume_improvement(const std::vector<Point>& points, const Point& m, const Point& reference) {
  check_sizes(points, reference, "hypervolume_improvement");
  check_sizes({m}, reference, "hypervolume_improvement");
  if (reference.size() == 2) {
    return hypervolume_improvement_2d(fixed<2>(points), fixed<2>(m), fixed<2>(reference));
  }
  return hypervolume_improvement(nondominated_boxes(points, reference), m);
}

}  // namespace dpareto::pareto
