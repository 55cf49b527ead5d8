#include "dpareto/select/secure_aggregation.hpp"

#include <string>

#include "dpareto/core/error.hpp"

namespace dpareto::select {

namespace {

// The next `length` words of the mask stream of one pair.
std::vector<std::uint64_t> mask_stream(const privacy::ChaChaRandomSource::Key& key, std::size_t length) {
  privacy::ChaChaRandomSource stream(key, false);
  std::vector<std::uint64_t> words(length);
  stream.fill(std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(words.data()), length * sizeof(std::uint64_t)));
  return words;
}

}  // namespace

SecureAggregation::SecureAggregation(std::size_t clients, std::size_t length, privacy::RandomSource& key_source)
    : clients_(clients), length_(length) {
  if (clients < 2) throw InputError("secure aggregation: " + std::to_string(clients) + " clients, need at least 2");
  if (length == 0) throw InputError("secure aggregation: vector length 0");
  pair_keys_.resize(clients * (clients - 1) / 2);
  for (auto& key : pair_keys_) {
    key_source.fill(std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(key.data()), sizeof(key)));
  }
}

const privacy::ChaChaRandomSource::Key& SecureAggregation::pair_key(std::size_t i, std::size_t j) const {
  // Pairs (i, j), i < j, in row-major order of the strict upper triangle.
  return pair_keys_[i * (2 * clients_ - i - 1) / 2 + (j - i - 1)];
}

std::vector<std::uint64_t> SecureAggregation::mask(std::size_t client, std::span<const std::int64_t> values) const {
  if (client >= clients_) throw InputError("secure aggregation: client " + std::to_string(client) + " out of range");
  if (values.size() != length_) {
    throw InputError("secure aggregation: client " + std::to_string(client) + " sent " + std::to_string(values.size()) +
                     " values, expected " + std::to_string(length_));
  }
  std::vector<std::uint64_t> out(length_);
  for (std::size_t c = 0; c < length_; ++c) out[c] = static_cast<std::uint64_t>(values[c]);  // mod 2^64
  for (std::size_t other = 0; other < clients_; ++other) {
    if (other == client) continue;
    const bool lower = client < other;
    const auto stream = mask_stream(lower ? pair_key(client, other) : pair_key(other, client), length_);
    for (std::size_t c = 0; c < length_; ++c) out[c] = lower ? out[c] + stream[c] : out[c] - stream[c];
  }
  return out;
}

std::vector<std::int64_t> SecureAggregation::sum(const std::vector<std::vector<std::uint64_t>>& masked) const {
  if (masked.size() != clients_) {
    throw InputError("secure aggregation: " + std::to_string(masked.size()) + " of " + std::to_string(clients_) +
                     " clients reported; dropouts are not supported");
  }
  std::vector<std::uint64_t> total(length_, 0);
  for (const auto& vector : masked) {
    if (vector.size() != length_) throw InputError("secure aggregation: a masked vector has the wrong length");
    for (std::size_t c = 0; c < length_; ++c) total[c] += vector[c];
  }
  return std::vector<std::int64_t>(total.begin(), total.end());  // two's complement back to signed
}

}  // namespace dpareto::select
