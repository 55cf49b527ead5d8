#pragma once
// The Gaussian mechanism: analytic calibration (Balle & Wang 2018, "Improving the Gaussian
// Mechanism for Differential Privacy", Thm 8) and the classic calibration (Dwork & Roth 2014,
// Thm A.1), which is valid only for ε < 1.
// sensitivity = L2 sensitivity Δ; sigma = standard deviation of the added noise (not a multiplier).

namespace dpareto::privacy {

// δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) (Balle & Wang 2018, Thm 8), exact.
double analytic_gaussian_delta(double epsilon, double sigma, double sensitivity);

// Smallest σ with δ(ε, σ) <= δ, by bracketing root finding, relative accuracy 1e-10.
double analytic_gaussian_sigma(double epsilon, double delta, double sensitivity);

// Smallest ε >= 0 with δ(ε, σ) <= δ; 0 if δ(0, σ) <= δ already.
double analytic_gaussian_epsilon(double sigma, double delta, double sensitivity);

// σ = Δ √(2 log(1.25/δ)) / ε (Dwork & Roth 2014, Thm A.1); throws InputError for ε >= 1,
// where that bound does not hold.
double classic_gaussian_sigma(double epsilon, double delta, double sensitivity);

}  // namespace dpareto::privacy
