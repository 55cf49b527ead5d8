#include "dpareto/select/release_directory.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "dpareto/core/error.hpp"
#include "dpareto/select/model_file.hpp"

namespace dpareto::select {
namespace fs = std::filesystem;

namespace {
bool is_release_file(const fs::path& name) {
  return name == "certificate.json" || name == "model.bin";
}
}  // namespace

void check_release_directory(const fs::path& dir) {
  std::error_code ec;
  const auto status = fs::symlink_status(dir, ec);
  if (ec || !fs::exists(status)) return;
  if (!fs::is_directory(status))
    throw InputError("--out " + dir.string() + " exists and is not a directory (tune writes a directory)");
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!is_release_file(entry.path().filename()) || !entry.is_regular_file())
      throw InputError("--out " + dir.string() + " holds " + entry.path().filename().string() +
                       ", which is not a tune release: tune replaces only its own output (choose another --out)");
  }
  if (ec) throw InputError("--out " + dir.string() + ": cannot list it (" + ec.message() + ")");
}

void write_release_directory(const fs::path& dir, const nlohmann::json& certificate, const std::string& architecture,
                             const std::optional<Eigen::VectorXf>& weights) {
  check_release_directory(dir);
  const fs::path target = fs::absolute(dir).lexically_normal();
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  std::string pattern = target.string() + ".tmp-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw InputError("--out " + dir.string() + ": cannot create a directory beside it (" + std::strerror(errno) + ")");
  const fs::path staging(pattern);
  try {
    if (weights) write_model_file((staging / "model.bin").string(), {architecture, *weights});
    std::ofstream cert(staging / "certificate.json");
    cert << certificate.dump(2) << "\n";
    if (!cert.flush()) throw InputError("--out " + dir.string() + ": cannot write certificate.json");
    cert.close();
    if (!cert) throw InputError("--out " + dir.string() + ": cannot write certificate.json");
    if (fs::exists(target)) {
      // Swap the directories in one step: DIR holds the old or the new release, never a mix.
      if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0)
        throw InputError("--out " + dir.string() + ": cannot replace it (" + std::strerror(errno) + ")");
    } else if (::rename(staging.c_str(), target.c_str()) != 0) {
      throw InputError("--out " + dir.string() + ": cannot create it (" + std::strerror(errno) + ")");
    }
  } catch (...) {
    fs::remove_all(staging, ec);
    throw;
  }
  fs::remove_all(staging, ec);  // after an exchange: the previous release
}

}  // namespace dpareto::select
