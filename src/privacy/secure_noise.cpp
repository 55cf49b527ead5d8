#include "dpareto/privacy/secure_noise.hpp"

#include <sys/random.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/core/random.hpp"

namespace dpareto::privacy {

namespace {

std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

// The RFC 8439 §2.3 block function for `Lanes` consecutive counters in lock step: s[i][l] is state
// word i of block counter + l, so every line of the quarter round is one loop over the lanes, which
// the compiler turns into vector instructions (16 lanes = one AVX-512 register of uint32).
// out[16·l + i] = word i of block counter + l.
template <int Lanes>
void chacha_lanes(const ChaChaRandomSource::Key& key, std::uint32_t counter,
                  const std::array<std::uint32_t, 3>& nonce, std::uint32_t* out) {
  std::array<std::uint32_t, 16> init{0x61707865U, 0x3320646eU, 0x79622d32U, 0x6b206574U};
  std::copy(key.begin(), key.end(), init.begin() + 4);
  std::copy(nonce.begin(), nonce.end(), init.begin() + 13);
  alignas(64) std::uint32_t s[16][Lanes];
  for (int i = 0; i < 16; ++i)
    for (int l = 0; l < Lanes; ++l) s[i][l] = init[static_cast<std::size_t>(i)];
  for (int l = 0; l < Lanes; ++l) s[12][l] = counter + static_cast<std::uint32_t>(l);
  auto quarter_round = [&s](int a, int b, int c, int d) {
    for (int l = 0; l < Lanes; ++l) {
      s[a][l] += s[b][l]; s[d][l] ^= s[a][l]; s[d][l] = rotl(s[d][l], 16);
      s[c][l] += s[d][l]; s[b][l] ^= s[c][l]; s[b][l] = rotl(s[b][l], 12);
      s[a][l] += s[b][l]; s[d][l] ^= s[a][l]; s[d][l] = rotl(s[d][l], 8);
      s[c][l] += s[d][l]; s[b][l] ^= s[c][l]; s[b][l] = rotl(s[b][l], 7);
    }
  };
  for (int round = 0; round < 10; ++round) {
    quarter_round(0, 4, 8, 12);
    quarter_round(1, 5, 9, 13);
    quarter_round(2, 6, 10, 14);
    quarter_round(3, 7, 11, 15);
    quarter_round(0, 5, 10, 15);
    quarter_round(1, 6, 11, 12);
    quarter_round(2, 7, 8, 13);
    quarter_round(3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i)
    for (int l = 0; l < Lanes; ++l) {
      const std::uint32_t add = i == 12 ? counter + static_cast<std::uint32_t>(l) : init[static_cast<std::size_t>(i)];
      out[16 * l + i] = s[i][l] + add;
    }
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
    throw InputError(std::string(what) + " = " + std::to_string(value) +
                     " must be finite and non-negative");
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
      std::size_t filled = 0;
      while (filled < buffer_.size()) {
        const ssize_t got = getrandom(buffer_.data() + filled, buffer_.size() - filled, 0);
        if (got < 0) {
          if (errno == EINTR) continue;
          throw Error(std::string("getrandom failed: ") + std::strerror(errno));
        }
        filled += static_cast<std::size_t>(got);
      }
      used_ = 0;
    }
    const std::size_t n = std::min(out.size() - done, buffer_.size() - used_);
    std::memcpy(out.data() + done, buffer_.data() + used_, n);
    // Bytes handed out are erased from the buffer so they cannot be read twice.
    std::memset(buffer_.data() + used_, 0, n);
    used_ += n;
    done += n;
  }
}

ChaChaRandomSource::ChaChaRandomSource(const Key& key, bool reproducible)
    : key_(key), reproducible_(reproducible) {}

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
  chacha_lanes<1>(key, counter, nonce, words.data());
  std::array<std::uint8_t, 64> out{};
  for (std::size_t i = 0; i < 16; ++i)
    for (std::size_t b = 0; b < 4; ++b) out[4 * i + b] = static_cast<std::uint8_t>(words[i] >> (8 * b));
  return out;
}

void ChaChaRandomSource::keystream_words(const Key& key, std::uint32_t counter,
                                         const std::array<std::uint32_t, 3>& nonce, std::span<std::uint32_t> out) {
  constexpr std::size_t lanes = 16;
  if (out.size() % 16 != 0)
    throw InputError("ChaCha20 keystream: " + std::to_string(out.size()) +
                     " words is not a whole number of 64-byte blocks");
  const std::size_t blocks = out.size() / 16;
  if (blocks > std::numeric_limits<std::uint32_t>::max() - std::size_t{counter} + 1)
    throw NumericalError("ChaCha20 keystream: blocks " + std::to_string(counter) + " + " + std::to_string(blocks) +
                         " pass the 32-bit block counter");
  std::size_t done = 0;
  alignas(64) std::uint32_t scratch[16 * lanes];
  for (; done + lanes <= blocks; done += lanes)
    chacha_lanes<lanes>(key, counter + static_cast<std::uint32_t>(done), nonce, out.data() + 16 * done);
  if (done < blocks) {  // a last partial group: its unused lanes are computed and dropped
    chacha_lanes<lanes>(key, counter + static_cast<std::uint32_t>(done), nonce, scratch);
    std::copy(scratch, scratch + 16 * (blocks - done), out.data() + 16 * done);
  }
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
  for (std::size_t i = n; i > 1; --i) std::swap(p[i - 1], p[static_cast<std::size_t>(uniform_below(source, BigInt(i)))]);
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
