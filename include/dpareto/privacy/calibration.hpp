#pragma once
// Calibration of DP-SGD against a target (ε, δ) by bracketing root finding on the monotone ε
// (DESIGN.md §3.3; Koskela & Kulkarni 2023, Sec. 4.1: σ_{γ,T} = min{σ : ε(T, δ, γ, σ) <= ε}).
#include <vector>

#include "dpareto/privacy/accountant.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"

namespace dpareto::privacy {

// Search range of the noise multiplier.
inline constexpr double kMinNoiseMultiplier = 0.01;
inline constexpr double kMaxNoiseMultiplier = 1e4;

// Smallest σ in [kMinNoiseMultiplier, kMaxNoiseMultiplier] (to 1e-10 relative, rounded up) with
// ε(σ) <= epsilon. Throws InputError when even the largest σ misses the target, or when the
// smallest σ already meets it (the target puts no constraint on σ in range).
double calibrate_sigma(Sampling sampling, double q, long long steps, double epsilon, double delta,
                       const std::vector<double>& orders = default_orders(),
                       Conversion conversion = Conversion::improved);

// Largest T >= 0 with ε(T) <= epsilon (0 when one step already exceeds it). Throws InputError
// when q = 0 (any number of steps would do).
long long max_steps(Sampling sampling, double q, double sigma, double epsilon, double delta,
                    const std::vector<double>& orders = default_orders(), Conversion conversion = Conversion::improved);

// The same by the chosen accountant (default orders, improved conversion for RDP; AccountantKind::rdp
// is exactly the functions above). With AccountantKind::pld (PldAccountant, whose ε never exceeds
// the RDP one): σ by root finding in log σ below the RDP σ, to 1e-7 relative, rounded up (ε of
// the returned σ is <= the target as evaluated); steps by doubling and bisection above the RDP
// count. The same InputErrors as above.
double calibrate_sigma(AccountantKind kind, Sampling sampling, double q, long long steps, double epsilon, double delta);
long long max_steps(AccountantKind kind, Sampling sampling, double q, double sigma, double epsilon, double delta);

}  // namespace dpareto::privacy
