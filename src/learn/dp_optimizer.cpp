// GCC 12 reports false -W(maybe-)uninitialized inside its own AVX-512 intrinsics when Eigen's
// float kernels are inlined (GCC PR 105593); the pragmas must precede the first include.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "dpareto/learn/dp_optimizer.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/core/stop_request.hpp"
#include "dpareto/learn/dense_products.hpp"
#include "dpareto/learn/gaussian_noise.hpp"
#include "dpareto/learn/secure_gaussian_noise.hpp"
#include "dpareto/privacy/secure_noise.hpp"

namespace dpareto::learn {
namespace {

// Parameters per noise/update block: the threads share a step's blocks, so blocks must be small
// against P / threads for balance (MLP2's 109 386 parameters in 7 blocks of 16384 gave two threads
// 4 and 3 blocks: the noise phase took 1.2x its balanced time; in 27 blocks of 4096, 1.04x).
constexpr std::size_t noise_block = 1 << 12;
constexpr double adam_beta1 = 0.9, adam_beta2 = 0.999, adam_kappa = 1e-8;  // DPareto Alg. 4

void validate(const TrainConfig& c, int n) {
  auto bad = [](const std::string& what) { throw InputError("training: " + what); };
  if (n < 1) bad("empty training set");
  if (c.epochs < 1) bad("epochs=" + std::to_string(c.epochs) + ": expected >= 1");
  if (c.lot_size < 1 || c.lot_size > n)
    bad("lot_size=" + std::to_string(c.lot_size) + ": expected in [1, " + std::to_string(n) + "]");
  if (!(c.learning_rate > 0) || !std::isfinite(c.learning_rate)) bad("learning_rate must be positive");
  if (!(c.noise_multiplier >= 0) || !std::isfinite(c.noise_multiplier)) bad("noise_multiplier must be >= 0");
  if (!(c.clip_norm > 0)) bad("clip_norm must be positive");
  if (c.noise_multiplier > 0 && !std::isfinite(c.clip_norm)) bad("noise without clipping has no privacy");
  if (c.threads < 1) bad("threads must be >= 1");
}

// Poisson lot: indices i with independent Bernoulli(q) inclusion, by geometric skips.
template <class Urbg>
void poisson_lot(int n, double q, Urbg& rng, std::vector<int>& lot) {
  lot.clear();
  if (q >= 1) {
    lot.resize(static_cast<std::size_t>(n));
    std::iota(lot.begin(), lot.end(), 0);
    return;
  }
  std::geometric_distribution<long long> skip(q);
  for (long long i = skip(rng); i < n; i += 1 + skip(rng)) lot.push_back(static_cast<int>(i));
}

// A uniform m-subset, independent of earlier lots: partial Fisher–Yates on the permutation.
template <class Urbg>
void fixed_size_lot(int m, Urbg& rng, std::vector<int>& perm, std::vector<int>& lot) {
  const int n = static_cast<int>(perm.size());
  for (int i = 0; i < m; ++i)
    std::swap(perm[static_cast<std::size_t>(i)], perm[std::uniform_int_distribution<int>(i, n - 1)(rng)]);
  lot.assign(perm.begin(), perm.begin() + m);
}

// The lots of a released model must stay as secret as its noise (the amplification by subsampling
// assumes nobody can predict them): with a noise key they are drawn from the ChaCha20 keystream
// under that key (nonce 0, disjoint from the noise streams, whose nonces have the top bit set).
class KeyedLotSource {
 public:
  using result_type = std::uint64_t;
  explicit KeyedLotSource(const NoiseKey& key) : source_(key, false) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() { return source_.next_u64(); }

 private:
  privacy::ChaChaRandomSource source_;
};

// For its lifetime, OpenMP regions opened by this thread without a thread count (Eigen's and
// OpenBLAS's products) stay on it: results are then reproducible for a fixed seed and thread count.
class SingleThreadedProducts {
 public:
  SingleThreadedProducts() { omp_set_num_threads(1); }
  ~SingleThreadedProducts() { omp_set_num_threads(saved_); }
  SingleThreadedProducts(const SingleThreadedProducts&) = delete;
  SingleThreadedProducts& operator=(const SingleThreadedProducts&) = delete;

 private:
  int saved_ = omp_get_max_threads();
};

}  // namespace

long long training_steps(const TrainConfig& config, int n) {
  validate(config, n);
  return privacy::dpsgd_steps(n, config.lot_size, config.epochs);
}

privacy::EpsilonResult training_epsilon(const TrainConfig& config, int n, double delta,
                                        privacy::AccountantKind accountant) {
  const long long steps = training_steps(config, n);
  if (config.noise_multiplier == 0)
    return {std::numeric_limits<double>::infinity(), delta, 0, privacy::Conversion::improved};
  const double q = static_cast<double>(config.lot_size) / n;
  return privacy::dpsgd_epsilon(accountant, config.sampling, q, config.noise_multiplier, steps, delta);
}

std::vector<privacy::EpsilonResult> epoch_epsilons(const TrainConfig& config, int n, double delta,
                                                   privacy::AccountantKind accountant) {
  validate(config, n);
  std::vector<long long> steps;
  for (int e = 1; e < config.epochs; ++e) steps.push_back(privacy::dpsgd_steps(n, config.lot_size, e));
  if (config.noise_multiplier == 0)
    return std::vector<privacy::EpsilonResult>(
        steps.size(), {std::numeric_limits<double>::infinity(), delta, 0, privacy::Conversion::improved});
  const double q = static_cast<double>(config.lot_size) / n;
  return privacy::dpsgd_epsilons(accountant, config.sampling, q, config.noise_multiplier, steps, delta);
}

TrainResult train(const Network& net, const Dataset& data, const TrainConfig& config, std::uint64_t seed,
                  const EpochObserver& after_epoch) {
  const int n = data.size();
  net.check_inputs(data);
  TrainResult result;
  result.steps = training_steps(config, n);
  Rng rng(seed);
  result.params = net.initial_parameters(rng);
  Eigen::VectorXf& w = result.params;
  const std::size_t P = net.num_parameters();
  const long long steps_per_epoch = result.steps / config.epochs;
  const int m = config.lot_size;
  const bool fixed = config.sampling != privacy::Sampling::poisson;
  const bool adam = config.optimizer == Optimizer::adam;
  const auto clip = static_cast<float>(config.clip_norm);
  const bool clipping = std::isfinite(clip);
  // Noise std on the lot's gradient sum: 2Lσ (fixed size, replace-one) or Lσ (Poisson).
  const float noise_std = config.noise_multiplier > 0
                              ? static_cast<float>((fixed ? 2.0 : 1.0) * config.clip_norm * config.noise_multiplier)
                              : 0.0f;
  const double secure_noise_std = (fixed ? 2.0 : 1.0) * config.clip_norm * config.noise_multiplier;
  const float inv_m = 1.0f / static_cast<float>(m);
  const auto lr = static_cast<float>(config.learning_rate);
  // Threads pay off once a step has real work (rows × parameters).
  const int threads =
      static_cast<double>(m) * static_cast<double>(P) >= 2e6 ? std::min(config.threads, std::max(1, m / 64)) : 1;

  Eigen::VectorXf mu, nu;
  if (adam) {
    mu.setZero(static_cast<Eigen::Index>(P));
    nu.setZero(static_cast<Eigen::Index>(P));
  }
  std::vector<Eigen::VectorXf> grads(static_cast<std::size_t>(threads), Eigen::VectorXf(static_cast<Eigen::Index>(P)));
  std::vector<Workspace> workspaces(static_cast<std::size_t>(threads));
  std::vector<MatrixF> lots(static_cast<std::size_t>(threads));
  std::vector<SparseRowsF> sparse_lots(static_cast<std::size_t>(threads));
  const bool compressed_lots = takes_compressed_rows(data, net.first_layer_outputs());
  std::vector<Eigen::VectorXd> lot_norms(static_cast<std::size_t>(threads));
  std::vector<int> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<int> lot, labels;
  const std::size_t blocks = (P + noise_block - 1) / noise_block;

  std::optional<KeyedLotSource> keyed_lots;
  if (config.noise_key) keyed_lots.emplace(*config.noise_key);
  const auto draw_lot = [&](auto& generator) {
    if (fixed)
      fixed_size_lot(m, generator, perm, lot);
    else
      poisson_lot(n, static_cast<double>(m) / n, generator, lot);
  };

  // The gradient of rows [t/nt, (t+1)/nt) of the lot, clipped per row and summed, into grads[t].
  const auto slice_gradient = [&](int t, int nt) {
    const std::size_t rows = lot.size();
    const std::size_t begin = rows * t / nt, end = rows * (t + 1) / nt;
    Eigen::VectorXf& g = grads[static_cast<std::size_t>(t)];
    if (end == begin) {
      g.setZero();
      return;
    }
    const auto k = static_cast<std::size_t>(t);
    const auto rows_of_slice = std::span(lot).subspan(begin, end - begin);
    const auto labels_of_slice = std::span(labels).subspan(begin, end - begin);
    Eigen::VectorXd* norms = clipping ? &lot_norms[k] : nullptr;
    const auto slice_sum = [&](auto& slice) {
      data.gather(rows_of_slice, slice, norms);
      net.clipped_gradient_sum(w, slice, labels_of_slice, clip, workspaces[k], g.data(), norms);
    };
    if (compressed_lots)
      slice_sum(sparse_lots[k]);
    else
      slice_sum(lots[k]);
  };
  // Parameter block b: the slices' sums, the noise, and the optimizer's update.
  const auto noisy_update = [&](std::size_t b, int nt, long long step, std::uint64_t noise_seed, float mu_scale,
                                float nu_scale) {
    const std::size_t lo = b * noise_block, len = std::min(noise_block, P - lo);
    auto sum = grads[0].segment(static_cast<Eigen::Index>(lo), static_cast<Eigen::Index>(len));
    for (int k = 1; k < nt; ++k)
      sum += grads[static_cast<std::size_t>(k)].segment(static_cast<Eigen::Index>(lo), static_cast<Eigen::Index>(len));
    if (noise_std > 0) {
      if (config.noise_key)  // stream (step, block): independent of threads and block order
        add_gaussian_secure(sum.data(), len, secure_noise_std, *config.noise_key, static_cast<std::uint64_t>(step),
                            static_cast<std::uint32_t>(b));
      else
        add_gaussian(sum.data(), len, noise_std, derive_seed(noise_seed, b));
    }
    auto ws = w.segment(static_cast<Eigen::Index>(lo), static_cast<Eigen::Index>(len));
    if (adam) {
      auto mb = mu.segment(static_cast<Eigen::Index>(lo), static_cast<Eigen::Index>(len)).array();
      auto vb = nu.segment(static_cast<Eigen::Index>(lo), static_cast<Eigen::Index>(len)).array();
      const auto gb = sum.array() * inv_m;
      mb = static_cast<float>(adam_beta1) * mb + static_cast<float>(1 - adam_beta1) * gb;
      vb = static_cast<float>(adam_beta2) * vb + static_cast<float>(1 - adam_beta2) * gb.square();
      ws.array() -= lr * (mb * mu_scale) / ((vb * nu_scale).sqrt() + static_cast<float>(adam_kappa));
    } else {
      ws.array() -= (lr * inv_m) * sum.array();
    }
  };
  const SingleThreadedProducts single_threaded_products;

  for (long long step = 0; step < result.steps; ++step) {
    throw_if_stop_requested();  // a user's Ctrl-C / SIGTERM, outside every parallel region
    if (keyed_lots)
      draw_lot(*keyed_lots);
    else
      draw_lot(rng);
    labels.resize(lot.size());
    for (std::size_t i = 0; i < lot.size(); ++i) labels[i] = data.labels()[static_cast<std::size_t>(lot[i])];
    const std::uint64_t noise_seed = keyed_lots ? 0 : rng();  // the fast sampler's seed of this step
    // Adam's bias corrections 1/(1 − β^t) (DPareto Alg. 4).
    const auto adam_t = static_cast<double>(step + 1);
    const auto mu_scale = adam ? static_cast<float>(1.0 / (1.0 - std::pow(adam_beta1, adam_t))) : 1.0f;
    const auto nu_scale = adam ? static_cast<float>(1.0 / (1.0 - std::pow(adam_beta2, adam_t))) : 1.0f;

    if (threads > 1) {
#pragma omp parallel num_threads(threads)
      {
        omp_set_num_threads(1);  // Eigen's GEMMs stay on this thread
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        slice_gradient(t, nt);
#pragma omp barrier
#pragma omp for schedule(static)
        for (std::size_t b = 0; b < blocks; ++b) noisy_update(b, nt, step, noise_seed, mu_scale, nu_scale);
      }
    } else {  // no parallel region: entering even a team of one costs futex calls at every step
      slice_gradient(0, 1);
      for (std::size_t b = 0; b < blocks; ++b) noisy_update(b, 1, step, noise_seed, mu_scale, nu_scale);
    }
    if (after_epoch && (step + 1) % steps_per_epoch == 0 && step + 1 < result.steps &&
        !after_epoch(static_cast<int>((step + 1) / steps_per_epoch), w)) {
      result.steps = step + 1;
      break;
    }
  }
  result.epochs = static_cast<int>(result.steps / steps_per_epoch);
  // A property of the output alone. No step stops early on a noise-free quantity of the private
  // data (such as a non-finite loss): that branch would itself be an unaccounted release.
  result.diverged = !w.allFinite();
  return result;
}

}  // namespace dpareto::learn
