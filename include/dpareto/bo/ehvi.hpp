#pragma once
// EHVI on the same boxes (registered as "ehvi"), computed in GP space: boxes mapped through the
// transforms and hypervolume measured in log ε × −logit u (× ...), where it is exact. Positive
// everywhere, so it also ranks candidates where HVPoI is zero on all of them.
#include <vector>

#include "dpareto/pareto/boxes.hpp"

namespace dpareto::bo {

// EHVI = Σ_boxes Π_d [ψ_d(u_d) − ψ_d(l_d)], ψ_d(t) = (t−μ_d)Φ(z) + s_d φ(z), ψ_d(−inf) = 0, one
// common space: HVI(y) = Σ_boxes Π_d (u_d − max(l_d, y_d))⁺ and each factor's expectation is
// ψ_d(u_d) − ψ_d(l_d) (2-D: Σ_i [ψ₁(a_{i+1}) − ψ₁(a_i)] ψ₂(b_i)).
double expected_hypervolume_improvement(const std::vector<pareto::Box>& boxes, const pareto::Point& mean,
                                        const pareto::Point& sd);

}  // namespace dpareto::bo
