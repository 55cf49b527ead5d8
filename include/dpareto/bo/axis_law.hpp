#pragma once
// A Gaussian GP prediction of one objective, Z ~ N(μ, s²) in GP space, carried onto the objective's
// hypervolume axis: Y = g(Z) with g the inverse GP transform then the axis map (issue 13). Its
// expected shortfall ψ(t) = E[(t − Y)⁺] = ∫_{−∞}^t P(Y ≤ y) dy gives the expected part of [l, u] that
// Y dominates, E[(u − max(l, Y))⁺] = ψ(u) − ψ(l): EHVI's one-dimensional factor (ehvi.hpp).
#include <cstddef>
#include <limits>
#include <vector>

#include "dpareto/bo/improvement_region.hpp"

namespace dpareto::bo {

struct AxisLaw {
  enum class Kind {
    normal,          // Y = max(floor, X), X ~ N(mean, sd²)
    log_normal,      // Y = exp(X)
    logit_normal,    // Y = σ(X) = 1 / (1 + e^{−X})
    arcsine_normal,  // Y = h(X) = ½(1 + sin 2X), X clamped to [−π/4, π/4] (point masses at 0 and 1)
  } kind = Kind::normal;
  double mean = 0, sd = 1;  // of X; sd 0: a point mass (an objective computed exactly)
  double floor = -std::numeric_limits<double>::infinity();
};

// Objective d of `region` predicted as N(gp_mean, gp_sd²) in GP space, on the region's axes: the
// identity where the region's geometry is GP space; log ε on a log10 axis clipped at its floor:
// normal (X = Z / ln 10); log (ε, seconds) on a linear axis: log-normal; error = σ(−logit u):
// logit-normal; error on an arcsine surrogate: arcsine-normal; an identity surrogate: normal.
// std::logic_error for another combination.
AxisLaw axis_law(const ImprovementRegion& region, std::size_t d, double gp_mean, double gp_sd);

// ψ(t) = E[(t − Y)⁺] at each of `ascending` (sorted, −inf allowed: ψ = 0); finite for every finite
// mean and sd > 0. A point mass (sd 0) at y = g(mean): ψ(t) = (t − y)⁺, exactly.
// normal: ψ_N(t) − ψ_N(floor) for t > floor, else 0; ψ_N(t) = (t − m)Φ(z) + s φ(z), z = (t − m)/s.
// log-normal: tΦ(z) − e^{m + s²/2} Φ(z − s), z = (ln t − m)/s, for t > 0, else 0. The second term is
//   dropped where Φ(z − s) underflows (z − s < −37.5): with s < 30 that changes ψ by < 1e-14 t.
// logit-normal: ∫_{−∞}^{z_t} Φ((z − m)/s) σ'(z) dz + (t − 1)⁺, z_t = logit min(t, 1) (ψ as the integral
//   of the CDF, y = σ(z)), accumulated between consecutive points. Φ is within Φ(−8) = 6.2e-16 of 0
//   below m − 8s (dropped) and of 1 above m + 8s (there the integral is a difference of σ); σ' <
//   4.3e-18 beyond |z| = 40 (dropped); the rest is adaptive Gauss–Kronrod (15 points, Boost.Math)
//   to a relative 1e-10: |error| ≤ 1.3e-15 + 1e-10 ψ(t) by the Kronrod estimate.
// arcsine-normal: the same with h for σ, z_t = ½ asin(2 min(t, 1) − 1): h' = cos 2z ≤ 1 on
//   [−π/4, π/4] and 0 outside, so only Φ's tails are dropped (< π/2 · 6.2e-16); Y's point mass at 0
//   is in the integral (F(y) ≥ P(Y = 0) for y > 0), the one at 1 in the (t − 1)⁺.
std::vector<double> expected_shortfall(const AxisLaw& law, const std::vector<double>& ascending);

// G at each of `ascending`, without quadrature, such that G(u) − G(l) ≥ ψ(u) − ψ(l) for any two of
// them (and G ≥ ψ): for the logit- and arcsine-normal with sd > 0, ψ' is the CDF F, nondecreasing, so over a
// partition of (0, t] holding every point (and 21 quantiles of Y, where F rises) the integral of F
// is at most the upper Riemann sum Σ width × F(right end); the closed-form laws' ψ itself. EHVI's
// cheap upper bound (ehvi.hpp).
std::vector<double> expected_shortfall_upper(const AxisLaw& law, const std::vector<double>& ascending);

}  // namespace dpareto::bo
