#pragma once
// Floating-point-safe noise for released decisions (DESIGN.md §2 "Randomness", issue 7 item 6).
//
// Random bytes come from a RandomSource: the kernel CSPRNG (getrandom, through libsodium's
// randombytes_buf) for releasable runs, or a ChaCha20 keystream (RFC 8439, libsodium's
// crypto_stream_chacha20_ietf) keyed from --seed for reproducible, *not for release* runs.
// On top of the bytes, every sampler is exact and uses only integer/rational arithmetic
// (Canonne, Kamath, Steinke 2020, "The Discrete Gaussian for Differential Privacy"):
//   Alg. 1  Bernoulli(exp(-γ)) for rational γ >= 0,
//   Alg. 2  discrete Laplace Lap_Z(t), pmf ∝ exp(-|x|/t), for rational t > 0,
//   Alg. 3  discrete Gaussian N_Z(0, σ²), pmf ∝ exp(-x²/(2σ²)), for rational σ² > 0.
// Parameters given as doubles are converted *exactly*: a finite double is the dyadic rational
// m·2^e, so no rounding happens between the requested scale and the sampled one.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <boost/multiprecision/cpp_int.hpp>

namespace dpareto::privacy {

using BigInt = boost::multiprecision::cpp_int;

// An exact non-negative rational num/den (den > 0).
struct Rational {
  BigInt num;
  BigInt den;
};

// The exact value of a finite, non-negative double; throws InputError naming `what` otherwise.
Rational exact_rational(double value, const char* what);

// The smallest double >= r (r > 0 and below the double range): for reporting a noise scale rounded
// up, never down.
double round_up(const Rational& r);

// A source of uniformly random bytes.
class RandomSource {
 public:
  virtual ~RandomSource() = default;
  virtual void fill(std::span<std::uint8_t> out) = 0;
  // True for seeded (deterministic) sources: their output must be marked "not for release".
  virtual bool reproducible() const = 0;
  std::uint64_t next_u64();
};

// The kernel CSPRNG via getrandom(2), buffered.
class OsRandomSource final : public RandomSource {
 public:
  void fill(std::span<std::uint8_t> out) override;
  bool reproducible() const override { return false; }

 private:
  std::array<std::uint8_t, 4096> buffer_{};
  std::size_t used_ = buffer_.size();
};

// The ChaCha20 keystream (RFC 8439 block function, 96-bit nonce = 0, counter from 0) under a
// 256-bit key. Also the pairwise mask generator of secure aggregation (select/secure_aggregation).
class ChaChaRandomSource final : public RandomSource {
 public:
  using Key = std::array<std::uint32_t, 8>;
  explicit ChaChaRandomSource(const Key& key, bool reproducible = true);
  // Key words derive_seed(seed, 0..3) split into halves: a reproducible run from a 64-bit seed.
  explicit ChaChaRandomSource(std::uint64_t seed);
  void fill(std::span<std::uint8_t> out) override;
  bool reproducible() const override { return reproducible_; }

  // One 64-byte block of RFC 8439 §2.3 (exposed for the RFC test vector).
  static std::array<std::uint8_t, 64> block(const Key& key, std::uint32_t counter,
                                            const std::array<std::uint32_t, 3>& nonce);
  // The same keystream in bulk, as 32-bit words: out[16·j + i] is word i (bytes 4i..4i+3 read
  // little-endian) of block(key, counter + j, nonce), for j < out.size() / 16. out.size() must be
  // a multiple of 16 and counter + out.size()/16 at most 2^32. Both come from libsodium's
  // crypto_stream_chacha20_ietf (no hand-written cipher on the release path).
  static void keystream_words(const Key& key, std::uint32_t counter, const std::array<std::uint32_t, 3>& nonce,
                              std::span<std::uint32_t> out);

 private:
  Key key_;
  bool reproducible_;
  std::uint32_t counter_ = 0;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t used_ = buffer_.size();
};

// ChaCha20 from `seed` when given (not for release), the OS CSPRNG otherwise.
std::unique_ptr<RandomSource> make_random_source(std::optional<std::uint64_t> seed);

// A uniform integer in {0, ..., bound - 1} by rejection on whole bytes (bound >= 1).
BigInt uniform_below(RandomSource& source, const BigInt& bound);

// A uniformly random permutation of 0..n−1 (Fisher–Yates with uniform_below).
std::vector<std::size_t> uniform_permutation(std::size_t n, RandomSource& source);

// Bernoulli(p) with p = p.num / p.den <= 1.
bool bernoulli(RandomSource& source, const Rational& p);

// Bernoulli(exp(-γ)), γ >= 0 rational (CKS20 Alg. 1).
bool bernoulli_exp_minus(RandomSource& source, const Rational& gamma);

// Discrete Laplace with scale t: P[x] ∝ exp(-|x|/t), x ∈ Z (CKS20 Alg. 2 with t = t.num/t.den).
// Throws NumericalError if a sample does not fit in int64 (probability < 2^-60 for t < 2^50).
std::int64_t discrete_laplace(RandomSource& source, const Rational& scale);

// Discrete Gaussian with parameter σ²: P[x] ∝ exp(-x²/(2σ²)), x ∈ Z (CKS20 Alg. 3).
std::int64_t discrete_gaussian(RandomSource& source, const Rational& sigma2);

}  // namespace dpareto::privacy
