// Secure noise samplers (CKS20 Alg. 1-3) against their exact pmfs.
// Goodness of fit: Pearson chi-square over 21 bins (df = 20) with N = 200000 samples from a
// seeded ChaCha20 source, so every run sees the same samples; the critical value at p = 0.001 is
// χ²_{0.999}(20) = 45.315.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <set>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/secure_noise.hpp"

using namespace dpareto::privacy;

namespace {

constexpr int kSamples = 200000;
constexpr double kChi2Critical = 45.315;  // χ²_{0.999}, df = 20

struct Moments {
  double mean = 0;
  double variance = 0;
  double fourth = 0;  // E[(X - mean)^4]
};

// Exact probabilities of the 21 bins (-inf, e_0), [e_0, e_1), ..., [e_19, inf) and the moments of
// the pmf ∝ weight(x), summed over |x| <= range (the rest is below double precision).
struct Reference {
  std::vector<double> bin_probability;
  Moments moments;
};

Reference reference(const std::function<double(std::int64_t)>& weight, const std::vector<std::int64_t>& edges,
                    std::int64_t range) {
  REQUIRE(edges.size() == 20);
  Reference ref;
  ref.bin_probability.assign(21, 0.0);
  double total = 0, m1 = 0;
  for (std::int64_t x = -range; x <= range; ++x) total += weight(x);
  for (std::int64_t x = -range; x <= range; ++x) {
    const double p = weight(x) / total;
    std::size_t bin = 0;
    while (bin < edges.size() && x >= edges[bin]) ++bin;
    ref.bin_probability[bin] += p;
    m1 += p * double(x);
  }
  for (std::int64_t x = -range; x <= range; ++x) {
    const double p = weight(x) / total, c = double(x) - m1;
    ref.moments.variance += p * c * c;
    ref.moments.fourth += p * c * c * c * c;
  }
  ref.moments.mean = m1;
  return ref;
}

// Chi-square statistic of the samples against the reference, and the sample moments checked to
// within 5 standard errors.
void check_fit(const std::function<std::int64_t()>& draw, const Reference& ref,
               const std::vector<std::int64_t>& edges) {
  std::vector<double> counts(21, 0.0);
  double sum = 0, sum2 = 0;
  for (int i = 0; i < kSamples; ++i) {
    const std::int64_t x = draw();
    std::size_t bin = 0;
    while (bin < edges.size() && x >= edges[bin]) ++bin;
    counts[bin] += 1;
    sum += double(x);
    sum2 += double(x) * double(x);
  }
  double chi2 = 0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    const double expected = ref.bin_probability[b] * kSamples;
    REQUIRE(expected >= 5);  // the chi-square approximation needs it
    chi2 += (counts[b] - expected) * (counts[b] - expected) / expected;
  }
  CHECK(chi2 < kChi2Critical);
  const double mean = sum / kSamples, variance = sum2 / kSamples - mean * mean;
  const Moments& m = ref.moments;
  CHECK(std::abs(mean - m.mean) < 5 * std::sqrt(m.variance / kSamples));
  CHECK(std::abs(variance - m.variance) < 5 * std::sqrt((m.fourth - m.variance * m.variance) / kSamples));
}

std::vector<std::int64_t> unit_edges() {  // bins (-inf,-9), {-9}, ..., {9}, (9, inf)
  std::vector<std::int64_t> edges;
  for (std::int64_t x = -9; x <= 10; ++x) edges.push_back(x);
  return edges;
}

std::vector<std::int64_t> scaled_edges(double width) {  // 19 inner bins of `width` around 0
  std::vector<std::int64_t> edges;
  for (int i = 0; i < 20; ++i) edges.push_back(std::llround((i - 9.5) * width));
  return edges;
}

}  // namespace

TEST_CASE("secure: ChaCha20 block matches RFC 8439 section 2.3.2") {
  ChaChaRandomSource::Key key{};
  for (std::uint32_t i = 0; i < 8; ++i) {
    key[i] = (4 * i) | ((4 * i + 1) << 8) | ((4 * i + 2) << 16) | ((4 * i + 3) << 24);  // bytes 00..1f
  }
  const auto block = ChaChaRandomSource::block(key, 1, {0x09000000U, 0x4a000000U, 0});
  const std::vector<std::uint8_t> expected{0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15, 0x50, 0x0f, 0xdd, 0x1f, 0xa3,
                                           0x20, 0x71, 0xc4, 0xc7, 0xd1, 0xf4, 0xc7, 0x33, 0xc0, 0x68, 0x03, 0x04, 0x22,
                                           0xaa, 0x9a, 0xc3, 0xd4, 0x6c, 0x4e, 0xd2, 0x82, 0x64, 0x46, 0x07, 0x9f, 0xaa,
                                           0x09, 0x14, 0xc2, 0xd7, 0x05, 0xd9, 0x8b, 0x02, 0xa2, 0xb5, 0x12, 0x9c, 0xd1,
                                           0xde, 0x16, 0x4e, 0xb9, 0xcb, 0xd0, 0x83, 0xe8, 0xa2, 0x50, 0x3c, 0x4e};
  CHECK(std::vector<std::uint8_t>(block.begin(), block.end()) == expected);
}

TEST_CASE("secure: the bulk ChaCha20 keystream equals block() word for word") {
  ChaChaRandomSource::Key key{};
  for (std::uint32_t i = 0; i < 8; ++i) key[i] = 0x01234567U * (i + 3);
  const std::array<std::uint32_t, 3> nonce{5, 0x80000001U, 42};
  for (std::uint32_t counter : {0U, 1000U, 0xFFFFFFFFU - 36}) {
    std::vector<std::uint32_t> words(16 * 37);  // two full groups of 16 blocks and a partial one
    ChaChaRandomSource::keystream_words(key, counter, nonce, words);
    int mismatches = 0;
    for (std::uint32_t j = 0; j < 37; ++j) {
      const auto bytes = ChaChaRandomSource::block(key, counter + j, nonce);
      for (std::size_t i = 0; i < 16; ++i) {
        const std::uint32_t w = bytes[4 * i] | std::uint32_t(bytes[4 * i + 1]) << 8 |
                                std::uint32_t(bytes[4 * i + 2]) << 16 | std::uint32_t(bytes[4 * i + 3]) << 24;
        mismatches += w != words[16 * j + i];
      }
    }
    CAPTURE(counter);
    CHECK(mismatches == 0);
  }
  std::vector<std::uint32_t> words(32);
  CHECK_THROWS_AS(ChaChaRandomSource::keystream_words(key, 0xFFFFFFFFU, nonce, words), dpareto::NumericalError);
  words.resize(17);
  CHECK_THROWS_AS(ChaChaRandomSource::keystream_words(key, 0, nonce, words), dpareto::InputError);
}

TEST_CASE("secure: seeded sources are reproducible, the OS source is not marked so") {
  ChaChaRandomSource a(42), b(42), c(43);
  std::vector<std::uint64_t> xa, xb, xc;
  for (int i = 0; i < 20; ++i) {
    xa.push_back(a.next_u64());
    xb.push_back(b.next_u64());
    xc.push_back(c.next_u64());
  }
  CHECK(xa == xb);
  CHECK(xa != xc);
  CHECK(a.reproducible());
  auto os = make_random_source(std::nullopt);
  CHECK_FALSE(os->reproducible());
  std::set<std::uint64_t> distinct;
  for (int i = 0; i < 1000; ++i) distinct.insert(os->next_u64());  // crosses the 4 KiB buffer
  CHECK(distinct.size() == 1000);
  CHECK(make_random_source(7)->reproducible());
}

TEST_CASE("secure: doubles convert to exact rationals") {
  const Rational tenth = exact_rational(0.1, "x");
  CHECK(tenth.num == BigInt(3602879701896397ULL));
  CHECK(tenth.den == (BigInt(1) << 55));
  const Rational three_quarters = exact_rational(0.75, "x");
  CHECK(three_quarters.num == 3);
  CHECK(three_quarters.den == 4);
  const Rational big = exact_rational(6.0e20, "x");
  CHECK(big.num == BigInt("600000000000000000000"));
  CHECK(big.den == 1);
  CHECK(exact_rational(0.0, "x").num == 0);
  CHECK_THROWS_AS(exact_rational(-1.0, "epsilon0"), dpareto::InputError);
  CHECK_THROWS_AS(exact_rational(std::numeric_limits<double>::infinity(), "x"), dpareto::InputError);
}

TEST_CASE("secure: uniform_below is uniform, also beyond 64 bits") {
  ChaChaRandomSource source(1);
  std::vector<double> counts(21, 0.0);
  for (int i = 0; i < kSamples; ++i) counts[static_cast<std::size_t>(uniform_below(source, 21))] += 1;
  double chi2 = 0;
  for (double c : counts) chi2 += (c - kSamples / 21.0) * (c - kSamples / 21.0) / (kSamples / 21.0);
  CHECK(chi2 < kChi2Critical);
  // Bound 3·2^70: the top two bits of the 72-bit draw are 00, 01 or 10 with probability 1/3 each.
  const BigInt unit70 = BigInt(1) << 70, bound = 3 * unit70;
  std::vector<int> top(3, 0);
  for (int i = 0; i < 30000; ++i) {
    const BigInt x = uniform_below(source, bound);
    REQUIRE(x < bound);
    ++top[x < unit70 ? 0 : x < 2 * unit70 ? 1 : 2];
  }
  // Bound exactly 2^64 (8 bytes, but one more than uint64 holds): every draw is accepted.
  const BigInt two64 = BigInt(1) << 64;
  for (int i = 0; i < 100; ++i) REQUIRE(uniform_below(source, two64) < two64);
  for (int t = 0; t < 3; ++t) CHECK(std::abs(top[t] - 10000) < 5 * std::sqrt(30000 * (1 / 3.0) * (2 / 3.0)));
}

TEST_CASE("secure: Bernoulli(exp(-gamma)) frequencies (CKS20 Alg. 1)") {
  ChaChaRandomSource source(2);
  for (const Rational& gamma : {Rational{0, 1}, Rational{1, 2}, Rational{1, 1}, Rational{5, 2}, Rational{7, 3}}) {
    const double p = std::exp(-static_cast<double>(gamma.num) / static_cast<double>(gamma.den));
    int hits = 0;
    for (int i = 0; i < 100000; ++i) hits += bernoulli_exp_minus(source, gamma) ? 1 : 0;
    const double sd = std::sqrt(100000 * p * (1 - p));
    CHECK(std::abs(hits - 100000 * p) <= std::max(5 * sd, 0.5));
  }
}

TEST_CASE("secure: discrete Laplace matches its pmf (CKS20 Alg. 2)") {
  ChaChaRandomSource source(3);
  SUBCASE("t = 3/2") {
    const Rational scale{3, 2};
    const auto edges = unit_edges();
    const auto ref = reference([](std::int64_t x) { return std::exp(-std::abs(double(x)) / 1.5); }, edges, 200);
    check_fit([&] { return discrete_laplace(source, scale); }, ref, edges);
  }
  SUBCASE("t = 4 from a double") {
    const Rational scale = exact_rational(4.0, "t");
    const auto edges = unit_edges();
    const auto ref = reference([](std::int64_t x) { return std::exp(-std::abs(double(x)) / 4.0); }, edges, 400);
    check_fit([&] { return discrete_laplace(source, scale); }, ref, edges);
  }
  SUBCASE("t = 40.25 with wide bins") {
    const Rational scale{161, 4};
    const auto edges = scaled_edges(12);
    const auto ref = reference([](std::int64_t x) { return std::exp(-std::abs(double(x)) / 40.25); }, edges, 4000);
    check_fit([&] { return discrete_laplace(source, scale); }, ref, edges);
  }
}

TEST_CASE("secure: discrete Gaussian matches its pmf (CKS20 Alg. 3)") {
  ChaChaRandomSource source(4);
  SUBCASE("sigma^2 = 37/3") {
    const auto edges = unit_edges();
    const auto ref =
        reference([](std::int64_t x) { return std::exp(-double(x) * double(x) / (2 * 37.0 / 3.0)); }, edges, 200);
    check_fit([&] { return discrete_gaussian(source, Rational{37, 3}); }, ref, edges);
  }
  SUBCASE("sigma^2 = 1e6 from a double") {
    const Rational sigma2 = exact_rational(1.0e6, "sigma2");
    const auto edges = scaled_edges(400);
    const auto ref = reference([](std::int64_t x) { return std::exp(-double(x) * double(x) / 2.0e6); }, edges, 20000);
    check_fit([&] { return discrete_gaussian(source, sigma2); }, ref, edges);
  }
}

TEST_CASE("secure: invalid scales are rejected") {
  ChaChaRandomSource source(5);
  CHECK_THROWS_AS(discrete_laplace(source, Rational{0, 1}), dpareto::InputError);
  CHECK_THROWS_AS(discrete_gaussian(source, Rational{0, 3}), dpareto::InputError);
  CHECK_THROWS_AS(uniform_below(source, 0), dpareto::InputError);
}
