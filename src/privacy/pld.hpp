#pragma once
// Private to the privacy module: discrete privacy-loss distributions (PLDs) of the Poisson-
// subsampled Gaussian, their composition by FFT and their (ε, δ) readouts (pld_accountant.hpp).
//
// A PLD of a pair (P, Q) is the law of L = log(dP/dQ)(X), X ~ P, with an atom at +∞ for P-mass
// where Q = 0; the pair is (ε, δ)-DP exactly for δ ≥ δ(ε) = E[(1 − e^{ε−L})_+], and composing
// mechanisms convolves their PLDs (Sommer, Meiser, Mohammadi 2019, "Privacy loss classes").
#include <functional>
#include <vector>

namespace dpareto::privacy::detail {

// Neighbouring direction of Poisson subsampling with the Gaussian mechanism of noise multiplier σ:
// remove: P = (1−q) N(0, σ²) + q N(1, σ²) against Q = N(0, σ²); add: the reverse.
enum class Neighbour { remove, add };
// pessimistic: δ(ε) of every composition is an upper bound on the exact one;
// optimistic: a lower bound (up to floating-point rounding in the discretization).
enum class Estimate { pessimistic, optimistic };

// Memory limit: a discrete PLD or an FFT array of more points than this is refused (InputError).
inline constexpr long long kMaxGridPoints = 1LL << 27;

// A PLD on the grid l_i = (offset + i)·h, i = 0 .. mass.size() − 1, plus an atom at +∞.
struct DiscretePld {
  double h = 0;
  long long offset = 0;
  std::vector<double> mass;  // P-probabilities, >= 0
  double infinity_mass = 0;
  // Bound on |δ(ε) read from `mass` − δ(ε) of the exact convolution of the parts| (window
  // truncation and FFT rounding); the readouts add it (pessimistic) or subtract it (optimistic).
  double delta_error = 0;
};

// The one-step PLD of the subsampled Gaussian (q in (0, 1], σ > 0) on the grid of width h.
DiscretePld subsampled_gaussian_pld(double q, double sigma, Neighbour direction, Estimate estimate, double h);

// Range of one step's privacy loss that holds all but ~1e-23 of its P-mass, in either direction
// (used to choose a grid width).
double single_step_loss_range(double q, double sigma);

// The convolution of parts[k].pld taken parts[k].times times each, all on the same grid, by one
// FFT per part; mass outside a Chernoff window of total mass <= tail_mass is left out (and
// counted in delta_error).
struct PldPower {
  const DiscretePld* pld;
  long long times;
};
DiscretePld compose(const std::vector<PldPower>& parts, double tail_mass);
// compose() of the same parts for each list counts[j] (counts[j][k]: how many times plds[k]),
// sharing each part's forward FFT: one array size for all, that of the widest window. Each result
// is handed to use(j, pld) in turn in one reused buffer, which use may keep by moving it (a run's 64
// epochs would otherwise hold 64 arrays of millions of points at once, and fault in each one's pages).
void compose_each(const std::vector<const DiscretePld*>& plds, const std::vector<std::vector<long long>>& counts,
                  double tail_mass, const std::function<void(std::size_t, DiscretePld&)>& use);

// δ(ε) = infinity_mass + Σ_i (1 − e^{ε − l_i})_+ mass_i, ± delta_error by `estimate`, in [0, 1].
double pld_delta(const DiscretePld& pld, double epsilon, Estimate estimate);
// The smallest ε >= 0 with δ(ε) <= delta (solved exactly between grid points: δ is A − e^ε B
// there); +inf when the ∞ atom and delta_error alone exceed delta.
double pld_epsilon(const DiscretePld& pld, double delta, Estimate estimate);

}  // namespace dpareto::privacy::detail
