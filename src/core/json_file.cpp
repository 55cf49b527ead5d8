#include "dpareto/core/json_file.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto {

int json_nesting_depth(const std::string& text) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

nlohmann::json read_json_file(const std::filesystem::path& path, const std::string& what, std::size_t max_bytes) {
  const std::string name = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(name + ": cannot open the " + what);
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(name + ": the " + what + " is not a regular file (a directory, FIFO or device)");
  if (std::filesystem::file_size(path, ec) > max_bytes)
    throw InputError(name + ": the " + what + " is larger than " + std::to_string(max_bytes >> 20) + " MiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(name + ": cannot open the " + what);
  std::stringstream text;
  text << in.rdbuf();
  const std::string content = text.str();
  if (json_nesting_depth(content) > 64) throw InputError(name + ": the " + what + " nests deeper than 64 levels");
  try {
    return nlohmann::json::parse(content);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(name + ": not valid JSON (byte " + std::to_string(e.byte) + ")");
  } catch (const nlohmann::json::exception& e) {  // e.g. a number such as 1e999 that overflows
    throw InputError(name + ": " + printable(e.what()));
  }
}

}  // namespace dpareto
