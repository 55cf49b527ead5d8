#pragma once
// The region an acquisition measures improvement in (DESIGN.md §3.2): the cells of the
// non-dominated region on the hypervolume axes (epsilon on a linear or clipped log10 axis, error
// linear), the same cells mapped to GP space (log epsilon, −logit utility), and hypervolume
// improvement on cells. The GPs live in GP space; both maps are monotone, so a bound mapped through
// them gives exact probabilities there.
#include <vector>

#include "dpareto/pareto/cells.hpp"
#include "dpareto/pareto/objective_axis.hpp"

namespace dpareto::bo {

// HVI of a point m on the cells: Σ_i 1[a_{i+1} > m₁ ∧ b_i > m₂] (a_{i+1} − max(a_i, m₁))(b_i − m₂).
double hypervolume_improvement(const std::vector<pareto::Cell>& cells, const pareto::Point2& m);

// Maps geometry-space cells (epsilon axis, error) to GP space (log epsilon, −logit utility) so that
// both coordinates stay "smaller is better": the second coordinate is −logit(1 − error).
std::vector<pareto::Cell> cells_to_gp_space(const std::vector<pareto::Cell>& cells, const pareto::EpsilonAxis& axis);

struct ImprovementRegion {
  std::vector<pareto::Cell> geometry_cells;  // on the hypervolume axes (GP space when gp_space_geometry)
  std::vector<pareto::Cell> gp_cells;        // mapped to GP space
  pareto::EpsilonAxis axis;
  bool gp_space_geometry = false;  // estimated reference (GPflowOpt): geometry in GP space

  // HVI of a predictive mean (log epsilon, logit utility) in the region's geometry: mapped back to
  // objective space and onto the axes, or taken as it is in GP space.
  double mean_hvi(double mean_log_epsilon, double mean_logit_utility) const;
};

}  // namespace dpareto::bo
