#pragma once
// EHVI (registered as "ehvi"): the expected improvement of the hypervolume the run is scored by, on
// the region's own axes (ε linear or log10 clipped at its floor, error = 1 − utility, ...), with the
// expectation over the GP predictions carried through the inverse transforms (axis_law.hpp; issue
// 13). Positive wherever improvement is possible, so it also ranks candidates where HVPoI is zero on
// all of them.
#include <vector>

#include "dpareto/bo/axis_law.hpp"
#include "dpareto/pareto/boxes.hpp"

namespace dpareto::bo {

// HVI(y) = Σ_boxes Π_d (u_d − max(l_d, y_d))⁺ with independent Y_d, so EHVI = Σ_boxes Π_d [ψ_d(u_d) −
// ψ_d(l_d)], ψ_d(t) = E[(t − Y_d)⁺] (2-D: Σ_i [ψ₁(a_{i+1}) − ψ₁(a_i)] ψ₂(b_i)); boxes on the laws' axes.
double expected_hypervolume_improvement(const std::vector<pareto::Box>& boxes, const std::vector<AxisLaw>& laws);
// The same sum with each ψ_d replaced by expected_shortfall_upper's G_d: an upper bound on EHVI
// (each factor G_d(u) − G_d(l) ≥ ψ_d(u) − ψ_d(l) ≥ 0) that needs no quadrature.
double expected_hypervolume_improvement_bound(const std::vector<pareto::Box>& boxes, const std::vector<AxisLaw>& laws);

}  // namespace dpareto::bo
