#pragma once
// Multi-objective acquisitions on the cell decomposition (DESIGN.md §3.2; Couckuyt et al. 2014).
// Geometry: cells and HVI live on the hypervolume axes (epsilon on a linear or clipped log10 axis,
// error linear). The GPs live in transformed space (log epsilon, logit utility); every cell bound
// is mapped through those monotone transforms before Φ is evaluated, which is exact.
#include <vector>

#include "dpareto/pareto/cells.hpp"
#include "dpareto/pareto/objective_axis.hpp"

namespace dpareto::bo {

// A Gaussian prediction of both objectives in GP space: (log epsilon, logit utility).
struct GpPrediction {
  double mean_log_epsilon, sd_log_epsilon;
  double mean_logit_utility, sd_logit_utility;
};

enum class AcquisitionKind { hvpoi, ehvi };

// Raw formulas in one common space (prediction and cells in the same coordinates):
//   PoI  = Σ_i [Φ((a_{i+1}−μ₁)/s₁) − Φ((a_i−μ₁)/s₁)] Φ((b_i−μ₂)/s₂)
//   EHVI = Σ_i [ψ₁(a_{i+1}) − ψ₁(a_i)] ψ₂(b_i),  ψ_d(t) = (t−μ_d)Φ(z) + s_d φ(z)
double probability_of_improvement(const std::vector<pareto::Cell>& cells, const pareto::Point2& mean,
                                  const pareto::Point2& sd);
double expected_hypervolume_improvement(const std::vector<pareto::Cell>& cells,
                                        const pareto::Point2& mean, const pareto::Point2& sd);
// HVI of a point m on the cells: Σ_i 1[a_{i+1} > m₁ ∧ b_i > m₂] (a_{i+1} − max(a_i, m₁))(b_i − m₂).
double hypervolume_improvement(const std::vector<pareto::Cell>& cells, const pareto::Point2& m);

// Maps geometry-space cells (epsilon axis, error) to GP space (log epsilon, −logit utility) so that
// both coordinates stay "smaller is better": the second coordinate is −logit(1 − error).
std::vector<pareto::Cell> cells_to_gp_space(const std::vector<pareto::Cell>& cells,
                                            const pareto::EpsilonAxis& axis);

// The acquisition value at one prediction. `geometry_cells` are on the hypervolume axes.
// HVPoI = HVI(back-transformed mean, mapped to the axes) × PoI (cells mapped to GP space).
// EHVI is computed in GP space (cells mapped, hypervolume measured in log ε × −logit u).
double acquisition_value(AcquisitionKind kind, const std::vector<pareto::Cell>& geometry_cells,
                         const std::vector<pareto::Cell>& gp_cells, const pareto::EpsilonAxis& axis,
                         const GpPrediction& prediction);

}  // namespace dpareto::bo
