#pragma once
// The region an acquisition measures improvement in (DESIGN.md §3.2, §3.7): the boxes of the
// non-dominated region on the hypervolume axes (epsilon on a linear or clipped log10 axis, the
// other objectives linear), the same boxes mapped to GP space (pareto::Objective::to_gp: log ε,
// −logit u, ...), and hypervolume improvement on them. The GPs live in GP space; every map is
// monotone increasing, so a bound mapped through it gives exact probabilities there.
#include <vector>

#include "dpareto/pareto/boxes.hpp"
#include "dpareto/pareto/objective_axis.hpp"
#include "dpareto/pareto/objectives.hpp"

namespace dpareto::bo {

// Maps geometry-space boxes (first objective on `axis`, the others linear) to GP space.
std::vector<pareto::Box> boxes_to_gp_space(const std::vector<pareto::Box>& boxes, const pareto::Objectives& objectives,
                                           const pareto::EpsilonAxis& axis);

struct ImprovementRegion {
  pareto::Objectives objectives = pareto::Objectives::privacy_utility();
  pareto::EpsilonAxis axis;                 // the first objective's hypervolume axis
  std::vector<pareto::Box> geometry_boxes;  // on the hypervolume axes (GP space when gp_space_geometry): HVI, EHVI
  std::vector<pareto::Box> gp_boxes;        // mapped to GP space: HVPoI's probability of improvement
  bool gp_space_geometry = false;           // estimated reference (GPflowOpt): geometry in GP space

  // A predictive mean in GP space, mapped back to objective space and onto the hypervolume axes.
  pareto::Point geometry_of_mean(const pareto::Point& gp_mean) const;
  // HVI of a predictive mean in the region's geometry (taken as it is in GP space).
  double mean_hvi(const pareto::Point& gp_mean) const;
};

}  // namespace dpareto::bo
