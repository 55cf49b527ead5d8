// study::StudyDatabase::open on a study whose metadata and evaluation rows are made up: what
// `dpareto status`, `export` and a resume read from a study file someone else may have edited.
// Each process creates one valid study (a template); each input is applied to a fresh copy of it
// through SQLite, then the copy is opened read-only and its completed records listed.
// Input: lines of tab-separated fields,
//   meta KEY VALUE           sets study_meta's KEY (format, version, identity, run_info, config, ...)
//   row F1 ... F17           sets an evaluations row (trial, completion, phase, status, params,
//                            epsilon, delta, utility, utility_min, utility_max, seconds, started_at,
//                            finished_at, message, seed, worker, unfinished_starts); a field is
//                            NULL, i:INTEGER, r:REAL or else text; missing fields are NULL.
// A line SQLite refuses (a NOT NULL or CHECK constraint) is skipped, as an editor could not write it.
#include <sqlite3.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <vector>

#include "dpareto/study/study_database.hpp"
#include "fuzz_support.hpp"

namespace {

namespace fs = std::filesystem;
using dpareto::study::StudyDatabase;

constexpr int kRowColumns = 17;

// The bytes of a valid, empty study (two parameters, the default objectives).
const std::string& template_study() {
  static const std::string bytes = [] {
    const auto path = dpareto::fuzz::scratch_dir() / "template.db";
    {
      dpareto::study::StudyIdentity identity{"svt", {{"n", "100"}}, nlohmann::json::object()};
      dpareto::study::RunInfo info;
      info.problem = "svt";
      info.method = "dpareto";
      info.seed = 1;
      info.parameter_names = {"bound", "noise"};
      StudyDatabase::create(path.string(), identity, info, nlohmann::json::object());
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
  }();
  return bytes;
}

std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> fields;
  for (;;) {
    const auto tab = line.find('\t');
    fields.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) return fields;
    line.remove_prefix(tab + 1);
  }
}

void bind_field(sqlite3_stmt* st, int i, std::string_view f) {
  long long n = 0;
  double x = 0;
  const auto rest = f.substr(std::min<std::size_t>(2, f.size()));
  if (f == "NULL") {
    sqlite3_bind_null(st, i);
  } else if (f.starts_with("i:") &&
             std::from_chars(rest.data(), rest.data() + rest.size(), n).ptr == rest.data() + rest.size()) {
    sqlite3_bind_int64(st, i, n);
  } else if (f.starts_with("r:") &&
             std::from_chars(rest.data(), rest.data() + rest.size(), x).ptr == rest.data() + rest.size()) {
    sqlite3_bind_double(st, i, x);
  } else {
    sqlite3_bind_text(st, i, f.data(), static_cast<int>(f.size()), SQLITE_TRANSIENT);
  }
}

void apply(sqlite3* db, std::string_view input) {
  std::string row_sql = "INSERT OR REPLACE INTO evaluations VALUES (?";
  for (int i = 1; i < kRowColumns; ++i) row_sql += ", ?";
  row_sql += ")";
  while (!input.empty()) {
    const auto newline = input.find('\n');
    const auto fields = fields_of(input.substr(0, newline));
    input.remove_prefix(newline == std::string_view::npos ? input.size() : newline + 1);
    const bool meta = fields[0] == "meta" && fields.size() >= 3;
    if (!meta && fields[0] != "row") continue;
    sqlite3_stmt* st = nullptr;
    const std::string sql = meta ? "INSERT OR REPLACE INTO study_meta(key, value) VALUES (?, ?)" : row_sql;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) std::abort();
    const int count = meta ? 2 : kRowColumns;
    for (int i = 1; i <= count; ++i)
      if (static_cast<std::size_t>(i) < fields.size())
        bind_field(st, i, fields[static_cast<std::size_t>(i)]);
      else
        sqlite3_bind_null(st, i);
    sqlite3_step(st);  // a constraint refused: the line is skipped
    sqlite3_finalize(st);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& bytes = template_study();
  const auto path = dpareto::fuzz::write_scratch("study.db", bytes).string();
  std::error_code ec;
  fs::remove(path + "-wal", ec);
  fs::remove(path + "-shm", ec);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) std::abort();
  // One transaction, no fsync: the edit is the harness's, its durability is beside the point.
  sqlite3_exec(db, "PRAGMA synchronous=OFF; BEGIN", nullptr, nullptr, nullptr);
  apply(db, dpareto::fuzz::input_text(data, size));
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_close_v2(db);
  dpareto::fuzz::parses_or_refuses([&] {
    const auto study = StudyDatabase::open(path, StudyDatabase::Access::read_only);
    study.completed();
    study.abandoned_trials();
  });
  return 0;
}
