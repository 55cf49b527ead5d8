// Compiled with -fno-math-errno (CMakeLists.txt): std::sqrt then vectorizes, where the errno branch
// of a negative argument (which never occurs here) would keep the whole loop scalar, 10x slower.
#include "dpareto/learn/gaussian_noise.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

#include "dpareto/core/random.hpp"

namespace dpareto::learn {
namespace {

// Eight independent xoshiro128++ streams (Blackman & Vigna; 32-bit words, so that one step of all
// eight is one 256-bit vector) advanced in lock step; each lane's 128-bit state is two SplitMix64
// outputs of the seed (derive_seed).
class Xoshiro128ppX8 {
 public:
  static constexpr int lanes = 8;
  explicit Xoshiro128ppX8(std::uint64_t seed) {
    for (int k = 0; k < lanes; ++k) {
      const std::uint64_t low = derive_seed(seed, 2 * static_cast<std::uint64_t>(k));
      const std::uint64_t high = derive_seed(seed, 2 * static_cast<std::uint64_t>(k) + 1);
      s0_[k] = static_cast<std::uint32_t>(low);
      s1_[k] = static_cast<std::uint32_t>(low >> 32);
      s2_[k] = static_cast<std::uint32_t>(high);
      s3_[k] = static_cast<std::uint32_t>(high >> 32);
    }
  }
  void next(std::uint32_t* __restrict out) {
#pragma omp simd
    for (int k = 0; k < lanes; ++k) {
      out[k] = std::rotl(s0_[k] + s3_[k], 7) + s0_[k];
      const std::uint32_t t = s1_[k] << 9;
      s2_[k] ^= s0_[k];
      s3_[k] ^= s1_[k];
      s1_[k] ^= s2_[k];
      s0_[k] ^= s3_[k];
      s2_[k] ^= t;
      s3_[k] = std::rotl(s3_[k], 11);
    }
  }

 private:
  alignas(32) std::uint32_t s0_[lanes], s1_[lanes], s2_[lanes], s3_[lanes];
};

}  // namespace

void add_gaussian(float* x, std::size_t n, float stddev, std::uint64_t seed) {
  constexpr std::size_t half = 128;
  constexpr int lanes = Xoshiro128ppX8::lanes;
  Xoshiro128ppX8 rng(seed);
  alignas(64) float tail[2 * half];
  constexpr float quarter_turn = 0.5f * std::numbers::pi_v<float>;
  for (std::size_t done = 0; done < n; done += 2 * half) {
    // A block yields 2·half draws from half pairs; the last one may need fewer pairs (a linear
    // model's 124 parameters need 62), and the generator's state after it is never used again.
    // Pairs are computed in whole multiples of 16, so that the SIMD path serves every element (a
    // scalar tail could round differently), and a block cut short goes through a copy of its part
    // of x: every draw is added to x by the same operations whatever n, so a draw never depends on n.
    const std::size_t len = std::min(2 * half, n - done), pairs = (std::min(half, len) + 15) / 16 * 16;
    const bool whole = len == 2 * half;
    if (!whole) std::fill(std::copy(x + done, x + done + len, tail), tail + 2 * half, 0.0f);
    float* const lo = whole ? x + done : tail;
    float* const hi = lo + half;
    // Eight pairs at a time, each from two words drawn just before it: the generator's integer work
    // then fills the time the transform's long dependency chain (log, square root) leaves idle.
    for (std::size_t first = 0; first < pairs; first += lanes) {
      alignas(32) std::uint32_t radius_words[lanes], angle_words[lanes];
      rng.next(radius_words);
      rng.next(angle_words);
#pragma omp simd aligned(radius_words, angle_words : 32)
      for (int k = 0; k < lanes; ++k) {
        const std::size_t i = first + static_cast<std::size_t>(k);
        // Midpoints of 2^31 bins from a word's top 31 bits (a signed conversion, one instruction):
        // u in (0, 1), never 0, so log(u) is finite.
        const float u = (static_cast<float>(static_cast<std::int32_t>(radius_words[k] >> 1)) + 0.5f) * 0x1p-31f;
        const float radius = std::sqrt(-2.0f * detail::log_unit_interval(u)) * stddev;
        // The angle is a whole number of quarter turns q (2 bits) plus y, uniform on [-π/4, π/4)
        // (22 bits), where short Taylor series are accurate to ~1e-8: together uniform on the
        // circle in 2^24 bins, from the word's top 24 bits. Rotating (cos y, sin y) by q quarter
        // turns: an odd q turns it by 90° ((c, s) -> (-s, c)), q >= 2 by 180° (both signs flip).
        const std::uint32_t angle_bits = angle_words[k] >> 8;
        const float y = static_cast<float>(static_cast<std::int32_t>(angle_bits & 0x3FFFFF) - (1 << 21)) *
                        (quarter_turn * 0x1p-22f);
        const float y2 = y * y;
        const float sin_y =
            y * (1 + y2 * (-1.0f / 6 + y2 * (1.0f / 120 + y2 * (-1.0f / 5040 + y2 * (1.0f / 362880)))));
        const float cos_y = 1 + y2 * (-0.5f + y2 * (1.0f / 24 + y2 * (-1.0f / 720 + y2 * (1.0f / 40320))));
        const bool odd = (angle_bits >> 22) & 1;
        const std::uint32_t half_turn = (angle_bits >> 23) << 31;  // the sign bit, set for q >= 2
        const float c = std::bit_cast<float>(std::bit_cast<std::uint32_t>(odd ? -sin_y : cos_y) ^ half_turn);
        const float s = std::bit_cast<float>(std::bit_cast<std::uint32_t>(odd ? cos_y : sin_y) ^ half_turn);
        lo[i] += radius * c;
        hi[i] += radius * s;
      }
    }
    if (!whole) std::copy(tail, tail + len, x + done);
  }
}

}  // namespace dpareto::learn
