// The hostile corpus (issue 14): files and strings a colleague might send — injections, huge
// declared sizes, truncations, wrong encodings — each fed to the command that reads it. Every case
// ends in a one-line error naming the file or value (exit 2, unless the case says otherwise) or a
// correct result; never a signal, a hang (each run is killed after 120 s), or a command executed
// (no case may create {dir}/MARK). The cases live in tests/data/hostile/cases.json; scripts/sanitize
// runs this suite under AddressSanitizer and UndefinedBehaviorSanitizer.
#include <doctest/doctest.h>
#include <sqlite3.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../support/test_support.hpp"

namespace fs = std::filesystem;
using dpareto::test::read_text;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot hostile_corpus_root("dpareto_hostile_corpus_");
const fs::path corpus = fs::path(DPARETO_TEST_DATA) / "hostile";

std::string substitute(std::string text, const fs::path& dir) {
  for (std::size_t at; (at = text.find("{dir}")) != std::string::npos;) text.replace(at, 5, dir.string());
  for (std::size_t at; (at = text.find("{shared}")) != std::string::npos;)
    text.replace(at, 8, (fs::path(DPARETO_SOURCE_DIR) / ".." / "shared").lexically_normal().string());
  return text;
}

// Arguments for run_cli's shell: each one single-quoted.
std::string quoted(const std::vector<std::string>& args) {
  std::string line;
  for (const auto& a : args) {
    line += " '";
    for (const char c : a) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += "'";
  }
  return line;
}

std::string from_hex(const std::string& hex) {
  std::string bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    while (i < hex.size() && hex[i] == ' ') ++i;
    bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return bytes;
}

std::string gzip(const std::string& bytes) {
  uLongf size = compressBound(static_cast<uLong>(bytes.size())) + 64;
  std::string out(size, '\0');
  z_stream z{};
  REQUIRE(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(size);
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// A file's bytes from its description: {"text": S}, {"hex": H}, {"repeat": [S, N]}, {"lines": [...]}
// or {"corpus": NAME} (a file of tests/data/hostile), then optionally "append"ed text, "gzip"ped
// and cut to "truncate" bytes.
std::string file_bytes(const nlohmann::json& spec, const fs::path& dir) {
  std::string bytes;
  if (spec.contains("text")) bytes = substitute(spec["text"].get<std::string>(), dir);
  if (spec.contains("hex")) bytes = from_hex(spec["hex"].get<std::string>());
  if (spec.contains("lines"))
    for (const auto& line : spec["lines"]) bytes += substitute(line.get<std::string>(), dir) + "\n";
  if (spec.contains("corpus")) bytes = read_text(corpus / spec["corpus"].get<std::string>());
  if (spec.contains("repeat"))
    for (int i = 0; i < spec["repeat"][1].get<int>(); ++i) bytes += spec["repeat"][0].get<std::string>();
  if (spec.contains("append")) bytes += substitute(spec["append"].get<std::string>(), dir);
  if (spec.value("gzip", false)) bytes = gzip(bytes);
  if (spec.contains("truncate")) bytes.resize(std::min(bytes.size(), spec["truncate"].get<std::size_t>()));
  return bytes;
}

void run_sql(const fs::path& db, const std::vector<std::string>& statements) {
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &handle) == SQLITE_OK);
  for (const auto& sql : statements) {
    char* error = nullptr;
    const int rc = sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, &error);
    INFO(sql << ": " << (error ? error : ""));
    sqlite3_free(error);
    CHECK(rc == SQLITE_OK);
  }
  sqlite3_close(handle);
}

std::vector<std::string> args_of(const nlohmann::json& list, const fs::path& dir) {
  std::vector<std::string> args;
  for (const auto& a : list) args.push_back(substitute(a.get<std::string>(), dir));
  return args;
}

// Builds a case's folder: setup commands, files, textual edits, SQL; false (with a failed check)
// when the case itself is broken.
bool prepare(const nlohmann::json& c, const fs::path& dir) {
  for (const auto& setup : c.value("setup", nlohmann::json::array())) {
    const auto prepared = run_cli(quoted(args_of(setup, dir)), dir);
    CHECK_MESSAGE(prepared.status == 0, prepared.output);
    if (prepared.status != 0) return false;
  }
  const auto files = c.value("files", nlohmann::json::object());
  for (const auto& [file, spec] : files.items()) {
    fs::create_directories((dir / file).parent_path());
    std::ofstream(dir / file, std::ios::binary | std::ios::trunc) << file_bytes(spec, dir);
  }
  for (const auto& edit : c.value("replace", nlohmann::json::array())) {  // {"file", "from", "to"}
    const auto file = dir / edit.at("file").get<std::string>();
    const std::string from = edit.at("from");
    std::string text = read_text(file);
    const auto at = text.find(from);
    CHECK_MESSAGE(at != std::string::npos, file << " has no '" << from << "'");
    if (at == std::string::npos) return false;
    text.replace(at, from.size(), substitute(edit.at("to").get<std::string>(), dir));
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
  }
  if (c.contains("sql")) run_sql(dir / c["sql"].at("db").get<std::string>(), c["sql"].at("statements"));
  return true;
}

// The output without the progress lines explore and exact log outside a terminal (one per
// evaluation before the error): the error itself must still be one line.
std::string without_progress(const std::string& output) {
  static const std::regex progress(R"((explore|exact) \S+: [0-9]+/[0-9]+ (evaluations|grid points), .*)");
  std::string kept;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (!std::regex_match(line, progress)) kept += line + "\n";
  return kept;
}

}  // namespace

TEST_CASE("the hostile corpus: one-line errors or correct results, never a signal, a hang or a command run") {
  const auto cases = nlohmann::json::parse(read_text(corpus / "cases.json"));
  REQUIRE(cases.size() >= 40);
  std::vector<std::string> names;
  for (const auto& c : cases) {
    const std::string name = c.at("name");
    INFO("case: " << name);
    CHECK(std::find(names.begin(), names.end(), name) == names.end());
    names.push_back(name);
    const auto dir = hostile_corpus_root.dir("case-" + std::to_string(names.size()));
    if (!prepare(c, dir)) continue;
    const auto r = run_cli(quoted(args_of(c.at("args"), dir)), dir, 120);
    CAPTURE(r.output);
    const int expected = c.value("exit", 2);
    CHECK(r.status == expected);
    if (expected != 0) {
      const std::string error = without_progress(r.output);
      CHECK(std::count(error.begin(), error.end(), '\n') == 1);
      CHECK(error.rfind("dpareto ", 0) == 0);
      CHECK(error.find(": error: ") != std::string::npos);
    }
    for (const auto& needle : c.value("expect", std::vector<std::string>{}))
      CHECK(r.output.find(substitute(needle, dir)) != std::string::npos);
    for (const auto& absent : c.value("absent", std::vector<std::string>{})) CHECK(!fs::exists(dir / absent));
    CHECK_FALSE(fs::exists(dir / "MARK"));
  }
}
