// GCC 12 reports false -W(maybe-)uninitialized inside its own AVX-512 intrinsics when Eigen's
// kernels are inlined (GCC PR 105593); the pragmas must precede the first include.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "dpareto/learn/secure_gaussian_noise.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <numbers>
#include <span>
#include <string>
#include <type_traits>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/secure_noise.hpp"

namespace dpareto::learn {

static_assert(std::is_same_v<NoiseKey, privacy::ChaChaRandomSource::Key>);

namespace {

constexpr std::size_t pairs = 256;                           // Box–Muller pairs per chunk
constexpr std::size_t chunk_words = 4 * pairs;               // two 64-bit words per pair
constexpr std::size_t chunk_blocks = chunk_words / 16;       // 64 ChaCha20 blocks
constexpr std::uint64_t max_draws = std::uint64_t{1} << 35;  // 2^32 blocks · 8 draws

}  // namespace

void add_gaussian_secure(float* x, std::size_t n, double stddev, const NoiseKey& key, std::uint64_t step,
                         std::uint32_t block) {
  if (n > max_draws) throw NumericalError("secure noise: " + std::to_string(n) + " draws exceed one stream (2^35)");
  if (step >> 63) throw NumericalError("secure noise: step " + std::to_string(step) + " >= 2^63");
  const std::array<std::uint32_t, 3> nonce{block, static_cast<std::uint32_t>(step),
                                           static_cast<std::uint32_t>(step >> 32) | 0x80000000U};
  alignas(64) std::uint32_t words[chunk_words];
  alignas(64) double uniform[pairs], cos_t[pairs], sin_t[pairs], radius[pairs], z[2 * pairs];
  constexpr double two_pi = 2 * std::numbers::pi;
  std::uint32_t counter = 0;
  for (std::size_t done = 0; done < n; done += 2 * pairs, counter += chunk_blocks) {
    privacy::ChaChaRandomSource::keystream_words(key, counter, nonce, std::span(words, chunk_words));
    for (std::size_t j = 0; j < pairs; ++j) {
      const std::uint64_t a = std::uint64_t{words[4 * j]} | std::uint64_t{words[4 * j + 1]} << 32;
      const std::uint64_t b = std::uint64_t{words[4 * j + 2]} | std::uint64_t{words[4 * j + 3]} << 32;
      // u = (⌊A/2^11⌋ + ½)·2^-53: the 53-bit integer converts to double exactly.
      uniform[j] = (static_cast<double>(static_cast<std::int64_t>(a >> 11)) + 0.5) * 0x1p-53;
      // θ = 2π·U·2^-53 with U = ⌊B/2^11⌋ = q·2^51 + D, q = round(U/2^51) ∈ 0..4, |D| <= 2^50 (exact
      // integers): θ = q·π/2 + y with y = 2π·D·2^-53 ∈ [−π/4, π/4].
      const auto u = static_cast<std::int64_t>(b >> 11);
      const std::int64_t q = (u + (std::int64_t{1} << 50)) >> 51;
      const double y = two_pi * static_cast<double>(u - (q << 51)) * 0x1p-53;
      const double y2 = y * y;
      const double sin_y =
          y * (1 + y2 * (-1.0 / 6 +
                         y2 * (1.0 / 120 +
                               y2 * (-1.0 / 5040 +
                                     y2 * (1.0 / 362880 +
                                           y2 * (-1.0 / 39916800 +
                                                 y2 * (1.0 / 6227020800 + y2 * (-1.0 / 1307674368000 +
                                                                                y2 * (1.0 / 355687428096000)))))))));
      const double cos_y =
          1 + y2 * (-0.5 +
                    y2 * (1.0 / 24 +
                          y2 * (-1.0 / 720 +
                                y2 * (1.0 / 40320 +
                                      y2 * (-1.0 / 3628800 +
                                            y2 * (1.0 / 479001600 + y2 * (-1.0 / 87178291200 +
                                                                          y2 * (1.0 / 20922789888000 +
                                                                                y2 * (-1.0 / 6402373705728000)))))))));
      const std::int64_t quadrant = q & 3;  // rotate (cos y, sin y) by q quarter turns
      cos_t[j] = quadrant == 0 ? cos_y : quadrant == 1 ? -sin_y : quadrant == 2 ? -cos_y : sin_y;
      sin_t[j] = quadrant == 0 ? sin_y : quadrant == 1 ? cos_y : quadrant == 2 ? -sin_y : -cos_y;
    }
    using Block = Eigen::Array<double, pairs, 1>;
    Eigen::Map<Block, Eigen::Aligned64> radii(radius);
    radii = (-2.0 * Eigen::Map<const Block, Eigen::Aligned64>(uniform).log()).sqrt() * stddev;
    for (std::size_t j = 0; j < pairs; ++j) {
      z[2 * j] = radius[j] * cos_t[j];
      z[2 * j + 1] = radius[j] * sin_t[j];
    }
    const std::size_t len = std::min(2 * pairs, n - done);
    float* out = x + done;
    for (std::size_t i = 0; i < len; ++i) out[i] = static_cast<float>(static_cast<double>(out[i]) + z[i]);
  }
}

}  // namespace dpareto::learn
