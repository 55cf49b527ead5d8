#pragma once
// Gaussian noise for models that are released (TrainConfig::noise_key): every draw comes from the
// ChaCha20 keystream (RFC 8439, privacy::ChaChaRandomSource::keystream_words) under a 256-bit key,
// a cryptographically secure generator, instead of the fast path's xoshiro128++ (gaussian_noise.hpp),
// whose future output can be predicted from past output.
//
// Streams. The draws of (training step s, parameter block b) come from the keystream with nonce
//     (b, s mod 2^32, ⌊s / 2^32⌋ | 2^31),  block counter 0, 1, 2, ...
// so every (s, b) reads its own keystream (ChaCha20 is a PRF of (key, nonce, counter): distinct
// nonces give independent-looking streams), the noise is the same whatever the thread count or the
// order in which blocks are processed, and the top nonce bit keeps these streams apart from
// ChaChaRandomSource's own (nonce 0) under the same key. One stream holds 2^32 blocks = 2^35 draws.
//
// Draws. Keystream bytes 8k..8k+7, read little-endian, are the 64-bit word W_k. Pair j uses
// A = W_{2j}, B = W_{2j+1}, keeping their top 53 bits:
//     u = (⌊A / 2^11⌋ + ½)·2^-53 ∈ (0, 1)      (midpoints of 2^53 bins: never 0, so log u is finite)
//     θ = 2π·⌊B / 2^11⌋·2^-53 ∈ [0, 2π)
//     z_{2j} = √(−2 ln u)·cos θ,   z_{2j+1} = √(−2 ln u)·sin θ      (Box–Muller, in double)
// and x_i ← fl32(x_i + stddev·z_i) (one rounding to float). For exact uniforms Box–Muller gives
// exactly independent N(0, 1) pairs (an exact method, no rejection or approximation of the
// inverse CDF); here the uniforms are 53-bit, which (a) caps the radius at u = 2^-54, so
// |z| ≤ √(2 ln 2^54) ≈ 8.65: the tail beyond 8.65σ is cut (the radius loses probability
// 2^-54 ≈ 5.6e-17 per pair; P[|N(0,1)| > 8.65] ≈ 5e-18) and (b) moves the CDFs of u and θ by at
// most one bin, 2^-53. θ is reduced to [−π/4, π/4] by an exact integer split into quarter turns, and
// sin/cos there are degree-17/18 Taylor polynomials (truncation < 1e-19); ln is Eigen's vectorized
// double logarithm (~1 ulp).
//
// Floating-point caveat. A DP proof for real-valued Gaussian noise does not carry over verbatim to
// floating-point samples: the set of representable outputs of a naive sampler depends on the value
// it is added to, which can leak it (Mironov 2012, "On significance of the least significant bits
// for differential privacy"; Jin et al. 2022, "Are we there yet? Timing and floating-point attacks
// on differential privacy systems", who attack double Box–Muller / polar samplers in DP libraries).
// This sampler fixes the generator (unpredictable keystream) but not that representation leak, and
// the noise is added to a float32 gradient sum; the exact integer samplers of privacy/secure_noise
// (discrete Gaussian) avoid it but are far too slow for one draw per parameter per step. The
// certificate of a released model should say the noise is continuous Gaussian in floating point.
#include <array>
#include <cstddef>
#include <cstdint>

namespace dpareto::learn {

using NoiseKey = std::array<std::uint32_t, 8>;  // = privacy::ChaChaRandomSource::Key

// x[i] += stddev · z_i for i < n, z the draws of stream (step, block) under `key` (above).
// Throws NumericalError for n > 2^35 or step >= 2^63.
void add_gaussian_secure(float* x, std::size_t n, double stddev, const NoiseKey& key, std::uint64_t step,
                         std::uint32_t block);

}  // namespace dpareto::learn
