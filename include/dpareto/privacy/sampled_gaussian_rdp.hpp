#pragma once
// Per-step RDP ε(α) of one subsampled Gaussian mechanism with noise multiplier σ (DESIGN.md §3.3).
// Inputs are assumed validated by the caller (dpsgd_rdp validates them).
namespace dpareto::privacy {

// Poisson subsampling with rate q, add/remove neighbours (Mironov, Talwar, Zhang 2019).
// Integer α: the exact binomial sum (their Sec. 3.3, eq. for A_α), written as a sum of positive
// terms for A_α − 1 so that tiny RDP keeps full relative precision. Fractional α: their series
// (Sec. 3.3) split at z₀ = σ² log(1/q − 1) + ½, in signed log space.
double poisson_gaussian_rdp(double q, double sigma, double alpha);

// Fixed-size sampling without replacement, γ = m/n, replace-one neighbours
// (Wang, Balle, Kasiviswanathan 2019, Thm 9, with ε(j) = j/(2σ²), ε(∞) = ∞). Fractional α > 2:
// linear interpolation of (α−1)ε'(α) between ⌊α⌋ and ⌈α⌉ (convex in α, WBK19 Remark/Sec. 3.3);
// 1 < α < 2: ε'(2) (RDP is nondecreasing in α). Capped by the unsubsampled α/(2σ²).
double fixed_size_gaussian_rdp(double gamma, double sigma, double alpha);

}  // namespace dpareto::privacy
