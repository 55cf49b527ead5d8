#pragma once
// The attainment staircase of a 2-D front, both objectives minimized (DPareto Fig. 1-8 draw fronts
// this way): every setting dominated by the front lies up and to the right of the line.
#include <cmath>
#include <limits>
#include <vector>

#include "dpareto/pareto/point.hpp"

namespace dpareto::plot {

// Vertices of the staircase through `points` (any order; dominated points are dropped first):
// (x_1, y_top), p_1, (x_2, y_1), p_2, ..., p_n, (x_end, y_n), with p sorted by x (so y decreases).
// A NaN `y_top` omits the first vertex and a NaN `x_end` the last. No points: no vertices.
std::vector<pareto::Point2> staircase(const std::vector<pareto::Point2>& points,
                                      double x_end = std::numeric_limits<double>::quiet_NaN(),
                                      double y_top = std::numeric_limits<double>::quiet_NaN());

}  // namespace dpareto::plot
