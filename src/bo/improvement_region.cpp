#include "dpareto/bo/improvement_region.hpp"

#include <cmath>

namespace dpareto::bo {
namespace {

// A box bound of objective d on the hypervolume axes -> GP space. Infinite bounds stay infinite;
// on a log10 axis a log-surrogate objective is mapped by a factor (log ε = ln 10 · log10 ε).
double bound_to_gp(double value, std::size_t d, const pareto::Objectives& objectives, const pareto::EpsilonAxis& axis) {
  if (std::isinf(value)) return value;
  const pareto::Objective& o = objectives[d];
  if (d > 0) return o.to_gp(o.to_column(value));
  if (axis.kind == pareto::EpsilonAxis::Kind::log10 && o.surrogate == pareto::Transform::log && !o.complement)
    return value * std::log(10.0);
  return o.to_gp(o.to_column(axis.from_axis(value)));
}

}  // namespace

std::vector<pareto::Box> boxes_to_gp_space(const std::vector<pareto::Box>& boxes, const pareto::Objectives& objectives,
                                           const pareto::EpsilonAxis& axis) {
  std::vector<pareto::Box> out = boxes;
  for (auto& b : out)
    for (std::size_t d = 0; d < b.lower.size(); ++d) {
      b.lower[d] = bound_to_gp(b.lower[d], d, objectives, axis);
      b.upper[d] = bound_to_gp(b.upper[d], d, objectives, axis);
    }
  return out;
}

pareto::Point ImprovementRegion::geometry_of_mean(const pareto::Point& gp_mean) const {
  pareto::Point p(gp_mean.size());
  for (std::size_t d = 0; d < gp_mean.size(); ++d) p[d] = objectives[d].from_column(objectives[d].from_gp(gp_mean[d]));
  return axis.map(p);
}

double ImprovementRegion::mean_hvi(const pareto::Point& gp_mean) const {
  if (gp_space_geometry) return pareto::hypervolume_improvement(gp_boxes, gp_mean);
  return pareto::hypervolume_improvement(geometry_boxes, geometry_of_mean(gp_mean));
}

}  // namespace dpareto::bo
