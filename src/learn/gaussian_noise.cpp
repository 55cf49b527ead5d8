// GCC 12 reports false -W(maybe-)uninitialized inside its own AVX-512 intrinsics when Eigen's
// float kernels are inlined (GCC PR 105593); the pragmas must precede the first include.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "dpareto/learn/gaussian_noise.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace dpareto::learn {
namespace {

// Eight independent xoshiro256++ streams (Blackman & Vigna) advanced in lock step, so that the
// compiler vectorizes the state update; each lane is seeded through SplitMix64.
class Xoshiro256ppX8 {
 public:
  static constexpr int lanes = 8;
  explicit Xoshiro256ppX8(std::uint64_t seed) {
    for (int k = 0; k < lanes; ++k)
      for (std::uint64_t* s : {s0_, s1_, s2_, s3_}) {
        seed += 0x9E3779B97F4A7C15ULL;
        std::uint64_t z = seed;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        s[k] = z ^ (z >> 31);
      }
  }
  void next(std::uint64_t* __restrict out) {
#pragma omp simd
    for (int k = 0; k < lanes; ++k) {
      out[k] = rotl(s0_[k] + s3_[k], 23) + s0_[k];
      const std::uint64_t t = s1_[k] << 17;
      s2_[k] ^= s0_[k];
      s3_[k] ^= s1_[k];
      s1_[k] ^= s2_[k];
      s0_[k] ^= s3_[k];
      s2_[k] ^= t;
      s3_[k] = rotl(s3_[k], 45);
    }
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
  }
  alignas(64) std::uint64_t s0_[lanes], s1_[lanes], s2_[lanes], s3_[lanes];
};

}  // namespace

void add_gaussian(float* x, std::size_t n, float stddev, std::uint64_t seed) {
  constexpr std::size_t half = 128;
  Xoshiro256ppX8 rng(seed);
  alignas(64) std::uint64_t bits[half];
  alignas(64) float squared_radius[half], c[half], s[half], z[2 * half];
  const float two_pi = 2.0f * std::numbers::pi_v<float>;
  for (std::size_t done = 0; done < n; done += 2 * half) {
    // A block yields 2·half draws from half pairs; the last one may need fewer pairs (a linear
    // model's 124 parameters need 62), and the generator's state after it is never used again.
    // Pairs are computed in whole multiples of 16: the compiler's and Eigen's SIMD paths then
    // serve every element (a scalar tail could round differently), so a draw never depends on n.
    const std::size_t len = std::min(2 * half, n - done), pairs = (std::min(half, len) + 15) / 16 * 16;
    for (std::size_t i = 0; i < pairs; i += Xoshiro256ppX8::lanes) rng.next(bits + i);
    for (std::size_t i = 0; i < pairs; ++i) {
      // Midpoints of 2^32 bins: u in (0, 1), never 0, so log(u) is finite.
      const float u = (static_cast<float>(static_cast<std::uint32_t>(bits[i])) + 0.5f) * 0x1p-32f;
      squared_radius[i] = -2.0f * detail::log_unit_interval(u);
      // The angle 2πt with t uniform on [-1/2, 1/2) (24 bits), split into a quadrant k = round(4t)
      // and a remainder y in [-π/4, π/4] where short Taylor series are accurate to ~1e-8.
      const float t = static_cast<float>(static_cast<std::int32_t>(bits[i] >> 40) - (1 << 23)) * 0x1p-24f;
      const float k = std::nearbyint(4.0f * t);
      const float y = two_pi * (t - 0.25f * k);
      const float y2 = y * y;
      const float sin_y = y * (1 + y2 * (-1.0f / 6 + y2 * (1.0f / 120 + y2 * (-1.0f / 5040 + y2 * (1.0f / 362880)))));
      const float cos_y = 1 + y2 * (-0.5f + y2 * (1.0f / 24 + y2 * (-1.0f / 720 + y2 * (1.0f / 40320))));
      const int q = static_cast<int>(k) & 3;  // rotate by k quarter turns
      c[i] = q == 0 ? cos_y : q == 1 ? -sin_y : q == 2 ? -cos_y : sin_y;
      s[i] = q == 0 ? sin_y : q == 1 ? cos_y : q == 2 ? -sin_y : -cos_y;
    }
    using Block = Eigen::Map<const Eigen::ArrayXf, Eigen::Aligned64>;
    const auto count = static_cast<Eigen::Index>(pairs);
    const Block cos_a(c, count), sin_a(s, count);
    Eigen::Map<Eigen::ArrayXf, Eigen::Aligned64> lo(z, count), hi(z + half, count);
    // The radius goes through memory once (into lo): as an expression it would be computed twice.
    lo = Block(squared_radius, count).sqrt() * stddev;
    hi = lo * sin_a;
    lo *= cos_a;
    for (std::size_t i = 0; i < len; ++i) x[done + i] += z[i];
  }
}

}  // namespace dpareto::learn
