#pragma once
// Fast Gaussian noise for the private optimizers: one draw per parameter per step (~800k for
// MLP1), so std::normal_distribution would dominate an epoch. xoshiro256++ uniforms and a
// vectorized Box–Muller transform in float32. A block's output depends only on its seed, so the
// noise of a step is the same whatever the thread count. Uniforms have 32-bit resolution, so
// |z| is bounded by sqrt(2·ln 2^33) ≈ 6.8: the tail beyond 6.8σ (mass 1e-11) is cut. That is
// adequate for the utility oracles, but xoshiro256++ is predictable: a released model draws its
// noise from the ChaCha20 keystream instead (TrainConfig::noise_key, secure_gaussian_noise.hpp).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <numbers>

namespace dpareto::learn {

// x[i] += stddev · N(0, 1) for i < n, the draws deterministic in `seed`.
void add_gaussian(float* x, std::size_t n, float stddev, std::uint64_t seed);

namespace detail {

// ln u for a normal float u in (0, 1), vectorizable and without the checks a general log needs
// (the sampler takes 1.6× less time than with Eigen's log): u = 2^e · m with m in [√½, √2),
// and ln m = 2 atanh(s) = 2(s + s³/3 + s⁵/5 + s⁷/7 + s⁹/9 + …) with s = (m − 1)/(m + 1), |s| <= 0.172,
// where the first omitted term is below 2·10⁻⁹ of the sum.
inline float log_unit_interval(float u) {
  const auto bits = std::bit_cast<std::int32_t>(u);
  const std::int32_t e = (bits - 0x3F3504F3) >> 23;  // 0x3F3504F3: the bits of √½
  const float m = std::bit_cast<float>(bits - (e << 23));
  const float s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
  const float atanh = s * (1.0f + s2 * (1.0f / 3 + s2 * (1.0f / 5 + s2 * (1.0f / 7 + s2 * (1.0f / 9)))));
  return static_cast<float>(e) * std::numbers::ln2_v<float> + 2.0f * atanh;
}

}  // namespace detail
}  // namespace dpareto::learn
