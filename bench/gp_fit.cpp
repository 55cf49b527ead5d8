// GP timings (DESIGN §3.1): one hyperparameter fit with 5 starts (warm + 4 random) at n = 272,
// d = 5, its refit from the warm start, one likelihood+gradient evaluation, and predict_batch of
// 2000 points.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <random>

#include "dpareto/core/random.hpp"
#include "dpareto/gp/gaussian_process.hpp"
#include "load_average.hpp"

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main() {
  dpareto::bench::print_load();
  const int n = 272, d = 5, m = 2000, repeats = 5;
  dpareto::Rng rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> noise(0, 0.05);
  Eigen::MatrixXd X(n, d);
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) {
    double v = 0;
    for (int j = 0; j < d; ++j) {
      X(i, j) = u(rng);
      v += std::sin(2.0 * (j + 1) * X(i, j)) / (j + 1);
    }
    y(i) = v + noise(rng);
  }
  Eigen::MatrixXd Q(m, d);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < d; ++j) Q(i, j) = u(rng);

  for (bool learn_noise : {true, false}) {
    dpareto::gp::GpOptions options;
    options.learn_noise = learn_noise;
    options.random_restarts = 4;
    double cold = 0, warm = 0, cpu = 0;
    double lml = 0;
    for (int r = 0; r < repeats; ++r) {
      dpareto::gp::GaussianProcess gp(options);
      const std::clock_t c0 = std::clock();
      auto t0 = std::chrono::steady_clock::now();
      gp.fit(X, y, rng);
      cold += since(t0);
      t0 = std::chrono::steady_clock::now();
      gp.fit(X, y, rng);
      warm += since(t0);
      cpu += dpareto::bench::cpu_since(c0);
      lml = gp.log_marginal_likelihood(gp.theta(), nullptr);
    }
    std::printf(
        "fit n=%d d=%d, 5 starts, learn_noise=%d: first fit %.3f s, refit (warm) %.3f s wall; "
        "%.3f s CPU per fit (mean of %d); lml %.3f\n",
        n, d, learn_noise, cold / repeats, warm / repeats, cpu / (2 * repeats), repeats, lml);
  }

  dpareto::gp::GaussianProcess gp;
  gp.fit(X, y, rng);
  Eigen::VectorXd grad;
  auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  const int evals = 100;
  for (int i = 0; i < evals; ++i) gp.log_marginal_likelihood(gp.theta(), &grad);
  std::printf("log_marginal_likelihood + gradient, n=%d d=%d: %.3f ms (CPU %.3f ms)\n", n, d, 1e3 * since(t0) / evals,
              1e3 * dpareto::bench::cpu_since(c0) / evals);

  Eigen::VectorXd mean, variance;
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 10; ++i) gp.predict_batch(Q, mean, variance);
  std::printf("predict_batch of %d points, n=%d: %.3f ms\n", m, n, 1e3 * since(t0) / 10);
  t0 = std::chrono::steady_clock::now();
  double sink = 0;
  for (int i = 0; i < m; ++i) sink += gp.predict(Q.row(i).transpose()).mean;
  std::printf("predict one at a time, %d points: %.3f ms (checksum %.6f vs %.6f)\n", m, 1e3 * since(t0), sink,
              mean.sum());
  return 0;
}
