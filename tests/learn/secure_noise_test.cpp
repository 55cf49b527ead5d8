// The ChaCha20-backed Gaussian noise of released models (TrainConfig::noise_key): the documented
// stream layout, its distribution, and its use by DP-SGD / DP-Adam.
// GCC 12 false positives inside AVX-512 intrinsics inlined from Eigen (GCC PR 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/learn/secure_gaussian_noise.hpp"
#include "dpareto/learn/synthetic.hpp"
#include "dpareto/privacy/secure_noise.hpp"

using namespace dpareto::learn;
using dpareto::privacy::ChaChaRandomSource;

namespace {

NoiseKey test_key(std::uint32_t salt) {
  NoiseKey key{};
  for (std::uint32_t i = 0; i < 8; ++i) key[i] = 0x9E3779B9U * (i + 1) ^ salt;
  return key;
}

std::vector<float> draws(std::size_t n, double stddev, const NoiseKey& key, std::uint64_t step, std::uint32_t block) {
  std::vector<float> z(n, 0.0f);
  add_gaussian_secure(z.data(), n, stddev, key, step, block);
  return z;
}

// The header's definition written out plainly: RFC 8439 blocks via ChaChaRandomSource::block,
// little-endian 64-bit words, 53-bit uniforms, std::log / std::cos / std::sin.
std::vector<double> reference_draws(std::size_t n, const NoiseKey& key, std::uint64_t step, std::uint32_t block) {
  const std::array<std::uint32_t, 3> nonce{block, static_cast<std::uint32_t>(step),
                                           static_cast<std::uint32_t>(step >> 32) | 0x80000000U};
  std::vector<std::uint8_t> bytes;
  for (std::uint32_t counter = 0; bytes.size() < 8 * (n + 1); ++counter) {
    const auto b = ChaChaRandomSource::block(key, counter, nonce);
    bytes.insert(bytes.end(), b.begin(), b.end());
  }
  auto word = [&](std::size_t k) {
    std::uint64_t w = 0;
    for (int i = 7; i >= 0; --i) w = w << 8 | bytes[8 * k + static_cast<std::size_t>(i)];
    return w;
  };
  std::vector<double> z;
  for (std::size_t j = 0; z.size() < n; ++j) {
    const double u = (static_cast<double>(word(2 * j) >> 11) + 0.5) * 0x1p-53;
    const double theta = 2 * std::numbers::pi * static_cast<double>(word(2 * j + 1) >> 11) * 0x1p-53;
    const double r = std::sqrt(-2 * std::log(u));
    z.push_back(r * std::cos(theta));
    z.push_back(r * std::sin(theta));
  }
  z.resize(n);
  return z;
}

// Dense rows of zeros with labels alternating 0/1: every per-example hinge gradient is 0 on the
// weights and ±1 or 0 on the bias, with norm <= 1, so with clip 1 every gradient sum is exact in
// float whatever the summation order. Parameters can then differ only through the noise.
Dataset zero_features(int n, int d) {
  std::vector<int> labels(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) labels[static_cast<std::size_t>(i)] = i % 2;
  return Dataset::from_dense(MatrixF::Zero(n, d), std::move(labels), 2);
}

}  // namespace

TEST_CASE("secure noise: the draws are the documented function of the ChaCha20 keystream") {
  const NoiseKey key = test_key(1);
  for (const auto& [step, block] : {std::pair<std::uint64_t, std::uint32_t>{0, 0}, {7, 3}, {(1ULL << 40) + 5, 1}}) {
    const std::size_t n = 1000 + 3 * step % 7;  // not a multiple of the 512-draw chunk
    const std::vector<float> z = draws(n, 1.0, key, step, block);
    const std::vector<double> expected = reference_draws(n, key, step, block);
    int mismatches = 0;
    for (std::size_t i = 0; i < n; ++i)
      mismatches += std::abs(z[i] - expected[i]) > 2e-7 * std::abs(expected[i]) + 1e-12;
    CAPTURE(step);
    CHECK(mismatches == 0);
  }
  // Adding to x rounds x + stddev·z once.
  std::vector<float> x(600, 3.0f);
  add_gaussian_secure(x.data(), x.size(), 0.5, key, 7, 3);
  const std::vector<double> z = reference_draws(600, key, 7, 3);
  int mismatches = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mismatches += std::abs(x[i] - (3.0 + 0.5 * z[i])) > 1e-6;
  CHECK(mismatches == 0);
}

TEST_CASE("secure noise: determined by the key, a different stream for each key, step and block") {
  const NoiseKey key = test_key(2);
  const auto a = draws(4096, 1.0, key, 5, 2);
  CHECK(a == draws(4096, 1.0, key, 5, 2));
  const auto prefix = draws(100, 1.0, key, 5, 2);  // a shorter request reads the same stream
  CHECK(std::equal(prefix.begin(), prefix.end(), a.begin()));
  NoiseKey other = key;
  other[7] ^= 1;  // one key bit
  for (const auto& b : {draws(4096, 1.0, other, 5, 2), draws(4096, 1.0, key, 6, 2), draws(4096, 1.0, key, 5, 3),
                        draws(4096, 1.0, key, 5 + (1ULL << 32), 2)}) {
    int equal = 0;
    for (std::size_t i = 0; i < a.size(); ++i) equal += a[i] == b[i];
    CHECK(equal < 5);  // independent continuous draws essentially never coincide
  }
  std::vector<float> none(10, 1.0f);
  CHECK_THROWS_AS(add_gaussian_secure(none.data(), 10, 1.0, key, 1ULL << 63, 0), dpareto::NumericalError);
}

TEST_CASE("secure noise: N(0, stddev^2) by moments and a chi-square goodness-of-fit test") {
  constexpr std::size_t n = 1 << 21;
  constexpr double stddev = 2.5;
  // 512 blocks of 4096 draws, as training reads them.
  std::vector<float> x(n, 0.0f);
  for (std::uint32_t b = 0; b < n / 4096; ++b)
    add_gaussian_secure(x.data() + 4096 * b, 4096, stddev, test_key(3), 11, b);
  const double N = static_cast<double>(n);
  double sum = 0, sq = 0, cross = 0;
  int beyond4 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double z = x[i] / stddev;
    sum += z;
    sq += z * z;
    beyond4 += std::abs(z) > 4;
    if (i % 2 == 0) cross += z * (x[i + 1] / stddev);  // the two draws of one Box–Muller pair
  }
  const double mean = sum / N, var = sq / N - mean * mean;
  // Standard errors: mean σ/√N; variance σ²√(2/(N−1)) (normal kurtosis); pair correlation 1/√(N/2).
  // Five of them: a false alarm has probability < 1e-6 per check.
  CHECK(std::abs(mean) < 5 / std::sqrt(N));
  CHECK(std::abs(var - 1) < 5 * std::sqrt(2 / (N - 1)));
  CHECK(std::abs(cross / (N / 2)) < 5 / std::sqrt(N / 2));
  const double tail = 2 * boost::math::cdf(boost::math::normal(), -4.0) * N;  // ≈ 133
  CHECK(std::abs(beyond4 - tail) < 5 * std::sqrt(tail));

  // 200 equiprobable bins of N(0, σ²) (edges at the normal quantiles): X² = Σ (O − E)²/E has
  // 199 degrees of freedom; reject above its 1 − 1e-6 quantile.
  constexpr int bins = 200;
  const boost::math::normal normal(0, stddev);
  std::vector<double> edges;
  for (int k = 1; k < bins; ++k) edges.push_back(boost::math::quantile(normal, static_cast<double>(k) / bins));
  std::vector<double> observed(bins, 0);
  for (float v : x)
    observed[static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin())] += 1;
  const double expected = N / bins;
  double chi2 = 0;
  for (double o : observed) chi2 += (o - expected) * (o - expected) / expected;
  const double threshold = boost::math::quantile(boost::math::chi_squared(bins - 1), 1 - 1e-6);
  CAPTURE(chi2);
  CHECK(chi2 < threshold);
}

TEST_CASE("training with noise_key: reproducible, key-dependent, unlike the seeded noise") {
  SyntheticSpec spec;
  spec.train_size = 600;
  spec.test_size = 100;
  spec.dimension = 10;
  const Split data = make_gaussian_mixture(spec, 5);
  const Network net(logistic_regression(10));
  TrainConfig c;
  c.epochs = 2;
  c.lot_size = 60;
  c.learning_rate = 0.1;
  c.noise_multiplier = 1.5;
  c.clip_norm = 1;
  const Eigen::VectorXf fast = train(net, data.train, c, 9).params;
  c.noise_key = test_key(4);
  const Eigen::VectorXf secure = train(net, data.train, c, 9).params;
  CHECK(secure == train(net, data.train, c, 9).params);  // a fixed key and seed reproduce the run
  CHECK(secure != fast);                                 // the key replaces the seeded noise
  c.noise_key = test_key(5);
  CHECK(train(net, data.train, c, 9).params != secure);
  // The lots come from the key too (they must be as secret as the noise): without noise, a linear
  // model (initialized at 0) is a function of the key alone — the seed changes nothing, another key
  // changes the lots and so the weights. With the fast sampler the seed decides the lots.
  c.noise_multiplier = 0;
  c.noise_key = test_key(4);
  const Eigen::VectorXf keyed = train(net, data.train, c, 9).params;
  CHECK(train(net, data.train, c, 10).params == keyed);
  c.noise_key = test_key(5);
  CHECK(train(net, data.train, c, 9).params != keyed);
  c.noise_key.reset();
  CHECK(train(net, data.train, c, 9).params != train(net, data.train, c, 10).params);
}

TEST_CASE("training with noise_key: one step's noise has the documented standard deviation") {
  // As for the seeded noise (dp_optimizer_test.cpp): the same seed with and without noise gives
  // the same lot, so one step's parameter difference is lr · noise / m.
  SyntheticSpec spec;
  spec.train_size = 200;
  spec.test_size = 10;
  spec.dimension = 3999;
  const Split data = make_gaussian_mixture(spec, 11);
  const Network net(logistic_regression(3999));
  for (auto sampling : {dpareto::privacy::Sampling::fixed_size, dpareto::privacy::Sampling::poisson}) {
    TrainConfig c;
    c.sampling = sampling;
    c.lot_size = 200;
    c.learning_rate = 0.5;
    c.clip_norm = 0.7;
    c.noise_key = test_key(6);
    const Eigen::VectorXf clean = train(net, data.train, c, 3).params;
    c.noise_multiplier = 3.0;
    const Eigen::VectorXf noisy = train(net, data.train, c, 3).params;
    const Eigen::ArrayXd diff = (noisy - clean).cast<double>().array() / (-c.learning_rate / c.lot_size);
    const double n = static_cast<double>(diff.size());
    const double sd = std::sqrt((diff - diff.mean()).square().sum() / (n - 1));
    const double expected =
        (sampling == dpareto::privacy::Sampling::fixed_size ? 2.0 : 1.0) * c.clip_norm * c.noise_multiplier;
    CHECK(std::abs(sd / expected - 1) < 5 / std::sqrt(2 * (n - 1)));
    CHECK(std::abs(diff.mean()) < 5 * expected / std::sqrt(n));
  }
}

TEST_CASE("training with noise_key: the same parameters on 1 and 2 threads") {
  // 20001 parameters = two noise blocks; lot 128 × 20001 parameters is above the threshold at
  // which a step's rows are split over threads. Gradient sums are exact (zero_features), so any
  // difference would come from the noise.
  const Dataset data = zero_features(512, 20000);
  const Network net(linear_svm(20000));
  for (auto opt : {Optimizer::sgd, Optimizer::adam}) {
    TrainConfig c;
    c.optimizer = opt;
    c.epochs = 2;
    c.lot_size = 128;
    c.learning_rate = 0.05;
    c.noise_multiplier = 0.8;
    c.clip_norm = 1;
    c.noise_key = test_key(7);
    c.threads = 1;
    const Eigen::VectorXf one = train(net, data, c, 13).params;
    c.threads = 2;
    const Eigen::VectorXf two = train(net, data, c, 13).params;
    CHECK(one.allFinite());
    CHECK(one == two);
    CHECK(one.head(20000).cwiseAbs().maxCoeff() > 0);  // the weights moved only by noise
  }
}
