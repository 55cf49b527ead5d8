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
#include <new>
#include <string>
#include <utility>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "log_math.hpp"
#include "pld.hpp"

namespace dpareto::privacy::detail {

namespace {

constexpr double kUnitRoundoff = std::numeric_limits<double>::epsilon() / 2;
constexpr double kFftErrorConstant = 8;  // c above: Higham's (Thm 24.2) constant for accurate twiddles, with margin

// Complex product without the inf/NaN recovery of operator* (no infinities arise here).
std::complex<double> complex_product(std::complex<double> a, std::complex<double> b) {
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
struct FftwFree {
  void operator()(void* buffer) const { fftw_free(buffer); }
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

// Memoized log-MGFs of the parts at θ = ±2^{k/2} (k = -12 .. 40), shared by the windows of
// several compositions of the same parts.
class LogMgfs {
 public:
  explicit LogMgfs(const std::vector<const DiscretePld*>& plds) : plds_(plds), memo_(plds.size()) {}
  static constexpr int kLow = -12, kHigh = 40;
  static double theta(int k) { return std::pow(2.0, k / 2.0); }
  double at(std::size_t part, int k, int sign) {
    auto& row = memo_[part];
    if (row.empty()) row.assign(2 * (kHigh - kLow + 1), kNaN);
    double& v = row[static_cast<std::size_t>(2 * (k - kLow) + (sign > 0))];
    if (std::isnan(v)) v = log_mgf(*plds_[part], sign * theta(k));
    return v;
  }

 private:
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  const std::vector<const DiscretePld*>& plds_;
  std::vector<std::vector<double>> memo_;
};

// Chernoff bound on the relative grid index of the sum of times[i] draws of part i: above `sign` =
// +1 (below for −1) the mass is <= tail; the best over a geometric grid of θ, stopping once the
// bound worsens.
double chernoff_index(LogMgfs& mgfs, double h, const std::vector<long long>& times, double tail, int sign) {
  double best = sign > 0 ? kInf : -kInf;
  int worse = 0;
  for (int k = LogMgfs::kLow; k <= LogMgfs::kHigh && worse < 3; ++k) {
    double cumulant = 0;
    for (std::size_t i = 0; i < times.size(); ++i) cumulant += static_cast<double>(times[i]) * mgfs.at(i, k, sign);
    const double bound = sign * (cumulant - std::log(tail)) / (LogMgfs::theta(k) * h);
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

// One composition's window of relative indices [lo, lo + width) and its bookkeeping.
struct Window {
  long long lo = 0, width = 1, shift = 0, steps = 0;
  double log_keep_finite = 0;
};

Window window_of(LogMgfs& mgfs, const std::vector<const DiscretePld*>& plds, const std::vector<long long>& times,
                 double tail_mass) {
  const double h = plds.front()->h;
  Window win;
  double top = 0;
  for (std::size_t i = 0; i < plds.size(); ++i) {
    win.shift += times[i] * plds[i]->offset;
    win.steps += times[i];
    top += static_cast<double>(times[i]) * static_cast<double>(plds[i]->mass.size() - 1);
    win.log_keep_finite += static_cast<double>(times[i]) * std::log1p(-plds[i]->infinity_mass);
  }
  const double hi_bound = std::min(chernoff_index(mgfs, h, times, tail_mass / 2, +1), top);
  const double lo_bound = std::max(chernoff_index(mgfs, h, times, tail_mass / 2, -1), 0.0);
  const double width = std::floor(hi_bound) - std::ceil(lo_bound) + 1;
  if (!(width <= static_cast<double>(kMaxGridPoints)))
    throw InputError("PLD composition with discretization h = " + format_number(h) + " needs " + format_number(width) +
                     " grid points, more than the limit 2^27; choose a larger discretization");
  win.lo = static_cast<long long>(std::ceil(lo_bound));
  win.width = std::max(static_cast<long long>(width), 1LL);
  return win;
}

}  // namespace

void compose_each(const std::vector<const DiscretePld*>& plds, const std::vector<std::vector<long long>>& counts,
                  double tail_mass, const std::function<void(std::size_t, DiscretePld&)>& use) {
  if (plds.empty() || counts.empty()) throw InputError("PLD composition: nothing to compose");
  const double h = plds.front()->h;
  double norm2 = 0;
  for (const DiscretePld* pld : plds) {
    if (pld->h != h) throw InputError("PLD composition: parts on different grids");
    double s = 0;
    for (double p : pld->mass) s += p * p;
    norm2 = std::max(norm2, std::sqrt(s));
  }
  LogMgfs mgfs(plds);
  std::vector<Window> windows;
  long long widest = 2;
  for (const auto& t : counts) {
    if (t.size() != plds.size()) throw InputError("PLD composition: one count per part expected");
    windows.push_back(window_of(mgfs, plds, t, tail_mass));
    widest = std::max(widest, windows.back().width);
  }
  // One array size for all: the fastest at least as long as the widest window.
  const long long n = fast_size(widest);
  if (n > kMaxGridPoints)
    throw InputError("PLD composition with discretization h = " + format_number(h) + " needs an FFT of " +
                     std::to_string(n) + " points, more than the limit 2^27; choose a larger discretization");

  const std::size_t nc = static_cast<std::size_t>(n / 2 + 1);
  // FFTW's aligned buffers, freed however this function is left (a reader or an allocation may throw).
  const std::unique_ptr<double, FftwFree> real_buffer(fftw_alloc_real(static_cast<std::size_t>(n)));
  const std::unique_ptr<fftw_complex, FftwFree> spectrum_buffer(fftw_alloc_complex(nc));
  if (!real_buffer || !spectrum_buffer) throw std::bad_alloc();
  double* real = real_buffer.get();
  fftw_complex* spectrum = spectrum_buffer.get();
  const auto plans = plans_for(n, real, spectrum);
  const double log2n = std::log2(static_cast<double>(n));
  const double coefficient_error = kFftErrorConstant * kUnitRoundoff * (log2n + 3);
  // Each part's DFT (and log(|ẑ_k| + e), the base of a_k), once.
  std::vector<std::vector<std::complex<double>>> spectra(plds.size());
  std::vector<std::vector<double>> log_bounds(plds.size());
  for (std::size_t i = 0; i < plds.size(); ++i) {
    std::fill(real, real + n, 0.0);
    for (std::size_t j = 0; j < plds[i]->mass.size(); ++j) real[j % static_cast<std::size_t>(n)] += plds[i]->mass[j];
    fftw_execute_dft_r2c(plans->forward, real, spectrum);
    spectra[i].resize(nc);
    log_bounds[i].resize(nc);
    for (std::size_t k = 0; k < nc; ++k) {
      spectra[i][k] = {spectrum[k][0], spectrum[k][1]};
      log_bounds[i][k] = std::log(std::abs(spectra[i][k]) + coefficient_error);
    }
  }

  DiscretePld pld;
  std::vector<std::complex<double>> product(nc);
  std::vector<double> log_amplification(nc);  // log a_k, summed over the parts
  for (std::size_t c = 0; c < counts.size(); ++c) {
    std::fill(product.begin(), product.end(), 1.0);
    std::fill(log_amplification.begin(), log_amplification.end(), 0.0);
    for (std::size_t i = 0; i < plds.size(); ++i) {
      const long long times_i = counts[c][i];
      const double t = static_cast<double>(times_i);
      for (std::size_t k = 0; k < nc; ++k) {
        const double log_bound = log_bounds[i][k];
        log_amplification[k] += (t - 1) * log_bound;
        // z^T by repeated squaring; most |z|^T underflow.
        if (product[k] == 0.0 || t * log_bound < -700) {
          product[k] = 0;
          continue;
        }
        std::complex<double> power = 1, base = spectra[i][k];
        for (long long e = times_i; e > 0; e >>= 1, base = complex_product(base, base))
          if (e & 1) power = complex_product(power, base);
        product[k] = complex_product(product[k], power);
      }
    }
    double amplification = 0;             // S, both halves of the spectrum
    for (std::size_t k = 0; k < nc; ++k)  // e^x is exactly 0 below −746; libm's underflow path is slow
      if (2 * log_amplification[k] > -746) amplification += (k == 0 ? 1 : 2) * std::exp(2 * log_amplification[k]);
    for (std::size_t k = 0; k < nc; ++k) {
      spectrum[k][0] = product[k].real();
      spectrum[k][1] = product[k].imag();
    }
    fftw_execute_dft_c2r(plans->backward, spectrum, real);  // unnormalized: divide by n

    const Window& win = windows[c];
    pld.h = h;
    pld.offset = win.shift + win.lo;
    pld.mass.resize(static_cast<std::size_t>(win.width));
    // Point i is real[(win.lo + i) mod n] (width <= n): two contiguous runs, no division per point.
    const long long start = win.lo % n, first_run = std::min(win.width, n - start);
    const auto copy_run = [&](long long from, long long to, const double* source) {
      for (long long i = from; i < to; ++i)
        pld.mass[static_cast<std::size_t>(i)] = std::max(source[i - from] / static_cast<double>(n), 0.0);
    };
    copy_run(0, first_run, real + start);
    copy_run(first_run, win.width, real);
    pld.infinity_mass = -std::expm1(win.log_keep_finite);
    pld.delta_error = tail_mass + static_cast<double>(win.steps) * coefficient_error * std::sqrt(amplification) +
                      kFftErrorConstant * kUnitRoundoff * std::sqrt(static_cast<double>(n)) * log2n * norm2;
    use(c, pld);
  }
}

DiscretePld compose(const std::vector<PldPower>& parts, double tail_mass) {
  if (parts.empty()) throw InputError("PLD composition: nothing to compose");
  std::vector<const DiscretePld*> plds;
  std::vector<long long> counts;
  for (const PldPower& part : parts) {
    plds.push_back(part.pld);
    counts.push_back(part.times);
  }
  DiscretePld out;
  compose_each(plds, {counts}, tail_mass, [&](std::size_t, DiscretePld& pld) { out = std::move(pld); });
  return out;
}

}  // namespace dpareto::privacy::detail
