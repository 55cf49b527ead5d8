#include "dpareto/core/atomic_file.hpp"

#include <fstream>

#include "dpareto/core/error.hpp"

namespace dpareto {

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError("cannot write " + tmp.string());
    out << content;
    if (!out.flush()) throw InputError("cannot write " + tmp.string());
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw InputError("cannot replace " + path.string() + " (" + ec.message() + ")");
}

}  // namespace dpareto
