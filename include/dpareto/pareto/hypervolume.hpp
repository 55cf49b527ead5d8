#pragma once
// Exact hypervolume (DESIGN.md §3.2): 2-D in O(n log n), 3-D by a sweep on the third objective
// with a balanced tree of the 2-D staircase, O(n log n) (Beume et al. 2009); d > 3 by slicing on
// the last objective down to 3-D. Points that do not strictly dominate the reference in every
// objective contribute nothing.
#include <vector>

#include "dpareto/pareto/point.hpp"

namespace dpareto::pareto {

double hypervolume_2d(const std::vector<Point2>& points, const Point2& reference);
double hypervolume_3d(const std::vector<Point3>& points, const Point3& reference);
// Any number of objectives (>= 2), taking the 2-D and 3-D paths above when it can. InputError for
// points whose size is not the reference's.
double hypervolume(const std::vector<Point>& points, const Point& reference);

// HV(P ∪ {m}) − HV(P) for a front (or any set) P, computed directly on the cells (DESIGN §3.2);
// 0 when m is dominated by P or not strictly better than the reference.
double hypervolume_improvement_2d(const std::vector<Point2>& points, const Point2& m, const Point2& reference);
// Any number of objectives: the 2-D path above, else on the boxes of boxes.hpp.
double hypervolume_improvement(const std::vector<Point>& points, const Point& m, const Point& reference);

}  // namespace dpareto::pareto
