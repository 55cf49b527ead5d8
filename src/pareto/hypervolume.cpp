#include "dpareto/pareto/hypervolume.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/pareto/cells.hpp"

namespace dpareto::pareto {

namespace {

template <typename P>
void check_finite_reference(const P& reference, const char* who) {
  for (double r : reference)
    if (!std::isfinite(r)) throw InputError(std::string(who) + ": reference has a non-finite coordinate");
}

template <typename P>
bool strictly_below(const P& p, const P& reference) {
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!(p[i] < reference[i])) return false;  // also rejects NaN
  return true;
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
  std::sort(inside.begin(), inside.end(),
            [](const Point3& a, const Point3& b) { return a[2] < b[2]; });
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

double hypervolume_improvement_2d(const std::vector<Point2>& points, const Point2& m,
                                  const Point2& reference) {
  double hvi = 0;
  for (const Cell& c : nondominated_cells(points, reference))
    if (c.a_high > m[0] && c.b_high > m[1]) hvi += (c.a_high - std::max(c.a_low, m[0])) * (c.b_high - m[1]);
  return hvi;
}

}  // namespace dpareto::pareto
