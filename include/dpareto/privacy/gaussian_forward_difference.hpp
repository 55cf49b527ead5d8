#pragma once
// Forward differences at 0 of the Gaussian mechanism's moment function
//   g(t) = exp(t(t−1)/(2σ²))  (g(j) = e^{(j−1)ε(j)} with ε(j) = j/(2σ²)),
//   Δ^l g(0) = Σ_{i=0}^{l} (−1)^{l−i} C(l,i) g(i),
// the quantities of Wang, Balle, Kasiviswanathan 2019 (arXiv:1808.00087), Thm 27, used by
// fixed_size_gaussian_rdp (sampled_gaussian_rdp.hpp).
//
// The alternating sum cancels catastrophically for large σ (Δ^l g(0) ≈ (l−1)!! σ^{−l} while its
// terms are ≈ C(l, l/2)). We sum instead a series of positive terms: with c = 1/(2σ²) and the
// falling factorials t^{(k)} = t(t−1)…(t−k+1),
//   g(t) = Σ_m c^m/m! (t^{(2)})^m,   (t^{(2)})^m = Σ_k p_{m,k} t^{(k)},
// where p_{0,0} = 1 and p_{m+1,k} = p_{m,k−2} + 2(k−1) p_{m,k−1} + k(k−1) p_{m,k} (from
// t^{(k)} t^{(2)} = t^{(k+2)} + 2k t^{(k+1)} + k(k−1) t^{(k)}) are non-negative integers. Since
// Δ^l t^{(k)} at 0 is l! for k = l and 0 otherwise,
//   Δ^l g(0) = l! Σ_{m ≥ ⌈l/2⌉} c^m p_{m,l} / m!.
// The table of log(l! p_{m,l} / m!) does not depend on σ and is built once (long double).
// Truncation after term M adds the rigorous tail bound Σ_{m>M} x^m/m! with x = c·l(l−1)
// (since (l(l−1))^m = Σ_k p_{m,k} l^{(k)} >= p_{m,l} l!), so the result never under-reports
// beyond floating-point rounding (~1e-12 relative at the largest l and m).
namespace dpareto::privacy {

// Largest l of the table (the accountant needs even l <= 256).
inline constexpr int kMaxForwardDifferenceOrder = 256;
// Largest series index m of the table: kLongSeriesTerms for l <= kLongSeriesMaxOrder, else
// kSeriesTerms. The accountant skips the series where its branch of Thm 27 cannot win (beyond
// c·l(l−1) ≈ 1.1·(l/2)·ln(1.44 l), e.g. ≈ 820 at l = 256), which fits well within kSeriesTerms.
inline constexpr int kSeriesTerms = 1536;
inline constexpr int kLongSeriesMaxOrder = 40;
inline constexpr int kLongSeriesTerms = 4096;

// log Δ^l g(0) for 0 <= l <= kMaxForwardDifferenceOrder and σ > 0 (−inf for l = 1, where
// Δg(0) = 0, and when 1/(2σ²) underflows). Returns +inf, a trivially valid upper bound that tells
// the caller to use another bound, when the series needs more terms than the table holds
// (c·l(l−1) beyond ≈ 1200 for l > 40, ≈ 3500 for l <= 40: small σ, where the other branch of
// Thm 27, 2e^{(j−1)ε(j)}, is the smaller one anyway). Throws InputError for l or σ out of range.
double log_gaussian_forward_difference(int l, double sigma);

}  // namespace dpareto::privacy
