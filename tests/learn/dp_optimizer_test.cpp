// GCC 12 false positives inside AVX-512 intrinsics inlined from Eigen (GCC PR 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "dpareto/core/error.hpp"
#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/learn/gaussian_noise.hpp"
#include "dpareto/learn/synthetic.hpp"

using namespace dpareto::learn;
using dpareto::privacy::Sampling;

namespace {

Split small_synthetic(int n, int d) {
  SyntheticSpec s;
  s.train_size = n;
  s.test_size = 2000;
  s.dimension = d;
  return make_gaussian_mixture(s, 11);
}

}  // namespace

TEST_CASE("log_unit_interval: ln u within one float ulp on (0, 1)") {
  // Every u the sampler can form, (k + ½)·2^-31, sampled across the whole range, and the ends and
  // the seam at √½ where the exponent steps.
  double worst = 0;
  for (std::uint64_t k = 0; k < (std::uint64_t{1} << 31); k += 2039) {
    const float u = (static_cast<float>(static_cast<std::int32_t>(k)) + 0.5f) * 0x1p-31f;
    const double exact = std::log(static_cast<double>(u));
    worst = std::max(worst, std::abs(detail::log_unit_interval(u) - exact) / std::abs(exact));
  }
  for (float u : {0x1p-33f, 0x1p-32f, 0.5f, 0.70710677f, 0.70710683f, 0.99999994f}) {
    CAPTURE(u);
    const double exact = std::log(static_cast<double>(u));
    worst = std::max(worst, std::abs(detail::log_unit_interval(u) - exact) / std::abs(exact));
  }
  CHECK(worst < 1.2e-7);  // one ulp of float; the fitted polynomial alone is within 3e-9
}

TEST_CASE("add_gaussian: standard normal moments and tails") {
  std::vector<float> z(1 << 20, 0.0f);
  add_gaussian(z.data(), z.size(), 1.0f, 42);
  double sum = 0, sq = 0, four = 0;
  int beyond2 = 0;
  for (float v : z) {
    sum += v;
    sq += double(v) * v;
    four += double(v) * v * v * v;
    beyond2 += std::abs(v) > 2;
  }
  const double n = static_cast<double>(z.size());
  CHECK(std::abs(sum / n) < 5 / std::sqrt(n));
  CHECK(std::abs(sq / n - 1) < 5 * std::sqrt(2 / n));
  CHECK(std::abs(four / n - 3) < 5 * std::sqrt(96 / n));
  CHECK(std::abs(beyond2 / n - 0.0455) < 5 * std::sqrt(0.0455 / n));
  // The whole distribution, not only four moments: Kolmogorov–Smirnov against Φ, sup |F_n − Φ| <
  // 1.95/√n (0.0019), which fails a correct sampler with probability 0.001.
  std::vector<float> sorted = z;
  std::sort(sorted.begin(), sorted.end());
  double ks = 0;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const double phi = 0.5 * std::erfc(-sorted[i] / std::sqrt(2.0));
    ks = std::max({ks, std::abs(phi - static_cast<double>(i) / n), std::abs(static_cast<double>(i + 1) / n - phi)});
  }
  CHECK(ks < 1.95 / std::sqrt(n));
  // Draws i and i + 128 of a block of 256 are one Box–Muller pair: its angle is uniform on the
  // circle (16 sectors, chi-square with 15 degrees of freedom below 37.7, p = 0.001), which a
  // wrong quarter-turn rotation would break though each draw alone stayed normal.
  std::array<double, 16> sectors{};
  for (std::size_t block = 0; block < z.size(); block += 256)
    for (std::size_t i = 0; i < 128; ++i) {
      const double angle = std::atan2(z[block + 128 + i], z[block + i]) + std::numbers::pi;
      sectors[std::min<std::size_t>(15, static_cast<std::size_t>(angle / (2 * std::numbers::pi) * 16))] += 1;
    }
  const double per_sector = n / 2 / 16;
  double chi_square = 0;
  for (double count : sectors) chi_square += (count - per_sector) * (count - per_sector) / per_sector;
  CHECK(chi_square < 37.7);
  // Independent draws: the pair's two coordinates (z_i, z_{i+128}: radius and angle mixed) and
  // neighbours (z_i, z_{i+1}: two generator lanes; z_i, z_{i+8}: one lane's consecutive words)
  // uncorrelated, |r| < 5/√m over their m products; and the radius bounded by the uniforms'
  // resolution, sqrt(2·ln 2^32) ≈ 6.66, while draws beyond 5 (probability 5.7e-7 each) occur.
  for (std::size_t lag : {std::size_t{128}, std::size_t{1}, std::size_t{8}}) {
    CAPTURE(lag);
    double products = 0, m = 0;
    for (std::size_t block = 0; block < z.size(); block += 256)
      for (std::size_t i = block; i + lag < block + 256; ++i) products += double(z[i]) * z[i + lag], m += 1;
    CHECK(std::abs(products / m) < 5 / std::sqrt(m));
  }
  std::vector<float> many(1 << 24, 0.0f);
  add_gaussian(many.data(), many.size(), 1.0f, 7);
  float largest = 0;
  for (float v : many) largest = std::max(largest, std::abs(v));
  CHECK(largest <= 6.661f);
  CHECK(largest > 5.0f);
  // Determined by the seed, and a shorter call adds a prefix of a longer one's draws, by the same
  // operations: a block of 256 cut short (a linear model's 124 parameters) computes only the pairs
  // it needs. On x = 0 and on arbitrary values, where a different rounding would show.
  std::vector<float> offsets(1000);
  for (std::size_t i = 0; i < offsets.size(); ++i) offsets[i] = 0.37f * static_cast<float>(i % 17) - 2.5f;
  std::vector<float> offset_draws = offsets;
  add_gaussian(offset_draws.data(), offset_draws.size(), 0.3f, 42);
  for (std::size_t len : {1, 7, 62, 124, 127, 128, 129, 200, 255, 256, 257, 300, 1000}) {
    CAPTURE(len);
    std::vector<float> again(len, 0.0f);
    add_gaussian(again.data(), again.size(), 1.0f, 42);
    CHECK(std::equal(again.begin(), again.end(), z.begin()));
    std::vector<float> shifted(offsets.begin(), offsets.begin() + static_cast<std::ptrdiff_t>(len));
    add_gaussian(shifted.data(), shifted.size(), 0.3f, 42);
    CHECK(std::equal(shifted.begin(), shifted.end(), offset_draws.begin()));
  }
}

TEST_CASE("DP-SGD with sigma = 0 and a huge clip norm is plain SGD") {
  const Split data = small_synthetic(500, 8);
  const Network net(logistic_regression(8));
  TrainConfig plain;
  plain.epochs = 3;
  plain.lot_size = 50;
  plain.learning_rate = 0.1;
  TrainConfig dp = plain;
  dp.clip_norm = 1e30;
  for (auto opt : {Optimizer::sgd, Optimizer::adam}) {
    plain.optimizer = dp.optimizer = opt;
    CHECK(train(net, data.train, plain, 7).params == train(net, data.train, dp, 7).params);
  }
  // Full-batch lots make the steps deterministic: compare with gradient descent written out.
  plain.lot_size = 500;
  plain.optimizer = Optimizer::sgd;
  const Eigen::VectorXf w = train(net, data.train, plain, 7).params;
  MatrixF x;
  data.train.gather_range(0, 500, x);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(9);
  for (int step = 0; step < 3; ++step) {
    Eigen::VectorXd g = Eigen::VectorXd::Zero(9);
    for (int i = 0; i < 500; ++i) {
      const double s = data.train.labels()[static_cast<std::size_t>(i)] ? 1 : -1;
      const Eigen::VectorXd xi = x.row(i).cast<double>().transpose();
      const double z = xi.dot(v.head(8)) + v[8];
      const double coef = -s / (1 + std::exp(s * z));
      g.head(8) += coef * xi;
      g[8] += coef;
    }
    v -= 0.1 * g / 500;
  }
  CHECK((w.cast<double>() - v).norm() < 1e-4 * v.norm());
}

TEST_CASE("the noise of one step has the documented standard deviation") {
  // Same seed with and without noise: same lots, so the difference of the parameters after one
  // step is exactly lr · noise / m, with noise ~ N(0, (2Lσ)²) (fixed size) or N(0, (Lσ)²) (Poisson).
  const Split data = small_synthetic(200, 3999);
  const Network net(logistic_regression(3999));
  for (auto sampling : {Sampling::fixed_size, Sampling::poisson}) {
    TrainConfig c;
    c.sampling = sampling;
    c.epochs = 1;
    c.lot_size = 200;  // one step per epoch
    c.learning_rate = 0.5;
    c.clip_norm = 0.7;
    c.noise_multiplier = 0;
    const Eigen::VectorXf clean = train(net, data.train, c, 3).params;
    c.noise_multiplier = 3.0;
    const Eigen::VectorXf noisy = train(net, data.train, c, 3).params;
    const Eigen::ArrayXd diff = (noisy - clean).cast<double>().array() / (-c.learning_rate / c.lot_size);
    const double n = static_cast<double>(diff.size());
    const double mean = diff.mean();
    const double sd = std::sqrt((diff - mean).square().sum() / (n - 1));
    const double expected = (sampling == Sampling::fixed_size ? 2.0 : 1.0) * c.clip_norm * c.noise_multiplier;
    CAPTURE(dpareto::privacy::to_string(sampling));
    // Sample std of n normals: relative standard error 1/sqrt(2(n-1)); allow 5 of them.
    CHECK(std::abs(sd / expected - 1) < 5 / std::sqrt(2 * (n - 1)));
    CHECK(std::abs(mean) < 5 * expected / std::sqrt(n));
  }
}

TEST_CASE("training steps, epsilon and config validation") {
  TrainConfig c;
  c.epochs = 3;
  c.lot_size = 64;
  CHECK(training_steps(c, 1000) == 3 * 16);                    // round(1000/64) = 16
  CHECK(std::isinf(training_epsilon(c, 1000, 1e-5).epsilon));  // σ = 0
  c.noise_multiplier = 1;
  CHECK_THROWS_AS(training_steps(c, 1000), dpareto::InputError);  // noise without clipping
  c.clip_norm = 1;
  c.lot_size = 2000;
  CHECK_THROWS_AS(training_steps(c, 1000), dpareto::InputError);
}

TEST_CASE("accuracy smoke test on synthetic data; divergence is reported") {
  const Split data = small_synthetic(4000, 20);
  for (const auto& arch : {logistic_regression(20), linear_svm(20)}) {
    const Network net(arch);
    TrainConfig c;
    c.epochs = 3;
    c.lot_size = 64;
    c.learning_rate = 0.05;
    c.threads = 2;
    CHECK(accuracy(net, train(net, data.train, c, 1).params, data.test, 2) > 0.9);  // Bayes: 0.933
    c.noise_multiplier = 1;
    c.clip_norm = 1;
    for (auto opt : {Optimizer::sgd, Optimizer::adam}) {
      c.optimizer = opt;
      c.learning_rate = opt == Optimizer::adam ? 0.01 : 0.05;
      CHECK(accuracy(net, train(net, data.train, c, 2).params, data.test, 2) > 0.88);
    }
    c.sampling = Sampling::poisson;
    c.optimizer = Optimizer::sgd;
    CHECK(accuracy(net, train(net, data.train, c, 2).params, data.test, 2) > 0.88);
  }
  const Network mlp({"mlp", 20, {16}, 2, Loss::softmax_cross_entropy});
  TrainConfig c;
  c.epochs = 3;
  c.lot_size = 64;
  c.learning_rate = 0.1;
  c.threads = 2;
  CHECK(accuracy(mlp, train(mlp, data.train, c, 1).params, data.test, 2) > 0.9);
  c.learning_rate = 1e30;
  CHECK(train(mlp, data.train, c, 1).diverged);
}

TEST_CASE("one huge but finite feature does not decide whether training succeeds") {
  // Issue 20 item 2: a row "+1 3:1e30" overflowed the float32 squared norm, inf·0 gave NaN and the
  // run diverged (and stopped early on the non-finite loss) — so one record decided whether
  // anything was released. Now the run is finite and close to the run without that record.
  const Split data = small_synthetic(2000, 20);
  MatrixF x;
  data.train.gather_range(0, data.train.size(), x);
  x(7, 2) = 1e30f;
  const Dataset poisoned = Dataset::from_dense(x, data.train.labels(), 2);
  const Network net(logistic_regression(20));
  for (auto sampling : {Sampling::fixed_size, Sampling::poisson}) {
    TrainConfig c;
    c.sampling = sampling;
    c.epochs = 2;
    c.lot_size = 50;
    c.learning_rate = 0.1;
    c.noise_multiplier = 1;
    c.clip_norm = 1;
    const TrainResult r = train(net, poisoned, c, 5);
    CHECK_FALSE(r.diverged);
    CHECK(r.params.allFinite());
    CHECK(r.steps == training_steps(c, 2000));
    CHECK(accuracy(net, r.params, data.test, 1) > 0.85);
  }
}
