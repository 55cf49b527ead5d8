// Composition of discrete PLDs by FFT (pld.hpp): the T-fold convolution of a PMF on an integer
// grid is the inverse DFT of the T-th power of its DFT (Koskela, Jälkö, Honkela 2020, Sec. 3;
// Google dp_accounting's self_convolve).
//
// The array is only as long as a window [lo, hi] of the composed loss that holds all but
// tail_mass of it, by Chernoff bounds on the discrete PMFs themselves: P(S >= m) <=
// exp(Σ_k T_k log M_k(θ) − θ m) for θ > 0, M_k(θ) = Σ_i p_i e^{θ l_i}, and the mirror image for the
// lower tail. The DFT is cyclic, so mass outside the window folds into it; with f(l) =
// (1 − e^{ε−l})_+ in [0, 1], the δ read from the window then differs from the exact δ by at most
// the mass outside (Koskela et al. 2020, Sec. 5 bound the same aliasing error).
// Floating point (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., §24.1): each
// computed DFT coefficient is off by at most e = c u (log₂N + 3) Σ|p| (the +3 covers the rounding
// of the power itself); z^T then by at most T e max(|z|, |ẑ|)^{T−1} <= T e a_k with a_k =
// (|ẑ_k| + e)^{T−1} — large only where |z_k| ≈ 1, i.e. at the few lowest frequencies — so the
// composed spectrum is off by T e sqrt(S), S = Σ_k a_k², in 2-norm. The inverse DFT divides the
// 2-norm by √N and adds its own c u log₂N ||y||₂; δ is a sum against f <= 1 over at most N points,
// so its error is at most √N times the 2-norm error: T e sqrt(S) + √N c u log₂N ||p||₂. Negative
// outputs are clamped to 0, which only moves them closer. (The readouts' own summation error is
// relative to δ, pld_readout.cpp.)
// The window's tail mass and this bound make up delta_error, which the readouts add
// (pessimistic) or subtract (optimistic).
#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "log_math.hpp"
#include "pld.hpp"

namespace dpareto::privacy::detail {

namespace {

constexpr double kUnitRoundoff = std::numeric_limits<double>::epsilon() / 2;
constexpr double kFftErrorConstant = 8;  // c above: Higham's (Thm 24.2) constant for accurate twiddles, with margin

// Complex product without the inf/NaN recovery of operator* (no infinities arise here).
std::complex<double> times(std::complex<double> a, std::complex<double> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// Plans per transform size, made once (FFTW's planner is not thread-safe; executing a plan on
// other aligned arrays with fftw_execute_dft_* is) and kept: the twiddle factors are the costly
// part of planning and DP-SGD calibration asks for the same sizes again and again. The cache is
// bounded; a plan leaves it as a shared_ptr, so one that another thread is still executing is
// destroyed (under the planner's lock) only when that thread lets go of it.
struct Plans {
  fftw_plan forward, backward;
};
std::mutex& planner_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::shared_ptr<const Plans> plans_for(long long n, double* real, fftw_complex* spectrum) {
  std::mutex& mutex = planner_mutex();  // constructed before the cache, so destroyed after it
  static std::map<long long, std::shared_ptr<const Plans>> cache;
  // Declared before the lock: plans evicted here are released after it is unlocked, so that their
  // deleter (which takes it) cannot run while this thread holds it.
  std::map<long long, std::shared_ptr<const Plans>> evicted;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  if (cache.size() >= 16) evicted.swap(cache);  // bounded: forget the lot (plans in use live on)
  auto plans =
      std::shared_ptr<const Plans>(new Plans{fftw_plan_dft_r2c_1d(static_cast<int>(n), real, spectrum, FFTW_ESTIMATE),
                                             fftw_plan_dft_c2r_1d(static_cast<int>(n), spectrum, real, FFTW_ESTIMATE)},
                                   [](const Plans* p) {
                                     std::lock_guard<std::mutex> guard(planner_mutex());
                                     fftw_destroy_plan(p->forward);
                                     fftw_destroy_plan(p->backward);
                                     delete p;
                                   });
  cache.emplace(n, plans);
  return plans;
}

// Smallest 2^a 3^b 5^c 7^d >= n (sizes FFTW transforms fastest).
long long fast_size(long long n) {
  long long best = std::numeric_limits<long long>::max();
  for (long long p7 = 1; p7 < 2 * n; p7 *= 7)
    for (long long p5 = p7; p5 < 2 * n; p5 *= 5)
      for (long long p3 = p5; p3 < 2 * n; p3 *= 3) {
        long long v = p3;
        while (v < n) v *= 2;
        best = std::min(best, v);
      }
  return best;
}

// log Σ_i p_i e^{θ h i} (i relative to the first point), relative to the largest exponent so
// that nothing overflows; the powers come from one multiplication each (relative rounding ~n u).
double log_mgf(const DiscretePld& pld, double theta) {
  const double step = theta * pld.h;
  const std::size_t n = pld.mass.size();
  const double ratio = std::exp(-std::abs(step));
  double sum = 0, power = 1;
  if (step > 0) {
    for (std::size_t i = n; i-- > 0; power *= ratio) sum += pld.mass[i] * power;
    return step * static_cast<double>(n - 1) + std::log(sum);
  }
  for (std::size_t i = 0; i < n; ++i, power *= ratio) sum += pld.mass[i] * power;
  return std::log(sum);
}

// Chernoff bound on the relative grid index of the composed sum: above `sign` = +1 (below for −1)
// the mass is <= tail; the best over a geometric grid of θ, stopping once the bound worsens.
double chernoff_index(const std::vector<PldPower>& parts, double tail, int sign) {
  const double h = parts.front().pld->h;
  double best = sign > 0 ? kInf : -kInf;
  int worse = 0;
  for (int k = -12; k <= 40 && worse < 3; ++k) {
    const double theta = std::pow(2.0, k / 2.0);
    double cumulant = 0;
    for (const PldPower& part : parts) cumulant += static_cast<double>(part.times) * log_mgf(*part.pld, sign * theta);
    const double bound = sign * (cumulant - std::log(tail)) / (theta * h);
    const bool better = sign > 0 ? bound < best : bound > best;
    if (better) {
      best = bound;
      worse = 0;
    } else {
      ++worse;
    }
  }
  return best;
}

}  // namespace

DiscretePld compose(const std::vector<PldPower>& parts, double tail_mass) {
  if (parts.empty()) throw InputError("PLD composition: nothing to compose");
  const double h = parts.front().pld->h;
  long long shift = 0, steps = 0;  // Σ T_k offset_k: the composed sum's absolute index at relative 0
  double top = 0, log_keep_finite = 0, norm2 = 0;
  for (const PldPower& part : parts) {
    if (part.pld->h != h) throw InputError("PLD composition: parts on different grids");
    shift += part.times * part.pld->offset;
    steps += part.times;
    top += static_cast<double>(part.times) * static_cast<double>(part.pld->mass.size() - 1);
    log_keep_finite += static_cast<double>(part.times) * std::log1p(-part.pld->infinity_mass);
    double s = 0;
    for (double p : part.pld->mass) s += p * p;
    norm2 = std::max(norm2, std::sqrt(s));
  }
  // The window of relative indices [lo, hi].
  const double hi_bound = std::min(chernoff_index(parts, tail_mass / 2, +1), top);
  const double lo_bound = std::max(chernoff_index(parts, tail_mass / 2, -1), 0.0);
  const double width = std::floor(hi_bound) - std::ceil(lo_bound) + 1;
  if (!(width <= static_cast<double>(kMaxGridPoints)))
    throw InputError("PLD composition with discretization h = " + format_number(h) + " needs " + format_number(width) +
                     " grid points, more than the limit 2^27; choose a larger discretization");
  const long long lo = static_cast<long long>(std::ceil(lo_bound));
  const long long w = std::max(static_cast<long long>(width), 1LL);
  const long long n = fast_size(std::max(w, 2LL));
  if (n > kMaxGridPoints)
    throw InputError("PLD composition with discretization h = " + format_number(h) + " needs an FFT of " +
                     std::to_string(n) + " points, more than the limit 2^27; choose a larger discretization");

  const std::size_t nc = static_cast<std::size_t>(n / 2 + 1);
  double* real = fftw_alloc_real(static_cast<std::size_t>(n));
  fftw_complex* spectrum = fftw_alloc_complex(nc);
  const auto plans = plans_for(n, real, spectrum);
  const double log2n = std::log2(static_cast<double>(n));
  const double coefficient_error = kFftErrorConstant * kUnitRoundoff * (log2n + 3);
  std::vector<std::complex<double>> product(nc, 1.0);
  std::vector<double> log_amplification(nc, 0.0);  // log a_k, summed over the parts
  for (const PldPower& part : parts) {
    std::fill(real, real + n, 0.0);
    for (std::size_t i = 0; i < part.pld->mass.size(); ++i) real[i % static_cast<std::size_t>(n)] += part.pld->mass[i];
    fftw_execute_dft_r2c(plans->forward, real, spectrum);
    const double t = static_cast<double>(part.times);
    for (std::size_t k = 0; k < nc; ++k) {
      const std::complex<double> z(spectrum[k][0], spectrum[k][1]);
      const double log_bound = std::log(std::abs(z) + coefficient_error);
      log_amplification[k] += (t - 1) * log_bound;
      // z^T by repeated squaring; most |z|^T underflow.
      if (product[k] == 0.0 || t * log_bound < -700) {
        product[k] = 0;
        continue;
      }
      std::complex<double> power = 1, base = z;
      for (long long e = part.times; e > 0; e >>= 1, base = times(base, base))
        if (e & 1) power = times(power, base);
      product[k] = times(product[k], power);
    }
  }
  double amplification = 0;  // S, both halves of the spectrum
  for (std::size_t k = 0; k < nc; ++k) amplification += (k == 0 ? 1 : 2) * std::exp(2 * log_amplification[k]);
  for (std::size_t k = 0; k < nc; ++k) {
    spectrum[k][0] = product[k].real();
    spectrum[k][1] = product[k].imag();
  }
  fftw_execute_dft_c2r(plans->backward, spectrum, real);  // unnormalized: divide by n

  DiscretePld out;
  out.h = h;
  out.offset = shift + lo;
  out.mass.resize(static_cast<std::size_t>(w));
  for (long long i = 0; i < w; ++i)
    out.mass[static_cast<std::size_t>(i)] = std::max(real[(lo + i) % n] / static_cast<double>(n), 0.0);
  fftw_free(real);
  fftw_free(spectrum);
  out.infinity_mass = -std::expm1(log_keep_finite);
  out.delta_error = tail_mass + static_cast<double>(steps) * coefficient_error * std::sqrt(amplification) +
                    kFftErrorConstant * kUnitRoundoff * std::sqrt(static_cast<double>(n)) * log2n * norm2;
  return out;
}

}  // namespace dpareto::privacy::detail
