#pragma once
// Secure summation by pairwise additive masks (Bonawitz et al. 2017, "Practical Secure Aggregation
// for Privacy-Preserving Machine Learning", the masking round without dropouts), as DP-HYPE uses it
// (Liebenow et al. 2025, Fig. 1): the server sees only masked vectors and their exact sum.
//
// Values are fixed-point integers (int64 grid values) carried as uint64 residues mod 2^64. Every
// pair i < j shares a 256-bit key; its mask stream is the ChaCha20 keystream under that key,
// read as uint64 words. Client i adds the streams of pairs (i, j > i) and subtracts those of
// pairs (j < i, i), so the masks cancel exactly in the sum mod 2^64. The pairwise keys are drawn
// here from one RandomSource: this *simulates* the key agreement (Diffie–Hellman in the real
// protocol), which is out of scope for a single-process tool.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "dpareto/privacy/secure_noise.hpp"

namespace dpareto::select {

class SecureAggregation {
 public:
  // Draws the clients·(clients−1)/2 pairwise keys from `key_source`; throws InputError for fewer
  // than 2 clients or length 0.
  SecureAggregation(std::size_t clients, std::size_t length, privacy::RandomSource& key_source);

  // What client `client` sends: its grid values mod 2^64 plus its masks.
  std::vector<std::uint64_t> mask(std::size_t client, std::span<const std::int64_t> values) const;

  // The server's sum of all clients' masked vectors, read back as signed grid values; exact as
  // long as every true sum lies in [−2^63, 2^63). Throws InputError unless all clients are present.
  std::vector<std::int64_t> sum(const std::vector<std::vector<std::uint64_t>>& masked) const;

  std::size_t clients() const { return clients_; }
  std::size_t length() const { return length_; }

 private:
  const privacy::ChaChaRandomSource::Key& pair_key(std::size_t i, std::size_t j) const;  // i < j

  std::size_t clients_;
  std::size_t length_;
  std::vector<privacy::ChaChaRandomSource::Key> pair_keys_;
};

}  // namespace dpareto::select
