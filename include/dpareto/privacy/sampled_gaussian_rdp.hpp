#pragma once
// Per-step RDP ε(α) of one subsampled Gaussian mechanism with noise multiplier σ (DESIGN.md §3.3).
// Inputs are assumed validated by the caller (dpsgd_rdp validates them).
namespace dpareto::privacy {

// Poisson subsampling with rate q, add/remove neighbours (Mironov, Talwar, Zhang 2019).
// Integer α: the exact binomial sum (their Sec. 3.3, eq. for A_α), written as a sum of positive
// terms for A_α − 1 so that tiny RDP keeps full relative precision. Fractional α: their series
// (Sec. 3.3) split at z₀ = σ² log(1/q − 1) + ½, in signed log space.
double poisson_gaussian_rdp(double q, double sigma, double alpha);

// Fixed-size sampling without replacement, γ = m/n, replace-one neighbours: the Gaussian-specific
// bound of Wang, Balle, Kasiviswanathan 2019 (WBK19, "Subsampled Rényi DP and Analytical Moments
// Accountant", AISTATS'19, arXiv:1808.00087), Thm 27 — the theorem number dp_accounting's
// rdp_privacy_accountant cites for its sampling-without-replacement bound, which this follows.
// Integer α >= 2, with ε(j) = j/(2σ²), g(t) = e^{t(t−1)/(2σ²)} (g(j) = e^{(j−1)ε(j)}) and
// Δ^l g(0) the l-th forward difference at 0:
//   (α−1)ε'(α) = log(1 + γ² C(α,2) min{4(e^{ε(2)}−1), 2e^{ε(2)}}
//                  + Σ_{j=3}^{α} γ^j C(α,j) min{4√(Δ^{2⌊j/2⌋}g(0) Δ^{2⌈j/2⌉}g(0)), 2e^{(j−1)ε(j)}}).
// Δ^l g(0) comes from a series of positive terms (gaussian_forward_difference.hpp), never from the
// alternating sum, which cancels catastrophically for large σ. For α > 256 (and wherever that
// series is not summed, see there) every term takes the second branch, 2e^{(j−1)ε(j)}, exactly as
// dp_accounting does beyond α = 256: the values never fall below that reference implementation's. Unlike the general
// bound below, its terms vanish as σ → ∞. Fractional α > 2: linear interpolation of (α−1)ε'(α) between ⌊α⌋ and ⌈α⌉
// (WBK19 Cor. 10); 1 < α < 2: ε'(2) (RDP is nondecreasing in α). Capped by the unsubsampled α/(2σ²).
double fixed_size_gaussian_rdp(double gamma, double sigma, double alpha);

// The same sampling with the general bound of WBK19 Thm 9 for any base mechanism, here with
// ε(j) = j/(2σ²), ε(∞) = ∞: the j >= 3 terms are 2 γ^j C(α,j) e^{(j−1)ε(j)}, which do not shrink as
// σ grows (a floor: at q = 0.01, T = 10⁴, target (1, 10⁻⁵) it needs σ ≈ 404 where Poisson needs
// 4.13). This is the accounting DPareto used (it reproduces the paper's Adult figures).
// Interpolation, α < 2 and the cap as above.
double fixed_size_general_rdp(double gamma, double sigma, double alpha);

}  // namespace dpareto::privacy
