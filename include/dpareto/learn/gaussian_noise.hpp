#pragma once
// Fast Gaussian noise for the private optimizers: one draw per parameter per step (~800k for
// MLP1), so std::normal_distribution would dominate an epoch. xoshiro128++ uniforms and a
// vectorized Box–Muller transform in float32. A block's output depends only on its seed, so the
// noise of a step is the same whatever the thread count. The radius' uniforms have 31-bit
// resolution, so |z| is bounded by sqrt(2·ln 2^32) ≈ 6.66: the tail beyond 6.66σ (mass 3e-11) is
// cut. That is adequate for the utility oracles, but xoshiro128++ is predictable: a released model
// draws its noise from the ChaCha20 keystream instead (TrainConfig::noise_key, secure_gaussian_noise.hpp).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <numbers>

namespace dpareto::learn {

// x[i] += stddev · N(0, 1) for i < n, the draws deterministic in `seed`.
void add_gaussian(float* x, std::size_t n, float stddev, std::uint64_t seed);

namespace detail {

// ln u for a normal float u in (0, 1), vectorizable, without the checks a general log needs, and
// without a division (on a 256-bit core the sampler's loop waits on its long dependency chain, and
// a division is the longest link): u = 2^e · m with m in [√½, √2), t = m − 1 in [−0.293, 0.415],
// and ln m = t + t²·q(t), q a degree-8 Chebyshev fit of (ln(1 + t) − t)/t² on that interval (largest
// error 2.9·10⁻⁹ of ln m in exact arithmetic; within one float ulp of ln u in float), evaluated by
// Estrin's scheme (independent pairs, then powers of t²) to keep the chain short.
inline float log_unit_interval(float u) {
  const auto bits = std::bit_cast<std::int32_t>(u);
  const std::int32_t e = (bits - 0x3F3504F3) >> 23;  // 0x3F3504F3: the bits of √½
  const float t = std::bit_cast<float>(bits - (e << 23)) - 1.0f;
  const float t2 = t * t, t4 = t2 * t2, t8 = t4 * t4;
  const float q01 = -0.4999999764977102f + t * 0.33333330028356045f;
  const float q23 = -0.2500078123980497f + t * 0.20001234461048356f;
  const float q45 = -0.16626645629362635f + t * 0.14204855953075593f;
  const float q67 = -0.13127555649078673f + t * 0.12722672786087882f;
  const float q = (q01 + t2 * q23) + t4 * (q45 + t2 * q67) + t8 * -0.07673641507507348f;
  return static_cast<float>(e) * std::numbers::ln2_v<float> + (t + t2 * q);
}

}  // namespace detail
}  // namespace dpareto::learn
