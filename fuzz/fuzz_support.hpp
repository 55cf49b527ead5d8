#pragma once
// What every libFuzzer harness shares (fuzz/<name>.cpp -> fuzz_<name>, docs/fuzzing.md): a scratch
// directory of the process, for parsers that read a path, and the rule each parser must keep: bad
// input ends in a dpareto::Error whose message is one non-empty line (DESIGN.md §2 "Errors").
// Anything else — another exception escaping, a sanitizer report, a multi-line message — aborts,
// and libFuzzer keeps the input as a crash.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>

#include "dpareto/core/error.hpp"
#include "dpareto/space/space_json.hpp"

namespace dpareto::fuzz {

// The bytes libFuzzer made up, as text.
inline std::string_view input_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// `text` split at the first `separator` (the second part empty when there is none): harnesses whose
// parser reads two files take both from one input, and seeds are written the same way.
inline std::pair<std::string_view, std::string_view> split_at(std::string_view text, std::string_view separator) {
  const auto at = text.find(separator);
  if (at == std::string_view::npos) return {text, {}};
  return {text.substr(0, at), text.substr(at + separator.size())};
}

// A directory of this process under $TMPDIR (or /tmp), removed when the process exits normally
// (a crash leaves it, beside the crash input that made it).
inline const std::filesystem::path& scratch_dir() {
  struct ScratchDir {
    std::filesystem::path path;
    ~ScratchDir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const ScratchDir dir{[] {
    std::string pattern = (std::filesystem::temp_directory_path() / "dpareto-fuzz-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
      std::perror("dpareto fuzz: mkdtemp");
      std::abort();
    }
    return std::filesystem::path(pattern);
  }()};
  return dir.path;
}

// Writes `bytes` to scratch_dir()/name (the same file for every input) and returns its path.
inline std::filesystem::path write_scratch(const std::string& name, std::string_view bytes) {
  const auto path = scratch_dir() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    std::perror(("dpareto fuzz: cannot write " + path.string()).c_str());
    std::abort();
  }
  return path;
}

// An error message must be one non-empty line.
inline void check_message(const char* what) {
  const std::string_view message(what);
  if (message.empty() || message.find_first_of("\n\r") != std::string_view::npos) {
    std::fprintf(stderr, "dpareto fuzz: error message is not one non-empty line: [%s]\n", what);
    std::abort();
  }
}

// Runs `parse`; a dpareto::Error it throws must carry a one-line message. Returns true when
// `parse` returned normally.
template <typename Parse>
bool parses_or_refuses(Parse&& parse) {
  try {
    parse();
    return true;
  } catch (const dpareto::Error& e) {
    check_message(e.what());
    return false;
  }
}

// The example oracle's space (experiments/example_oracle_space.json: a log-scale, an integer and a
// linear parameter), for the harnesses of text parsed against a space.
inline const space::Space& example_oracle_space() {
  static const auto space = space::space_from_json(nlohmann::json::parse(R"({"parameters": [
      {"name": "lr", "kind": "continuous", "low": 0.001, "high": 1, "scale": "log"},
      {"name": "epochs", "kind": "integer", "low": 1, "high": 50},
      {"name": "noise", "kind": "continuous", "low": 0.5, "high": 20}]})"),
                                                   "fuzz space");
  return space;
}

}  // namespace dpareto::fuzz
