#pragma once
// EHVI on the same cells (registered as "ehvi"), computed in GP space: cells mapped through the
// transforms and hypervolume measured in log ε × −logit u, where it is exact. Positive everywhere,
// so it also ranks candidates where HVPoI is zero on all of them.
#include <vector>

#include "dpareto/pareto/cells.hpp"

namespace dpareto::bo {

// EHVI = Σ_i [ψ₁(a_{i+1}) − ψ₁(a_i)] ψ₂(b_i), ψ_d(t) = (t−μ_d)Φ(z) + s_d φ(z), one common space.
double expected_hypervolume_improvement(const std::vector<pareto::Cell>& cells, const pareto::Point2& mean,
                                        const pareto::Point2& sd);

}  // namespace dpareto::bo
