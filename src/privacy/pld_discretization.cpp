// One step of the Poisson-subsampled Gaussian as a discrete PLD (pld.hpp).
//
// Both estimates start from the exact bucket masses (P_k, Q_k) of the loss intervals
// (l_k, l_{k+1}], l_k = (i_lo + k)·h: the loss is monotone in the output x, so each bucket is an
// x-interval and its masses are normal CDF differences. Binning the output this way is a post-
// processing, so the atom (P_k, Q_k) at λ_k = log(P_k/Q_k) ∈ (l_k, l_{k+1}] loses nothing that a
// coarser view would keep; what remains is to move λ_k onto the grid.
// - pessimistic ("connect the dots", Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022): split each atom between l_k
// and l_{k+1} keeping both its P- and its Q-mass. The
//   result is a valid pair whose hockey-stick curve interpolates the exact δ(ε) at the grid points
//   and lies above it in between (δ is convex in e^ε); the exact pair is a post-processing of it,
//   so every composition is dominated too. The split moves the mean loss up by O(h²) per step,
//   not O(h) as rounding every loss up does (Meiser–Mohammadi 2018; Koskela et al. 2020).
//   Mass below l_{i_lo} is rounded up to it, mass above l_{i_hi} goes to the +∞ atom.
// - optimistic: merge (again a post-processing) what is left of atom k with shares of the atoms
//   above it so that the merged atom sits exactly at l_{k+1}: Σ shares (P_j − e^{l_{k+1}} Q_j) =
//   0, greedily upward. Near the lower end of the loss (log(1 − q), where much of the mass piles
//   up) one node may take several atoms; rounding atoms down instead would cost O(h) per step.
//   A merge left unbalanced at the top of the grid is rounded down to l_k (a coupling argument:
//   δ(ε) = E[(1 − e^{ε−L})_+] is nondecreasing in each step's loss); the tails beyond the grid
//   are dropped (their contribution is >= 0). The result is dominated by the exact pair.
#include <algorithm>
#include <cmath>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "log_math.hpp"
#include "pld.hpp"

namespace dpareto::privacy::detail {

namespace {

constexpr double kTailZ = 10;  // the grid covers x within 10 σ of the means: Φ̄(10) ≈ 7.6e-24

// P(a < Z <= b) for Z ~ N(0, 1), by the tail (upper or lower) that avoids cancellation.
double upper_tail(double t) {
  return 0.5 * std::erfc(t / M_SQRT2);
}
double lower_tail(double t) {
  return 0.5 * std::erfc(-t / M_SQRT2);
}
// The tail of the side t is on: Φ̄(t) for t >= 0, Φ(t) below.
double side_tail(double t) {
  return t >= 0 ? upper_tail(t) : lower_tail(t);
}
double mass_between(double a, double b, double tail_a, double tail_b) {
  if (!(b > a)) return 0;
  if (a >= 0) return std::max(tail_a - tail_b, 0.0);
  if (b <= 0) return std::max(tail_b - tail_a, 0.0);
  return std::max(1 - tail_a - tail_b, 0.0);
}
double std_normal_mass(double a, double b) {
  return mass_between(a, b, side_tail(a), side_tail(b));
}

// a·b with 0·inf = 0 (far tails: a vanishing mass times a huge likelihood ratio).
double product_zero_wins(double a, double b) {
  return a == 0 || b == 0 ? 0.0 : a * b;
}

struct Mixture {
  double q, sigma;
  // Remove-direction loss at output x: log(1 − q + q e^{(2x − 1)/(2σ²)}).
  double loss(double x) const { return log_add(std::log1p(-q), std::log(q) + (2 * x - 1) / (2 * sigma * sigma)); }
  // The x at which loss(x) = l; −inf for l <= log(1 − q), where every x has a larger loss.
  double threshold(double l) const {
    if (l == kInf) return kInf;
    const double r = std::expm1(l) + q;  // e^l − 1 + q
    if (!(r > 0)) return -kInf;
    return sigma * sigma * (std::log(r) - std::log(q)) + 0.5;
  }
};

// N(0, σ²)- and N(1, σ²)-mass of one bucket.
struct Masses {
  double n0 = 0, n1 = 0;
};

}  // namespace

double single_step_loss_range(double q, double sigma) {
  const Mixture m{q, sigma};
  // remove: losses between loss(−zσ) and loss(1 + zσ); add: between −loss(zσ) and −loss(−zσ).
  return std::max(m.loss(1 + kTailZ * sigma) - m.loss(-kTailZ * sigma),
                  m.loss(kTailZ * sigma) - m.loss(-kTailZ * sigma));
}

DiscretePld subsampled_gaussian_pld(double q, double sigma, Neighbour direction, Estimate estimate, double h) {
  const Mixture mix{q, sigma};
  const bool remove = direction == Neighbour::remove;
  // Loss range of the grid: the P-mass outside [−zσ, 1 + zσ] (remove) or [−zσ, zσ] (add) is < 1e-23.
  const double lmin = remove ? mix.loss(-kTailZ * sigma) : -mix.loss(kTailZ * sigma);
  const double lmax = remove ? mix.loss(1 + kTailZ * sigma) : -mix.loss(-kTailZ * sigma);
  if (!((lmax - lmin) / h < static_cast<double>(kMaxGridPoints)))
    throw InputError("PLD discretization h = " + format_number(h) +
                     " needs more than 2^27 grid points for one step (q = " + format_number(q) +
                     ", sigma = " + format_number(sigma) + "); choose a larger discretization");
  const long long i_lo = static_cast<long long>(std::floor(lmin / h));
  const long long i_hi = std::max(static_cast<long long>(std::ceil(lmax / h)), i_lo + 1);
  const std::size_t n = static_cast<std::size_t>(i_hi - i_lo);  // buckets; grid points n + 1

  // x-thresholds of the grid points and the side tails of N(0, σ²), N(1, σ²) there.
  // remove: bucket k is x in (x_k, x_{k+1}]; add (loss −remove-loss): x in [x_{k+1}, x_k).
  std::vector<double> t0(n + 1), t1(n + 1), s0(n + 1), s1(n + 1);
  for (std::size_t k = 0; k <= n; ++k) {
    const double l = static_cast<double>(i_lo + static_cast<long long>(k)) * h;
    const double x = mix.threshold(remove ? l : -l);
    t0[k] = x / sigma;
    t1[k] = (x - 1) / sigma;
    s0[k] = side_tail(t0[k]);
    s1[k] = side_tail(t1[k]);
  }
  auto bucket = [&](std::size_t k) {
    const std::size_t a = remove ? k : k + 1, b = remove ? k + 1 : k;
    return Masses{mass_between(t0[a], t0[b], s0[a], s0[b]), mass_between(t1[a], t1[b], s1[a], s1[b])};
  };
  // P, Q and the excess P − e^l Q at a bucket's lower grid point l, written without the leading
  // cancellation: remove q n1 − (e^l − 1 + q) n0; add n0 (1 − e^l (1 − q)) − e^l q n1.
  auto p_of = [&](const Masses& m) { return remove ? (1 - q) * m.n0 + q * m.n1 : m.n0; };
  auto q_of = [&](const Masses& m) { return remove ? m.n0 : (1 - q) * m.n0 + q * m.n1; };
  auto excess = [&](const Masses& m, double l) {
    if (remove) return q * m.n1 - product_zero_wins(std::expm1(l) + q, m.n0);
    return product_zero_wins(q * std::exp(l) - std::expm1(l), m.n0) - product_zero_wins(std::exp(l) * q, m.n1);
  };
  // P-mass of the losses below the first and above the last grid point.
  const double x_first = mix.threshold(remove ? i_lo * h : -i_lo * h);
  const double x_last = mix.threshold(remove ? i_hi * h : -i_hi * h);
  auto p_of_x = [&](double u, double v) {
    return p_of(Masses{std_normal_mass(u / sigma, v / sigma), std_normal_mass((u - 1) / sigma, (v - 1) / sigma)});
  };
  const double below = remove ? p_of_x(-kInf, x_first) : p_of_x(x_first, kInf);
  const double above = remove ? p_of_x(x_last, kInf) : p_of_x(-kInf, x_last);

  DiscretePld pld;
  pld.h = h;
  pld.offset = i_lo;
  pld.mass.assign(n + 1, 0.0);
  const double one_minus_e_minus_h = -std::expm1(-h);
  if (estimate == Estimate::pessimistic) {
    for (std::size_t k = 0; k < n; ++k) {
      const Masses m = bucket(k);
      const double p = p_of(m);
      if (p == 0) continue;
      const double l = static_cast<double>(i_lo + static_cast<long long>(k)) * h;
      // Keeping P and Q: the share at l_{k+1} is (P − e^{l_k} Q)/(1 − e^{−h}).
      const double up = std::clamp(excess(m, l) / one_minus_e_minus_h, 0.0, p);
      pld.mass[k] += p - up;
      pld.mass[k + 1] += up;
    }
    pld.mass[0] += below;
    pld.infinity_mass = above;
  } else {
    std::vector<double> p(n), qm(n), plus(n), minus(n);  // P_k, Q_k, P_k − e^{l_k} Q_k, e^{l_{k+1}} Q_k − P_k
    for (std::size_t k = 0; k < n; ++k) {
      const Masses m = bucket(k);
      const double l = static_cast<double>(i_lo + static_cast<long long>(k)) * h;
      p[k] = p_of(m);
      qm[k] = q_of(m);
      plus[k] = std::clamp(excess(m, l), 0.0, p[k]);
      minus[k] = std::max(product_zero_wins(std::exp(l) * std::expm1(h), qm[k]) - plus[k], 0.0);
    }
    // Node l_{k+1} takes what is left of atom k (below it) and as much of atoms k+1, k+2, ...
    // (above it) as balances it; `rest` is each atom's share not yet merged.
    std::vector<double> rest(n, 1.0);
    std::size_t j = 0;  // the lowest atom above the node that may have a share left
    for (std::size_t k = 0; k < n; ++k) {
      if (rest[k] == 0 || p[k] == 0) continue;
      const double node = static_cast<double>(i_lo + static_cast<long long>(k) + 1) * h;
      double deficit = rest[k] * minus[k], taken = rest[k] * p[k];
      rest[k] = 0;
      for (j = std::max(j, k + 1); deficit > 0 && j < n; ++j) {
        if (rest[j] == 0 || p[j] == 0) continue;
        // P_j − e^{node} Q_j = plus_j + e^{node} (e^{l_j − node} − 1) Q_j
        const double lj = static_cast<double>(i_lo + static_cast<long long>(j)) * h;
        const double excess_j = plus[j] + product_zero_wins(std::exp(node) * std::expm1(lj - node), qm[j]);
        if (!(excess_j > 0)) continue;
        if (rest[j] * excess_j <= deficit) {
          deficit -= rest[j] * excess_j;
          taken += rest[j] * p[j];
          rest[j] = 0;
        } else {
          const double share = deficit / excess_j;
          taken += share * p[j];
          rest[j] -= share;
          deficit = 0;
          break;
        }
      }
      // Balanced: the merged atom sits at the node. Not balanced (top of the grid): its loss is
      // below the node, so round it down to l_k.
      pld.mass[deficit > 0 ? k : k + 1] += taken;
    }
  }
  // Trim empty ends.
  std::size_t first = 0, last = pld.mass.size();
  while (first + 1 < last && pld.mass[first] == 0) ++first;
  while (last > first + 1 && pld.mass[last - 1] == 0) --last;
  pld.mass =
      std::vector<double>(pld.mass.begin() + static_cast<long>(first), pld.mass.begin() + static_cast<long>(last));
  pld.offset += static_cast<long long>(first);
  return pld;
}

}  // namespace dpareto::privacy::detail
