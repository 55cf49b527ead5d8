// bench_accounting: timings of the privacy accountant (docs/privacy.md quotes them).
// Prints figures, asserts nothing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "dpareto/privacy/analytic_gaussian.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"

using namespace dpareto::privacy;

namespace {
template <class F>
double median_ms(F&& f, int reps) {
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}
}  // namespace

int main() {
  const auto orders = default_orders();
  std::printf("default order grid: %zu orders\n", orders.size());
  struct Setting {
    Sampling sampling;
    double q, sigma;
  };
  for (const Setting& s : {Setting{Sampling::poisson, 0.01, 1.1}, Setting{Sampling::poisson, 256.0 / 60000, 1.1},
                           Setting{Sampling::poisson, 0.1, 0.8}, Setting{Sampling::poisson, 1e-4, 50},
                           Setting{Sampling::fixed_size, 0.01, 1.1}}) {
    double eps = 0;
    const double ms =
        median_ms([&] { eps = dpsgd_epsilon(s.sampling, s.q, s.sigma, 100000, 1e-5, orders).epsilon; }, 101);
    std::printf("epsilon, 1e5 steps, %s q=%g sigma=%g, default grid: %.3f ms (eps = %.6g)\n", to_string(s.sampling),
                s.q, s.sigma, ms, eps);
  }
  for (Sampling sampling : {Sampling::poisson, Sampling::fixed_size}) {
    double sigma = 0;
    const double ms = median_ms([&] { sigma = calibrate_sigma(sampling, 0.01, 10000, 1.0, 1e-5, orders); }, 11);
    std::printf("sigma calibration, %s q=0.01 T=1e4 target (1, 1e-5): %.2f ms (sigma = %.10g)\n", to_string(sampling),
                ms, sigma);
  }
  long long steps = 0;
  const double ms_steps = median_ms([&] { steps = max_steps(Sampling::poisson, 0.01, 1.1, 3.0, 1e-5, orders); }, 11);
  std::printf("max steps, poisson q=0.01 sigma=1.1 target (3, 1e-5): %.2f ms (T = %lld)\n", ms_steps, steps);
  double sigma = 0;
  const double ms_gauss = median_ms([&] { sigma = analytic_gaussian_sigma(1.0, 1e-5, 1.0); }, 101);
  std::printf("analytic Gaussian sigma (1, 1e-5): %.4f ms (sigma = %.12g)\n", ms_gauss, sigma);
}
