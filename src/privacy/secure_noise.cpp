#include "dpareto/privacy/secure_noise.hpp"

#include <sodium.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/core/sodium.hpp"

namespace dpareto::privacy {

namespace {

// RFC 8439 ChaCha20 keystream (libsodium's crypto_stream_chacha20_ietf: 96-bit nonce, 32-bit block
// counter) as 32-bit words: the keystream XORed into zeros, read little-endian.
void chacha_words(const ChaChaRandomSource::Key& key, std::uint32_t counter, const std::array<std::uint32_t, 3>& nonce,
                  std::uint32_t* out, std::size_t words) {
  static_assert(std::endian::native == std::endian::little, "keystream words are read little-endian");
  ensure_sodium();
  std::array<unsigned char, crypto_stream_chacha20_ietf_KEYBYTES> key_bytes{};
  std::array<unsigned char, crypto_stream_chacha20_ietf_NONCEBYTES> nonce_bytes{};
  std::memcpy(key_bytes.data(), key.data(), key_bytes.size());
  std::memcpy(nonce_bytes.data(), nonce.data(), nonce_bytes.size());
  auto* bytes = reinterpret_cast<unsigned char*>(out);
  std::memset(bytes, 0, 4 * words);
  crypto_stream_chacha20_ietf_xor_ic(bytes, bytes, 4 * words, nonce_bytes.data(), counter, key_bytes.data());
  sodium_memzero(key_bytes.data(), key_bytes.size());
}

std::int64_t to_int64(const BigInt& value) {
  if (value > std::numeric_limits<std::int64_t>::max() || value < std::numeric_limits<std::int64_t>::min()) {
    throw NumericalError("secure noise sample " + value.str() + " does not fit in 64 bits");
  }
  return static_cast<std::int64_t>(value);
}

// CKS20 Alg. 2 in its own parameters: Lap_Z(t/s), P[x] ∝ exp(-|x| s/t), s, t >= 1 integers.
BigInt discrete_laplace_big(RandomSource& source, const BigInt& s, const BigInt& t) {
  const Rational one{1, 1};
  for (;;) {
    const BigInt u = uniform_below(source, t);
    if (!bernoulli_exp_minus(source, Rational{u, t})) continue;
    BigInt v = 0;
    while (bernoulli_exp_minus(source, one)) ++v;
    const BigInt y = (u + t * v) / s;  // geometric with parameter 1 - exp(-s/t)
    std::uint8_t sign = 0;
    source.fill(std::span<std::uint8_t>(&sign, 1));
    const bool negative = (sign & 1U) != 0;
    if (negative && y == 0) continue;
    return negative ? BigInt(-y) : y;
  }
}

}  // namespace

Rational exact_rational(double value, const char* what) {
  if (!std::isfinite(value) || value < 0) {
    throw InputError(std::string(what) + " = " + std::to_string(value) + " must be finite and non-negative");
  }
  if (value == 0) return {0, 1};
  int exponent = 0;
  const double mantissa = std::frexp(value, &exponent);  // value = mantissa · 2^exponent
  auto bits = static_cast<std::uint64_t>(std::ldexp(mantissa, 53));
  exponent -= 53;
  while ((bits & 1U) == 0 && exponent < 0) {
    bits >>= 1;
    ++exponent;
  }
  Rational result{BigInt(bits), BigInt(1)};
  if (exponent >= 0) {
    result.num <<= exponent;
  } else {
    result.den <<= -exponent;
  }
  return result;
}

double round_up(const Rational& r) {
  const auto below = [&](double d) {  // d < r, exactly
    const Rational x = exact_rational(d, "rounded value");
    return x.num * r.den < r.num * x.den;
  };
  double d = r.num.convert_to<double>() / r.den.convert_to<double>();
  if (!std::isfinite(d) || d <= 0) throw NumericalError("round_up: value outside the double range");
  while (below(d)) d = std::nextafter(d, std::numeric_limits<double>::infinity());
  for (double lower = std::nextafter(d, 0.0); lower > 0 && !below(lower); lower = std::nextafter(d, 0.0)) d = lower;
  return d;
}

std::uint64_t RandomSource::next_u64() {
  std::array<std::uint8_t, 8> bytes{};
  fill(bytes);
  std::uint64_t value = 0;
  std::memcpy(&value, bytes.data(), sizeof(value));
  return value;
}

void OsRandomSource::fill(std::span<std::uint8_t> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    if (used_ == buffer_.size()) {
      ensure_sodium();
      randombytes_buf(buffer_.data(), buffer_.size());  // the kernel CSPRNG (getrandom) through libsodium
      used_ = 0;
    }
    const std::size_t n = std::min(out.size() - done, buffer_.size() - used_);
    std::memcpy(out.data() + done, buffer_.data() + used_, n);
    // Bytes handed out are erased from the buffer so they cannot be read twice.
    sodium_memzero(buffer_.data() + used_, n);
    used_ += n;
    done += n;
  }
}

ChaChaRandomSource::ChaChaRandomSource(const Key& key, bool reproducible) : key_(key), reproducible_(reproducible) {}

ChaChaRandomSource::ChaChaRandomSource(std::uint64_t seed) : reproducible_(true) {
  for (std::uint32_t i = 0; i < 4; ++i) {
    const std::uint64_t word = derive_seed(seed, i);
    key_[2 * i] = static_cast<std::uint32_t>(word);
    key_[2 * i + 1] = static_cast<std::uint32_t>(word >> 32);
  }
}

std::array<std::uint8_t, 64> ChaChaRandomSource::block(const Key& key, std::uint32_t counter,
                                                       const std::array<std::uint32_t, 3>& nonce) {
  std::array<std::uint32_t, 16> words{};
  chacha_words(key, counter, nonce, words.data(), words.size());
  std::array<std::uint8_t, 64> out{};
  std::memcpy(out.data(), words.data(), out.size());
  return out;
}

void ChaChaRandomSource::keystream_words(const Key& key, std::uint32_t counter,
                                         const std::array<std::uint32_t, 3>& nonce, std::span<std::uint32_t> out) {
  if (out.size() % 16 != 0)
    throw InputError("ChaCha20 keystream: " + std::to_string(out.size()) +
                     " words is not a whole number of 64-byte blocks");
  const std::size_t blocks = out.size() / 16;
  if (blocks > std::numeric_limits<std::uint32_t>::max() - std::size_t{counter} + 1)
    throw NumericalError("ChaCha20 keystream: blocks " + std::to_string(counter) + " + " + std::to_string(blocks) +
                         " pass the 32-bit block counter");
  chacha_words(key, counter, nonce, out.data(), out.size());
}

void ChaChaRandomSource::fill(std::span<std::uint8_t> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    if (used_ == buffer_.size()) {
      if (counter_ == std::numeric_limits<std::uint32_t>::max()) {
        throw NumericalError("ChaCha20 keystream exhausted (2^32 blocks under one key)");
      }
      buffer_ = block(key_, counter_++, {0, 0, 0});
      used_ = 0;
    }
    const std::size_t n = std::min(out.size() - done, buffer_.size() - used_);
    std::memcpy(out.data() + done, buffer_.data() + used_, n);
    used_ += n;
    done += n;
  }
}

std::unique_ptr<RandomSource> make_random_source(std::optional<std::uint64_t> seed) {
  if (seed) return std::make_unique<ChaChaRandomSource>(*seed);
  return std::make_unique<OsRandomSource>();
}

BigInt uniform_below(RandomSource& source, const BigInt& bound) {
  if (bound < 1) throw InputError("uniform_below: bound " + bound.str() + " must be >= 1");
  if (bound == 1) return 0;
  const std::size_t bits = boost::multiprecision::msb(BigInt(bound - 1)) + 1;
  const std::size_t bytes = (bits + 7) / 8;
  const auto top_mask = static_cast<std::uint8_t>(bits % 8 == 0 ? 0xFF : (1U << (bits % 8)) - 1);
  if (bound <= std::numeric_limits<std::uint64_t>::max()) {
    const auto limit = static_cast<std::uint64_t>(bound);
    std::array<std::uint8_t, 8> buf{};
    for (;;) {
      source.fill(std::span<std::uint8_t>(buf.data(), bytes));
      buf[bytes - 1] &= top_mask;
      std::uint64_t value = 0;
      for (std::size_t i = 0; i < bytes; ++i) value |= std::uint64_t(buf[i]) << (8 * i);
      if (value < limit) return BigInt(value);
    }
  }
  std::vector<std::uint8_t> buf(bytes);
  for (;;) {
    source.fill(buf);
    buf[bytes - 1] &= top_mask;
    BigInt value;
    import_bits(value, buf.rbegin(), buf.rend(), 8);  // little-endian bytes, most significant first
    if (value < bound) return value;
  }
}

std::vector<std::size_t> uniform_permutation(std::size_t n, RandomSource& source) {
  std::vector<std::size_t> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = i;
  for (std::size_t i = n; i > 1; --i)
    std::swap(p[i - 1], p[static_cast<std::size_t>(uniform_below(source, BigInt(i)))]);
  return p;
}

bool bernoulli(RandomSource& source, const Rational& p) {
  return uniform_below(source, p.den) < p.num;
}

bool bernoulli_exp_minus(RandomSource& source, const Rational& gamma) {
  if (gamma.num <= gamma.den) {
    // γ ∈ [0, 1]: K is the first index with Bernoulli(γ/K) = 0; P[K odd] = exp(-γ).
    BigInt k = 1;
    while (bernoulli(source, Rational{gamma.num, gamma.den * k})) ++k;
    return (k & 1) != 0;
  }
  // γ > 1: exp(-γ) = exp(-1)^⌊γ⌋ · exp(-(γ - ⌊γ⌋)).
  const Rational one{1, 1};
  for (BigInt i = gamma.num / gamma.den; i > 0; --i) {
    if (!bernoulli_exp_minus(source, one)) return false;
  }
  return bernoulli_exp_minus(source, Rational{gamma.num % gamma.den, gamma.den});
}

std::int64_t discrete_laplace(RandomSource& source, const Rational& scale) {
  if (scale.num <= 0 || scale.den <= 0) {
    throw InputError("discrete Laplace scale " + scale.num.str() + "/" + scale.den.str() + " must be positive");
  }
  // pmf ∝ exp(-|x| den/num) = Lap_Z(t/s) with t = num, s = den.
  return to_int64(discrete_laplace_big(source, scale.den, scale.num));
}

std::int64_t discrete_gaussian(RandomSource& source, const Rational& sigma2) {
  if (sigma2.num <= 0 || sigma2.den <= 0) {
    throw InputError("discrete Gaussian variance " + sigma2.num.str() + "/" + sigma2.den.str() + " must be positive");
  }
  const BigInt& n = sigma2.num;
  const BigInt& d = sigma2.den;
  const BigInt t = boost::multiprecision::sqrt(BigInt(n / d)) + 1;  // ⌊σ⌋ + 1
  for (;;) {
    const BigInt y = discrete_laplace_big(source, 1, t);
    // Accept with probability exp(-(|y| - σ²/t)² / (2σ²)) = exp(-(|y| d t - n)² / (2 n d t²)).
    const BigInt diff = abs(y) * d * t - n;
    if (bernoulli_exp_minus(source, Rational{diff * diff, 2 * n * d * t * t})) return to_int64(y);
  }
}

}  // namespace dpareto::privacy
