#pragma once
// The Laplace mechanism (Dwork et al. 2006): noise Lap(b) on a query of L1 sensitivity Δ is
// (Δ/b)-DP.
namespace dpareto::privacy {

double laplace_scale(double epsilon, double sensitivity);  // b = Δ/ε
double laplace_epsilon(double scale, double sensitivity);  // ε = Δ/b

// RDP of the Laplace mechanism (Mironov 2017, Prop. 6), with λ = b/Δ:
// ε(α) = 1/(α−1) log(α/(2α−1) e^{(α−1)/λ} + (α−1)/(2α−1) e^{−α/λ}), α > 1.
double laplace_rdp(double scale, double sensitivity, double alpha);

}  // namespace dpareto::privacy
