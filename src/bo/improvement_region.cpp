#include "dpareto/bo/improvement_region.hpp"

#include <algorithm>
#include <cmath>

#include "dpareto/gp/output_transform.hpp"

namespace dpareto::bo {
namespace {

// Cell bound on the epsilon axis -> log epsilon (GP space). Infinite bounds stay infinite.
double axis_to_log_epsilon(double value, const pareto::EpsilonAxis& axis) {
  if (std::isinf(value)) return value;
  if (axis.kind == pareto::EpsilonAxis::Kind::log10) return value * std::log(10.0);
  return gp::forward(gp::Transform::log, value);
}

// Error bound -> −logit(1 − error): decreasing in utility, so "smaller is better" is kept.
double error_to_negative_logit(double error) {
  if (std::isinf(error)) return error;
  return -gp::forward(gp::Transform::logit, 1.0 - error);
}

}  // namespace

double hypervolume_improvement(const std::vector<pareto::Cell>& cells, const pareto::Point2& m) {
  double hvi = 0;
  for (const auto& c : cells)
    if (c.a_high > m[0] && c.b_high > m[1]) hvi += (c.a_high - std::max(c.a_low, m[0])) * (c.b_high - m[1]);
  return hvi;
}

std::vector<pareto::Cell> cells_to_gp_space(const std::vector<pareto::Cell>& cells, const pareto::EpsilonAxis& axis) {
  std::vector<pareto::Cell> out;
  out.reserve(cells.size());
  for (const auto& c : cells)
    out.push_back(
        {axis_to_log_epsilon(c.a_low, axis), axis_to_log_epsilon(c.a_high, axis), error_to_negative_logit(c.b_high)});
  return out;
}

double ImprovementRegion::mean_hvi(double mean_log_epsilon, double mean_logit_utility) const {
  if (gp_space_geometry) return hypervolume_improvement(gp_cells, {mean_log_epsilon, -mean_logit_utility});
  const double epsilon = gp::inverse(gp::Transform::log, mean_log_epsilon);
  const double error = 1.0 - gp::inverse(gp::Transform::logit, mean_logit_utility);
  return hypervolume_improvement(geometry_cells, axis.map({epsilon, error}));
}

}  // namespace dpareto::bo
