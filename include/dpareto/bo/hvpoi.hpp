#pragma once
// HVPoI (DPareto eq. 3; registered as "hvpoi"): α(x) = HVI(m(x)) · PoI(x), with m(x) the predictive
// mean mapped back to objective space and onto the hypervolume axes, and PoI over the cells mapped
// to GP space (exact: monotone maps). Zero wherever the mean is dominated.
#include <vector>

#include "dpareto/pareto/cells.hpp"

namespace dpareto::bo {

// PoI = Σ_i [Φ((a_{i+1}−μ₁)/s₁) − Φ((a_i−μ₁)/s₁)] Φ((b_i−μ₂)/s₂), prediction and cells in one space.
double probability_of_improvement(const std::vector<pareto::Cell>& cells, const pareto::Point2& mean,
                                  const pareto::Point2& sd);

}  // namespace dpareto::bo
