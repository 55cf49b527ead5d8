#pragma once
// (ε, δ)-DP composition and conversions between pure DP, zCDP and RDP (DESIGN.md §3.3).
#include <vector>

namespace dpareto::privacy {

struct ApproxDp {
  double epsilon;
  double delta;
};

// Basic composition: ε and δ add (Dwork & Roth 2014, Thm 3.16).
ApproxDp basic_composition(const std::vector<ApproxDp>& mechanisms);

// Advanced composition of k (ε, δ)-DP mechanisms with slack δ' (Dwork, Rothblum, Vadhan 2010;
// Dwork & Roth 2014, Thm 3.20): (√(2k log(1/δ')) ε + k ε (e^ε − 1), kδ + δ').
ApproxDp advanced_composition(double epsilon, double delta, long long k, double delta_slack);

// Optimal homogeneous composition (Kairouz, Oh, Viswanath 2015, Thm 3.3, in the closed form of
// Murtagh & Vadhan 2016, Thm 1.5): k-fold (ε, δ)-DP is (ε_g, δ_g)-DP with
// δ_g = 1 − (1−δ)^k (1 − δ'), δ' = Σ_i C(k,i) max(0, e^{(k−i)ε} − e^{ε_g + iε}) / (1 + e^ε)^k.
double optimal_composition_delta(double epsilon, double delta, long long k, double epsilon_total);
// The smallest ε_g with optimal_composition_delta <= delta_total (bracketing root finding).
double optimal_composition_epsilon(double epsilon, double delta, long long k, double delta_total);

// ε-DP implies ε²/2-zCDP (Bun & Steinke 2016, Prop. 3.3), hence (α, min(ε, αε²/2))-RDP.
double pure_dp_rdp(double epsilon, double alpha);
// ρ-zCDP implies (ρ + 2√(ρ log(1/δ)), δ)-DP (Bun & Steinke 2016, Prop. 1.3).
double zcdp_to_epsilon(double rho, double delta);

}  // namespace dpareto::privacy
