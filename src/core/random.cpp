#include "dpareto/core/random.hpp"

#include <sodium.h>

#include "dpareto/core/sodium.hpp"

namespace dpareto {

std::uint64_t os_random_u64() {
  ensure_sodium();
  std::uint64_t value = 0;
  randombytes_buf(&value, sizeof(value));  // the kernel CSPRNG (getrandom) through libsodium
  return value;
}

Rng make_rng(std::optional<std::uint64_t> seed) {
  return Rng(seed ? *seed : os_random_u64());
}

std::uint64_t derive_seed(std::uint64_t base, std::uint64_t stream) {
  std::uint64_t z = base + 0x9E3779B97F4A7C15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace dpareto
