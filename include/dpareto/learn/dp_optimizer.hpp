#pragma once
// DP-SGD and DP-Adam (DPareto Alg. 3 and 4) and the Poisson-sampled DP-SGD of Abadi et al. 2016.
//
// Fixed-size lots (DPareto): every step draws a lot S of exactly m examples without replacement,
// independently of the other steps, and uses
//     g = (1/m) Σ_{i∈S} clip_L(∇ℓ_i) + (2L/m)·N(0, σ²I)
// (replace-one neighbours: sensitivity 2L/m). Poisson lots (Abadi et al.): each example joins a
// lot with probability q = m/n and g = (Σ_{i∈S} clip_L(∇ℓ_i) + σL·N(0, I)) / m (add/remove
// neighbours: sensitivity L). Both run T = epochs · round(n/m) steps. The sampler fixes the
// accountant (privacy::Sampling is the one switch for both), so they cannot be mixed.
// σ = 0 with clip = +inf is the non-private baseline (plain mini-batch SGD / Adam, ε = +inf).
//
// Noise generators. By default the noise comes from the fast, seeded xoshiro128++ sampler
// (gaussian_noise.hpp): right for the utility oracles, wrong for a model that is released, since
// that generator is predictable. With `noise_key` set, every noise draw comes instead from the
// ChaCha20 keystream under that key (secure_gaussian_noise.hpp), stream (step, parameter block),
// so it does not depend on the thread count, and so do the lots (the keystream with nonce 0): the
// amplification by subsampling needs them as secret as the noise. Only the initialization (data-
// independent) still uses the seed.
#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>

#include "dpareto/learn/dataset.hpp"
#include "dpareto/learn/network.hpp"
#include "dpareto/privacy/accountant.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"

namespace dpareto::learn {

enum class Optimizer { sgd, adam };

struct TrainConfig {
  Optimizer optimizer = Optimizer::sgd;
  privacy::Sampling sampling = privacy::Sampling::fixed_size;
  int epochs = 1;
  int lot_size = 256;  // m (the expected lot size under Poisson sampling)
  double learning_rate = 0.01;
  double noise_multiplier = 0;                                 // σ
  double clip_norm = std::numeric_limits<double>::infinity();  // L; +inf only with σ = 0
  int threads = 1;                                             // the lot's rows are split over this many threads
  // ChaCha20 key of the noise (= privacy::ChaChaRandomSource::Key); empty: the fast seeded sampler.
  std::optional<std::array<std::uint32_t, 8>> noise_key;
};

struct TrainResult {
  Eigen::VectorXf params;
  long long steps = 0;    // taken
  int epochs = 0;         // trained: config.epochs unless the EpochObserver stopped the training
  bool diverged = false;  // some final parameter is not finite (no noise-free quantity of the
                          // training data stops a training early)
};

// round(n/m) steps per epoch (at least 1), times epochs. Throws InputError for a bad config.
long long training_steps(const TrainConfig& config, int n);

// (ε, δ) of a configuration on n examples by `accountant` (RDP, or PLD for Poisson lots) with
// q = m/n; +inf when σ = 0.
privacy::EpsilonResult training_epsilon(const TrainConfig& config, int n, double delta,
                                        privacy::AccountantKind accountant = privacy::AccountantKind::rdp);
// training_epsilon of the same run stopped after each epoch 1 .. config.epochs − 1, in order, by
// one shared accounting (privacy::dpsgd_epsilons: with PLD, bounds on the full run's grid).
std::vector<privacy::EpsilonResult> epoch_epsilons(const TrainConfig& config, int n, double delta,
                                                   privacy::AccountantKind accountant);

// Called with the parameters after each epoch e < config.epochs. No step depends on the epoch count,
// so they are exactly what a run of `e` epochs from the same seed returns (issue 18 item 2). Returns
// whether to go on: false ends the training there, with the result of a run of `e` epochs (an
// exploration's early stopping on held-out accuracy; a released model's training never stops early).
using EpochObserver = std::function<bool(int epoch, const Eigen::VectorXf& params)>;

// Runs the optimizer from net.initial_parameters; initialization comes from `seed`; lots and noise
// from `seed` too or, when config.noise_key is set, from the ChaCha20 keystream under it.
TrainResult train(const Network& net, const Dataset& data, const TrainConfig& config, std::uint64_t seed,
                  const EpochObserver& after_epoch = {});

}  // namespace dpareto::learn
