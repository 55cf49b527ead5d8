#pragma once
// HVPoI (DPareto eq. 3; registered as "hvpoi"): α(x) = HVI(m(x)) · PoI(x), with m(x) the predictive
// mean mapped back to objective space and onto the hypervolume axes, and PoI over the boxes mapped
// to GP space (exact: monotone maps). Zero wherever the mean is dominated.
#include <vector>

#include "dpareto/pareto/boxes.hpp"

namespace dpareto::bo {

// PoI = Σ_boxes Π_d [Φ((u_d−μ_d)/s_d) − Φ((l_d−μ_d)/s_d)], prediction and boxes in one space
// (2-D: Σ_i [Φ((a_{i+1}−μ₁)/s₁) − Φ((a_i−μ₁)/s₁)] Φ((b_i−μ₂)/s₂)); s_d = 0 is a point mass at μ_d.
double probability_of_improvement(const std::vector<pareto::Box>& boxes, const pareto::Point& mean,
                                  const pareto::Point& sd);

}  // namespace dpareto::bo
