#pragma once
// The sparse vector technique as DPareto runs it (Avent et al. 2020, Alg. 1, Appx. B).

namespace dpareto::privacy {

// ε = (1 + (2C)^{1/3}) (1 + (2C)^{2/3}) / b for cut-off C >= 1 and noise scale b > 0
// (DPareto Appx. B); throws InputError otherwise.
double svt_epsilon(double bound_c, double noise_b);

}  // namespace dpareto::privacy
