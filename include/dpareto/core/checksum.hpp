#pragma once
// SHA-256 of files (libsodium's crypto_hash_sha256), to recognise the same data by its content
// whatever its path: the privacy ledger is kept per dataset this way.
#include <filesystem>
#include <string>

namespace dpareto {

// Lower-case hex SHA-256 of the file's bytes; InputError naming the file if it cannot be read.
std::string sha256_file(const std::filesystem::path& path);

// Lower-case hex SHA-256 of a string.
std::string sha256_text(const std::string& text);

}  // namespace dpareto
