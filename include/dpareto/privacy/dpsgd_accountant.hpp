#pragma once
// RDP accountant of DP-SGD: T steps of the subsampled Gaussian mechanism (DESIGN.md §3.3),
// composed by adding RDP over steps (Mironov 2017, Prop. 1).
// - Sampling::poisson: Poisson subsampling with rate q, add/remove neighbours
//   (Mironov, Talwar, Zhang 2019, "Rényi DP of the Sampled Gaussian Mechanism", Sec. 3.3).
// - Sampling::fixed_size: fixed-size lots drawn without replacement, γ = m/n, replace-one
//   neighbours — what DPareto's DP-SGD/DP-Adam use — with the Gaussian-specific bound of Wang,
//   Balle, Kasiviswanathan 2019, Thm 27 (as in Google's dp_accounting).
// - Sampling::fixed_size_general: the same sampling with WBK19's general Thm 9 bound, the
//   accounting DPareto itself used (far looser for many steps; kept to reproduce its figures).
// σ is the noise multiplier (noise std / L2 sensitivity under the respective neighbourhood).
#include <string>
#include <vector>

#include "dpareto/privacy/rdp_conversion.hpp"

namespace dpareto::privacy {

// fixed_size, fixed_size_general: without replacement, replace-one; WBK19 Thm 27 resp. Thm 9.
enum class Sampling { poisson, fixed_size, fixed_size_general };

// The default order grid (issue 22): 1.01 … 1.2 (8 orders, where very small ε is found), 1.25 … 10
// in steps of 0.25, every integer 11 … 256, then 16 log-spaced orders from 256 to 10^4 and 512: 307 orders,
// a superset of the earlier 95-order grid (1.25 … 10, 11 … 64, 80, 96, 128, 256, 512).
std::vector<double> default_orders();

// A grid for searches that weigh thousands of settings (`explore --known-epsilon`, issue 18): the
// default grid's orders to 128, every 8th integer to 256, and its log-spaced ones to 2600: 189
// orders, about 4× faster. A subset of the default grid, so its ε is never below the default's; on
// 3000 random Adult settings (Poisson and fixed lots) the same above ε = 0.1, at most 3.2 % above
// it for ε in [0.01, 0.1] (tests/privacy/search_orders_test.cpp).
std::vector<double> search_orders();

// Steps of DP-SGD over `epochs` passes of `examples` in lots of `lot`: round(examples / lot) per
// epoch, at least 1 (DPareto Alg. 3; the one count that training and every accounting of it share).
long long dpsgd_steps(long long examples, long long lot, long long epochs);

// RDP curve of T steps of the subsampled Gaussian (q = sampling rate or γ = m/n), at each order.
// Throws InputError for q outside [0, 1], σ <= 0 (or not finite), negative steps, an order <= 1.
std::vector<double> dpsgd_rdp(Sampling sampling, double q, double sigma, long long steps,
                              const std::vector<double>& orders);

// dpsgd_rdp followed by rdp_to_epsilon.
EpsilonResult dpsgd_epsilon(Sampling sampling, double q, double sigma, long long steps, double delta,
                            const std::vector<double>& orders = default_orders(),
                            Conversion conversion = Conversion::improved);

// Names for CLI/JSON: "poisson" / "fixed" / "fixed-general" (parsing also accepts "fixed_size" and
// "fixed_size_general"); parsing throws InputError naming `source`.
const char* to_string(Sampling sampling);
Sampling parse_sampling(const std::string& text, const std::string& source);

}  // namespace dpareto::privacy
