#include "dpareto/core/random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "dpareto/core/error.hpp"

namespace dpareto {

std::uint64_t os_random_u64() {
  std::uint64_t value = 0;
  auto* out = reinterpret_cast<unsigned char*>(&value);
  std::size_t filled = 0;
  while (filled < sizeof(value)) {
    const ssize_t got = getrandom(out + filled, sizeof(value) - filled, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("getrandom failed: ") + std::strerror(errno));
    }
    filled += static_cast<std::size_t>(got);
  }
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
