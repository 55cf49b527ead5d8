#include "dpareto/core/checksum.hpp"

#include <sodium.h>

#include <array>
#include <fstream>

#include "dpareto/core/error.hpp"
#include "dpareto/core/sodium.hpp"

namespace dpareto {
namespace {

std::string hex(const unsigned char* digest) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < crypto_hash_sha256_BYTES; ++i) {
    out += digits[digest[i] >> 4];
    out += digits[digest[i] & 15];
  }
  return out;
}

}  // namespace

std::string sha256_file(const std::filesystem::path& path) {
  ensure_sodium();
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path)) throw InputError("cannot read " + path.string() + " to checksum it");
  crypto_hash_sha256_state state;
  crypto_hash_sha256_init(&state);
  std::array<char, 1 << 16> buffer{};
  while (in) {
    in.read(buffer.data(), buffer.size());
    const auto got = in.gcount();
    if (got > 0)
      crypto_hash_sha256_update(&state, reinterpret_cast<const unsigned char*>(buffer.data()),
                                static_cast<unsigned long long>(got));
  }
  if (in.bad()) throw InputError("read error in " + path.string() + " while checksumming it");
  std::array<unsigned char, crypto_hash_sha256_BYTES> digest{};
  crypto_hash_sha256_final(&state, digest.data());
  return hex(digest.data());
}

std::string sha256_text(const std::string& text) {
  ensure_sodium();
  std::array<unsigned char, crypto_hash_sha256_BYTES> digest{};
  crypto_hash_sha256(digest.data(), reinterpret_cast<const unsigned char*>(text.data()), text.size());
  return hex(digest.data());
}

}  // namespace dpareto
