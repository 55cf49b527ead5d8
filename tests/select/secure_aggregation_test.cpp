// Pairwise-mask secure summation: exact sums, uniform-looking single masked vectors.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/secure_noise.hpp"
#include "dpareto/select/secure_aggregation.hpp"

using dpareto::privacy::ChaChaRandomSource;
using dpareto::select::SecureAggregation;

namespace {

// Pearson chi-square of the top byte of `words` against the uniform distribution on 256 values.
double top_byte_chi2(const std::vector<std::uint64_t>& words) {
  std::vector<double> counts(256, 0.0);
  for (std::uint64_t w : words) counts[w >> 56] += 1;
  const double expected = double(words.size()) / 256;
  double chi2 = 0;
  for (double c : counts) chi2 += (c - expected) * (c - expected) / expected;
  return chi2;
}

// χ²_{0.999}(255) = 330.5 (Wilson–Hilferty: 255·(1 − 2/2295 + 3.0902·√(2/2295))³).
constexpr double kChi2Critical255 = 330.5;

}  // namespace

TEST_CASE("secure aggregation: masks cancel and the sum is exact") {
  ChaChaRandomSource keys(11), values_source(12);
  const std::size_t n = 7, length = 50;
  SecureAggregation aggregation(n, length, keys);
  std::vector<std::int64_t> expected(length, 0);
  std::vector<std::vector<std::uint64_t>> masked;
  for (std::size_t client = 0; client < n; ++client) {
    std::vector<std::int64_t> values(length);
    for (auto& v : values) v = static_cast<std::int64_t>(values_source.next_u64() >> 23) - (std::int64_t(1) << 40);
    for (std::size_t c = 0; c < length; ++c) expected[c] += values[c];
    masked.push_back(aggregation.mask(client, values));
    CHECK(masked.back() != std::vector<std::uint64_t>(values.begin(), values.end()));
  }
  CHECK(aggregation.sum(masked) == expected);
}

TEST_CASE("secure aggregation: sums are exact mod 2^64 even when partial sums wrap") {
  ChaChaRandomSource keys(13);
  SecureAggregation aggregation(3, 2, keys);
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  const std::vector<std::vector<std::int64_t>> values{{big, -5}, {big, -7}, {-big, 3}};
  std::vector<std::vector<std::uint64_t>> masked;
  for (std::size_t i = 0; i < 3; ++i) masked.push_back(aggregation.mask(i, values[i]));
  CHECK(aggregation.sum(masked) == std::vector<std::int64_t>{big, -9});
}

TEST_CASE("secure aggregation: a single masked vector looks uniform whatever the input") {
  ChaChaRandomSource keys(14);
  const std::size_t length = 25600;  // 100 expected per top-byte value
  SecureAggregation aggregation(10, length, keys);
  const std::vector<std::int64_t> zeros(length, 0);
  const std::vector<std::int64_t> constant(length, std::int64_t(1) << 62);
  CHECK(top_byte_chi2(aggregation.mask(3, zeros)) < kChi2Critical255);
  CHECK(top_byte_chi2(aggregation.mask(0, constant)) < kChi2Critical255);
  CHECK(top_byte_chi2(aggregation.mask(9, constant)) < kChi2Critical255);
  // The unmasked input itself fails the same test.
  CHECK(top_byte_chi2(std::vector<std::uint64_t>(constant.begin(), constant.end())) > kChi2Critical255);
}

TEST_CASE("secure aggregation: reproducible from seeded keys; incomplete rounds are rejected") {
  ChaChaRandomSource keys_a(15), keys_b(15);
  SecureAggregation a(4, 3, keys_a), b(4, 3, keys_b);
  const std::vector<std::int64_t> values{1, 2, 3};
  CHECK(a.mask(2, values) == b.mask(2, values));
  CHECK(a.mask(1, values) != a.mask(2, values));
  std::vector<std::vector<std::uint64_t>> masked{a.mask(0, values), a.mask(1, values), a.mask(2, values)};
  CHECK_THROWS_AS(a.sum(masked), dpareto::InputError);
  CHECK_THROWS_AS(a.mask(4, values), dpareto::InputError);
  CHECK_THROWS_AS(a.mask(0, std::vector<std::int64_t>{1, 2}), dpareto::InputError);
  CHECK_THROWS_AS(SecureAggregation(1, 3, keys_a), dpareto::InputError);
}
