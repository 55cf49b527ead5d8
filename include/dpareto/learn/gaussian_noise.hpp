#pragma once
// Fast Gaussian noise for the private optimizers: one draw per parameter per step (~800k for
// MLP1), so std::normal_distribution would dominate an epoch. xoshiro256++ uniforms and a
// vectorized Box–Muller transform in float32. A block's output depends only on its seed, so the
// noise of a step is the same whatever the thread count. Uniforms have 32-bit resolution, so
// |z| is bounded by sqrt(2·ln 2^33) ≈ 6.8: the tail beyond 6.8σ (mass 1e-11) is cut. That is
// adequate for the utility oracles, but xoshiro256++ is predictable: a released model draws its
// noise from the ChaCha20 keystream instead (TrainConfig::noise_key, secure_gaussian_noise.hpp).
#include <cstddef>
#include <cstdint>

namespace dpareto::learn {

// x[i] += stddev · N(0, 1) for i < n, the draws deterministic in `seed`.
void add_gaussian(float* x, std::size_t n, float stddev, std::uint64_t seed);

}  // namespace dpareto::learn
