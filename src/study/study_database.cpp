#include "dpareto/study/study_database.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>

#include "dpareto/core/error.hpp"
#include "dpareto/core/file_lock.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/study/storage_registry.hpp"
#include "process_liveness.hpp"
#include "trial_text.hpp"

namespace dpareto::study {
namespace fs = std::filesystem;
namespace {

constexpr const char* kFormat = "dpareto-study";
constexpr int kVersion = 2;

// The evaluations table has one REAL column per objective column (epsilon, delta, utility, ...),
// quoted: a declared objective's name (an identifier, pareto::declared_objective) may be an SQL keyword.
std::string schema(const pareto::Objectives& objectives) {
  std::string columns;
  for (const auto& c : objectives.columns()) columns += "\"" + c + "\" REAL, ";
  return R"(
CREATE TABLE study_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE evaluations(
  trial INTEGER PRIMARY KEY,
  completion INTEGER UNIQUE,
  phase TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
  params TEXT NOT NULL,
  )" + columns +
         R"(seconds REAL,
  started_at REAL NOT NULL, finished_at REAL,
  message TEXT NOT NULL DEFAULT '',
  seed TEXT NOT NULL,
  worker TEXT,
  unfinished_starts INTEGER NOT NULL DEFAULT 0);
)";
}

// "a, b, c" and "a = ?, b = ?, c = ?" of the objectives' columns.
std::string column_list(const pareto::Objectives& objectives, const std::string& suffix) {
  std::string list;
  for (const auto& c : objectives.columns()) list += std::string(list.empty() ? "" : ", ") + "\"" + c + "\"" + suffix;
  return list;
}

// A prepared statement that finalizes itself.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, const std::string& where) : db_(db) {
    const int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr);
    if (rc != SQLITE_OK) fail(rc, where);
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(int i, double v) {
    if (std::isnan(v))
      sqlite3_bind_null(stmt_, i);
    else
      sqlite3_bind_double(stmt_, i, v);
    return *this;
  }
  Statement& bind_int(int i, long long v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  // True while there is a row.
  bool step(const std::string& where) {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(rc, where);
  }
  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  double real(int col) const {
    return is_null(col) ? std::numeric_limits<double>::quiet_NaN() : sqlite3_column_double(stmt_, col);
  }
  long long integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string();
  }
  int type(int col) const { return sqlite3_column_type(stmt_, col); }
  // Ready to run again, with new bindings.
  void reset() { sqlite3_reset(stmt_); }

  [[noreturn]] void fail(int rc, const std::string& where) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// Turns an SQLite error into a one-line message naming the file.
[[noreturn]] void throw_sqlite(sqlite3* db, int rc, const std::string& where) {
  const int primary = rc & 0xff;
  if (primary == SQLITE_NOTADB) throw InputError(where + ": not an SQLite database (not a dpareto study)");
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
    throw InputError(where + ": database is locked by another process");
  if (primary == SQLITE_CORRUPT) throw InputError(where + ": database is corrupt (" + sqlite3_errmsg(db) + ")");
  if (primary == SQLITE_CANTOPEN) throw InputError(where + ": cannot open database (" + sqlite3_errmsg(db) + ")");
  if (primary == SQLITE_READONLY) throw InputError(where + ": database is read-only (" + sqlite3_errmsg(db) + ")");
  throw Error(where + ": " + sqlite3_errmsg(db));
}

void Statement::fail(int rc, const std::string& where) const {
  throw_sqlite(db_, rc, where);
}

// BEGIN IMMEDIATE ... COMMIT, rolled back when left by an exception.
class Transaction {
 public:
  Transaction(sqlite3* db, const std::string& where) : db_(db), where_(where) { run("BEGIN IMMEDIATE"); }
  ~Transaction() {
    if (!committed_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    run("COMMIT");
    committed_ = true;
  }

 private:
  void run(const char* sql) {
    const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) throw_sqlite(db_, rc, where_);
  }
  sqlite3* db_;
  std::string where_;
  bool committed_ = false;
};

}  // namespace

nlohmann::json run_info_to_json(const RunInfo& info) {
  nlohmann::json j = {{"problem", info.problem},
                      {"method", info.method},
                      {"seed", info.seed ? nlohmann::json(std::to_string(*info.seed)) : nlohmann::json(nullptr)},
                      {"parameters", info.parameter_names},
                      {"hv_axis", info.hv_axis},
                      {"log_floor", info.log_floor},
                      {"extra", info.extra}};
  objectives_to_json(info.objectives, j);
  return j;
}

RunInfo run_info_from_json(const nlohmann::json& v, const std::string& source) {
  RunInfo info;
  try {
    info.problem = v.at("problem").get<std::string>();
    info.method = v.at("method").get<std::string>();
    if (!v.at("seed").is_null()) info.seed = parse_seed(v.at("seed").get<std::string>(), source);
    info.parameter_names = v.at("parameters").get<std::vector<std::string>>();
    info.objectives = objectives_from_json(v, source);
    info.hv_axis = v.at("hv_axis").get<std::string>();
    info.log_floor = v.at("log_floor").get<double>();
    info.extra = v.at("extra");
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": malformed run information (" + e.what() + ")");
  }
  return info;
}

StudyDatabase::StudyDatabase(std::string path, sqlite3* db, std::optional<FileLock> lock)
    : path_(std::move(path)), lock_(std::move(lock)), db_(db) {}

StudyDatabase::StudyDatabase(StudyDatabase&& o) noexcept
    : path_(std::move(o.path_)),
      lock_(std::move(o.lock_)),
      db_(o.db_),
      identity_(std::move(o.identity_)),
      info_(std::move(o.info_)),
      config_(std::move(o.config_)),
      explorer_state_(std::move(o.explorer_state_)),
      trials_(std::move(o.trials_)),
      private_copy_(std::move(o.private_copy_)) {
  o.db_ = nullptr;
  o.private_copy_.clear();
}

StudyDatabase::~StudyDatabase() {
  // lock_ is released after this body: after SQLite has closed, as closing any descriptor of the
  // file releases the process's fcntl locks, SQLite's included.
  if (db_) sqlite3_close_v2(db_);
  std::error_code ec;
  if (!private_copy_.empty()) fs::remove_all(private_copy_, ec);
}

std::string StudyDatabase::where() const {
  return "study " + path_;
}

bool StudyDatabase::exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && st.st_size > 0;
}

namespace {

// Copies a study file and its write-ahead log into a new private directory; returns the directory.
std::string copy_for_reading(const std::string& path) {
  std::string dir = (fs::temp_directory_path() / "dpareto-study-XXXXXX").string();
  if (!::mkdtemp(dir.data()))
    throw InputError("study " + path + ": cannot make a private copy to read (" + std::strerror(errno) + ")");
  std::error_code ec;
  fs::copy_file(path, dir + "/study.db", ec);
  if (!ec && fs::exists(path + "-wal")) fs::copy_file(path + "-wal", dir + "/study.db-wal", ec);
  if (ec) {
    fs::remove_all(dir);
    throw InputError("study " + path + ": cannot make a private copy to read (" + ec.message() + ")");
  }
  return dir;
}

// The lock of a writer: shared by the processes writing the study, exclusive while one creates it
// or sets it aside (readers take none).
FileLock take_run_lock(const std::string& path, bool create) {
  return FileLock(path, O_RDWR | (create ? O_CREAT : 0), FileLock::Wait::no, "study " + path,
                  create ? FileLock::Mode::exclusive : FileLock::Mode::shared);
}

// A study's format version, as its metadata holds it: refused unless current.
void check_version(const std::string& version, const std::string& where) {
  const std::string current = std::to_string(kVersion);
  if (version == current) return;
  if (version == "1")
    throw InputError(where + ": study format version 1 was written by an older dpareto (this one writes version " +
                     current + "); migrate it with: dpareto study upgrade " + where.substr(6));
  throw InputError(where + ": study format version " + printable(version) +
                   " is not supported (this dpareto reads version " + current + ")");
}

sqlite3* open_sqlite(const std::string& path, int flags) {
  // A writer waits for the other writers' short transactions; a reader gives up sooner.
  const int busy_milliseconds = (flags & SQLITE_OPEN_READWRITE) ? 30000 : 2000;
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    const std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close_v2(db);
    throw InputError("study " + path + ": cannot open database (" + msg + ")");
  }
  sqlite3_busy_timeout(db, busy_milliseconds);
  sqlite3_extended_result_codes(db, 1);
  return db;
}

}  // namespace

StudyDatabase StudyDatabase::create(const std::string& path, const StudyIdentity& identity, const RunInfo& info,
                                    const nlohmann::json& config) {
  if (exists(path)) throw InputError("study " + path + ": already exists");
  auto lock = take_run_lock(path, true);
  StudyDatabase s(path, open_sqlite(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE), std::move(lock));
  s.exec("PRAGMA journal_mode=WAL");
  s.exec("PRAGMA synchronous=NORMAL");
  s.initialize(identity, info, config);
  s.lock_->share();  // created: other processes may now join it
  return s;
}

StudyDatabase StudyDatabase::in_memory(const StudyIdentity& identity, const RunInfo& info,
                                       const nlohmann::json& config) {
  StudyDatabase s(":memory:", open_sqlite(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY), std::nullopt);
  s.initialize(identity, info, config);
  return s;
}

void StudyDatabase::initialize(const StudyIdentity& identity, const RunInfo& info, const nlohmann::json& config) {
  Transaction transaction(db_, where());
  exec(schema(info.objectives));
  set_meta("format", kFormat);
  set_meta("version", std::to_string(kVersion));
  set_meta(
      "identity",
      nlohmann::json{{"problem", identity.problem}, {"settings", identity.settings}, {"space", identity.space}}.dump());
  set_meta("run_info", run_info_to_json(info).dump());
  set_meta("config", config.dump());
  set_meta("explorer_state", "null");
  set_meta("created_at", format_number(now_unix()));
  transaction.commit();
  identity_ = identity;
  info_ = info;
  config_ = config;
}

StudyDatabase StudyDatabase::open(const std::string& path, Access access) {
  if (!exists(path)) throw InputError("study " + path + ": no such study (missing or empty file)");
  const bool write = access == Access::read_write;
  std::optional<FileLock> lock;
  if (write) lock.emplace(take_run_lock(path, false));
  // SQLite reads a WAL database only where it can create the log's index (PATH-shm) or finds it: a
  // study in a directory this user cannot write is read from a private copy.
  const std::string directory = fs::path(path).has_parent_path() ? fs::path(path).parent_path().string() : ".";
  const bool private_copy = !write && ::access(directory.c_str(), W_OK) != 0 && !fs::exists(path + "-shm");
  const std::string copy_dir = private_copy ? copy_for_reading(path) : std::string();
  const std::string file = private_copy ? copy_dir + "/study.db" : path;
  StudyDatabase s(path, open_sqlite(file, write || private_copy ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY),
                  std::move(lock));
  s.private_copy_ = copy_dir;
  s.load();  // reads and validates only: nothing is written to a file that is not a valid study
  if (write) {
    s.exec("PRAGMA journal_mode=WAL");
    s.exec("PRAGMA synchronous=NORMAL");
  }
  return s;
}

void StudyDatabase::exec(const std::string& sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  sqlite3_free(err);
  if (rc != SQLITE_OK) throw_sqlite(db_, rc, where());
}

void StudyDatabase::set_meta(const std::string& key, const std::string& value) {
  Statement st(db_, "INSERT OR REPLACE INTO study_meta(key, value) VALUES (?, ?)", where());
  st.bind(1, key).bind(2, value).step(where());
}

void StudyDatabase::load() {
  {
    Statement tables(db_, "SELECT name FROM sqlite_master WHERE type = 'table'", where());
    std::set<std::string> names;
    while (tables.step(where())) names.insert(tables.text(0));
    if (!names.count("study_meta") || !names.count("evaluations"))
      throw InputError(where() + ": an SQLite database but not a dpareto study (no study_meta/evaluations tables)");
  }
  std::map<std::string, std::string> meta;
  {
    Statement st(db_, "SELECT key, value FROM study_meta", where());
    while (st.step(where())) meta[st.text(0)] = st.text(1);
  }
  for (const char* key : {"format", "version", "identity", "run_info", "config", "explorer_state"})
    if (!meta.count(key)) throw InputError(where() + ": corrupt metadata: no '" + key + "' entry");
  if (meta["format"] != kFormat)
    throw InputError(where() + ": not a dpareto study (format '" + printable(meta["format"]) + "')");
  check_version(meta["version"], where());
  const auto identity = parse_json(meta["identity"], where() + ": metadata 'identity'");
  try {
    identity_.problem = identity.at("problem").get<std::string>();
    identity_.settings = identity.at("settings");
    identity_.space = identity.at("space");
  } catch (const nlohmann::json::exception&) {
    throw InputError(where() + ": corrupt metadata 'identity'");
  }
  info_ = run_info_from_json(parse_json(meta["run_info"], where() + ": metadata 'run_info'"),
                             where() + ": metadata 'run_info'");
  config_ = parse_json(meta["config"], where() + ": metadata 'config'");
  explorer_state_ = parse_json(meta["explorer_state"], where() + ": metadata 'explorer_state'");
  load_trials();
}

void StudyDatabase::load_trials() {
  const auto columns = info_.objectives.columns();
  const int last_number = 5 + static_cast<int>(columns.size());  // the seconds column
  Statement st(db_,
               "SELECT trial, completion, phase, status, params, " + column_list(info_.objectives, "") +
                   ", seconds, started_at, finished_at, message, seed, worker, unfinished_starts FROM evaluations "
                   "WHERE " +
                   kChangedRows + " ORDER BY trial",
               where());
  st.bind_int(1, static_cast<long long>(trials_.size())).bind_int(2, last_completion(trials_));
  std::vector<Trial> trials = trials_;
  while (st.step(where())) {
    Trial t;
    t.trial = static_cast<int>(st.integer(0));
    const std::string row = where() + ": corrupt row (trial " + std::to_string(t.trial) + ")";
    auto& r = t.record;
    r.phase = st.text(2);
    r.status = parse_evaluation_status(st.text(3), row);
    if (!st.is_null(1)) {
      if (st.type(1) != SQLITE_INTEGER || st.integer(1) < 1 || st.integer(1) > 1000000000)
        throw InputError(row + ": invalid completion number '" + printable(st.text(1)) + "'");
      r.id = static_cast<int>(st.integer(1));
    }
    r.params = parse_params(st.text(4), info_.parameter_names.size(), row);
    for (int col = 5; col <= last_number; ++col)
      if (!st.is_null(col) && st.type(col) != SQLITE_FLOAT && st.type(col) != SQLITE_INTEGER)
        throw InputError(row + ": column " + std::to_string(col + 1) + " holds '" + printable(st.text(col)) +
                         "', not a number");
    for (std::size_t k = 0; k < columns.size(); ++k) r.column(columns[k]) = st.real(5 + static_cast<int>(k));
    r.seconds = st.real(last_number);
    check_trial(t, !st.is_null(1), row);
    t.started_at = st.real(last_number + 1);
    t.finished_at = st.real(last_number + 2);
    r.message = st.text(last_number + 3);
    r.seed = parse_seed(st.text(last_number + 4), row);
    t.worker = st.text(last_number + 5);
    const int starts_column = last_number + 6;
    if (st.type(starts_column) != SQLITE_INTEGER || st.integer(starts_column) < 0 ||
        st.integer(starts_column) > 1000000)
      throw InputError(row + ": unfinished_starts '" + printable(st.text(starts_column)) + "' is not a start count");
    t.unfinished_starts = static_cast<int>(st.integer(starts_column));
    // A running trial's process is alive (heartbeat age 0) or gone (never heard of again).
    t.heartbeat_age = r.status == EvaluationStatus::running && !t.worker.empty() && process_alive(t.worker)
                          ? 0
                          : std::numeric_limits<double>::infinity();
    place_trial(trials, std::move(t), row);
  }
  check_completion_numbers(trials, where());
  trials_ = std::move(trials);
}

void StudyDatabase::refresh() {
  if (!shared()) return;
  std::map<std::string, std::string> meta;
  Statement st(db_, "SELECT key, value FROM study_meta WHERE key IN ('run_info', 'explorer_state')", where());
  while (st.step(where())) meta[st.text(0)] = st.text(1);
  info_ = run_info_from_json(parse_json(meta["run_info"], where() + ": metadata 'run_info'"),
                             where() + ": metadata 'run_info'");
  explorer_state_ = parse_json(meta["explorer_state"], where() + ": metadata 'explorer_state'");
  load_trials();
}

std::vector<int> StudyDatabase::abandoned_trials() const {
  std::vector<int> out;
  for (const auto& t : trials_)
    if (t.record.status == EvaluationStatus::running && t.worker != this_process() && !(t.heartbeat_age == 0))
      out.push_back(t.trial);
  return out;
}

namespace {

// The proposal lock of a shared study: an exclusive flock on STUDY.lock, waited for.
class StudyFileLock : public ProposalLock {
 public:
  explicit StudyFileLock(const std::string& path)
      : lock_(path + ".lock", O_RDWR | O_CREAT, FileLock::Wait::yes, "study " + path) {}

 private:
  FileLock lock_;
};

}  // namespace

std::unique_ptr<ProposalLock> StudyDatabase::lock_proposals() {
  if (!shared()) return nullptr;
  return std::make_unique<StudyFileLock>(path_);
}

bool StudyDatabase::claim_trial(int trial) {
  Transaction transaction(db_, where());
  Statement current(db_, "SELECT status, worker FROM evaluations WHERE trial = ?", where());
  current.bind_int(1, trial);
  if (!current.step(where())) return false;
  const std::string worker = current.text(1);
  if (current.text(0) != "running" || (!worker.empty() && worker != this_process() && process_alive(worker)))
    return false;
  Statement claim(db_, "UPDATE evaluations SET worker = ? WHERE trial = ?", where());
  claim.bind(1, this_process()).bind_int(2, trial).step(where());
  transaction.commit();
  load_trials();
  return true;
}

int StudyDatabase::begin_trial(const std::string& phase, const std::vector<double>& params, std::uint64_t seed,
                               const nlohmann::json& explorer_state) {
  const double started = now_unix();
  int trial = 0;
  {
    Transaction transaction(db_, where());
    Statement next(db_, "SELECT COALESCE(MAX(trial), -1) + 1 FROM evaluations", where());
    next.step(where());
    trial = static_cast<int>(next.integer(0));
    Statement st(db_,
                 "INSERT INTO evaluations(trial, phase, status, params, started_at, seed, worker, unfinished_starts) "
                 "VALUES (?, ?, 'running', ?, ?, ?, ?, 1)",
                 where());
    st.bind_int(1, trial).bind(2, phase).bind(3, params_text(params)).bind(4, started);
    st.bind(5, std::to_string(seed)).bind(6, this_process()).step(where());
    set_meta("explorer_state", explorer_state.dump());
    transaction.commit();
  }
  explorer_state_ = explorer_state;
  load_trials();
  return trial;
}

void StudyDatabase::restart_trial(int trial) {
  Transaction transaction(db_, where());
  Statement st(db_, "UPDATE evaluations SET started_at = ?, unfinished_starts = unfinished_starts + 1 WHERE trial = ?",
               where());
  st.bind(1, now_unix()).bind_int(2, trial).step(where());
  transaction.commit();
  load_trials();
}

void StudyDatabase::release_trial(int trial) {
  Transaction transaction(db_, where());
  Statement st(db_,
               "UPDATE evaluations SET unfinished_starts = MAX(unfinished_starts - 1, 0), worker = NULL "
               "WHERE trial = ? AND status = 'running'",
               where());
  st.bind_int(1, trial).step(where());
  transaction.commit();
  load_trials();
}

const EvaluationRecord& StudyDatabase::finish_trial(int trial, const EvaluationRecord& result, const nlohmann::json&) {
  // The explorer state changes only when it asks (saved by begin_trial, under the proposal lock): a
  // completion never overwrites what another process's ask saved.
  // Committed transactions always survive a killed process (WAL, synchronous=NORMAL). The result of
  // an evaluation that took a second or more is also fsynced (synchronous=FULL) so that a power cut
  // cannot lose it either; its few milliseconds are then under 1% of the evaluation.
  const bool expensive = result.seconds >= 1;
  if (expensive) exec("PRAGMA synchronous=FULL");
  {
    Transaction transaction(db_, where());
    Statement current(db_, "SELECT status FROM evaluations WHERE trial = ?", where());
    current.bind_int(1, trial);
    if (!current.step(where())) throw Error(where() + ": no trial " + std::to_string(trial));
    // The first completion of a running trial is recorded; a second (another process took it over
    // and finished first) records nothing.
    if (current.text(0) == "running") {
      Statement next(db_, "SELECT COALESCE(MAX(completion), 0) + 1 FROM evaluations", where());
      next.step(where());
      const long long completion = next.integer(0);
      const auto columns = info_.objectives.columns();
      const double finished = now_unix();
      // The params too where they are given: a training stopped early measured fewer epochs.
      const bool params = !result.params.empty();
      Statement st(db_,
                   "UPDATE evaluations SET completion = ?, status = ?, " + column_list(info_.objectives, " = ?") +
                       ", seconds = ?, finished_at = ?, message = ?, unfinished_starts = 0" +
                       (params ? ", params = ?" : "") + " WHERE trial = ?",
                   where());
      st.bind_int(1, completion).bind(2, to_string(result.status));
      int i = 3;
      for (const auto& c : columns) st.bind(i++, result.column(c));
      st.bind(i, result.seconds).bind(i + 1, finished).bind(i + 2, result.message);
      i += 3;
      if (params) st.bind(i++, params_text(result.params));
      st.bind_int(i, trial);
      st.step(where());
      if (result.ok() && !result.intermediate.empty()) {
        Statement seed(db_, "SELECT seed FROM evaluations WHERE trial = ?", where());
        seed.bind_int(1, trial).step(where());
        EvaluationRecord evaluation;
        evaluation.id = static_cast<int>(completion);
        evaluation.seed = parse_seed(seed.text(0), where() + ": trial " + std::to_string(trial));
        Statement last(db_, "SELECT MAX(trial) FROM evaluations", where());
        last.step(where());
        long long next_trial = last.integer(0) + 1;
        std::string placeholders;
        for (std::size_t k = 0; k < columns.size(); ++k) placeholders += "?, ";
        Statement insert(db_,
                         "INSERT INTO evaluations(trial, completion, phase, status, params, " +
                             column_list(info_.objectives, "") +
                             ", seconds, started_at, finished_at, message, seed, unfinished_starts) "
                             "VALUES (?, ?, ?, ?, ?, " +
                             placeholders + "?, ?, ?, ?, ?, 0)",
                         where());
        long long number = completion;
        for (const EvaluationRecord& measured : result.intermediate) {
          const EvaluationRecord r = intermediate_of(measured, evaluation);
          insert.reset();
          insert.bind_int(1, next_trial++).bind_int(2, ++number).bind(3, r.phase).bind(4, to_string(r.status));
          insert.bind(5, params_text(r.params));
          int k = 6;
          for (const auto& c : columns) insert.bind(k++, r.column(c));
          insert.bind(k, r.seconds).bind(k + 1, finished).bind(k + 2, finished).bind(k + 3, r.message);
          insert.bind(k + 4, std::to_string(r.seed)).step(where());
        }
      }
    }
    transaction.commit();
  }
  if (expensive) exec("PRAGMA synchronous=NORMAL");
  load_trials();
  return trials_.at(static_cast<std::size_t>(trial)).record;
}

void StudyDatabase::set_explorer_state(const nlohmann::json& state) {
  set_meta("explorer_state", state.dump());
  explorer_state_ = state;
}

void StudyDatabase::set_run_info(const RunInfo& info) {
  set_meta("run_info", run_info_to_json(info).dump());
  info_ = info;
}

int StudyDatabase::upgrade(const std::string& path) {
  if (!exists(path)) throw InputError("study " + path + ": no such study (missing or empty file)");
  const FileLock lock(path, O_RDWR, FileLock::Wait::no, "study " + path);  // no other process uses it
  StudyDatabase s(path, open_sqlite(path, SQLITE_OPEN_READWRITE), std::nullopt);
  std::string version;
  {
    Statement st(s.db_, "SELECT value FROM study_meta WHERE key = 'version'", s.where());
    if (!st.step(s.where())) throw InputError(s.where() + ": not a dpareto study (no format version)");
    version = st.text(0);
  }
  if (version == std::to_string(kVersion)) return kVersion;
  if (version != "1") check_version(version, s.where());
  // Version 1 -> 2: the start counts move from study_meta into a column beside the new worker column.
  Transaction transaction(s.db_, s.where());
  s.exec("ALTER TABLE evaluations ADD COLUMN worker TEXT");
  s.exec("ALTER TABLE evaluations ADD COLUMN unfinished_starts INTEGER NOT NULL DEFAULT 0");
  std::string starts_text = "{}";
  {
    Statement st(s.db_, "SELECT value FROM study_meta WHERE key = 'unfinished_starts'", s.where());
    if (st.step(s.where())) starts_text = st.text(0);
  }
  const std::string source = s.where() + ": metadata 'unfinished_starts'";
  const auto starts = parse_json(starts_text, source);
  if (!starts.is_object()) throw InputError(source + " is not an object");
  for (const auto& [key, value] : starts.items()) {
    long long trial = -1;
    const auto parsed = std::from_chars(key.data(), key.data() + key.size(), trial);
    const double count = value.is_number() ? value.get<double>() : -1;
    if (parsed.ec != std::errc() || parsed.ptr != key.data() + key.size() ||
        !(count >= 0 && count <= 1e6 && count == std::floor(count)))
      throw InputError(source + ": entry \"" + printable(key) + "\": " + value.dump() + " is not a start count");
    Statement st(s.db_, "UPDATE evaluations SET unfinished_starts = ? WHERE trial = ? AND status = 'running'",
                 s.where());
    st.bind_int(1, static_cast<long long>(count)).bind_int(2, trial).step(s.where());
    if (sqlite3_changes(s.db_) != 1)
      throw InputError(source + ": entry \"" + printable(key) + "\": " + value.dump() +
                       " is not a start count of a running trial");
  }
  s.exec("DELETE FROM study_meta WHERE key = 'unfinished_starts'");
  s.set_meta("version", std::to_string(kVersion));
  s.load();  // the migrated study must read back as a valid one before it is committed
  transaction.commit();
  return 1;
}

namespace {

// Renames a closed study file (and a write-ahead log left beside it) to PATH.failed-N, the first N
// free; never replaces a file.
std::string set_aside_study_file(const std::string& path) {
  const FileLock lock(path, O_RDWR, FileLock::Wait::no, "study " + path);  // no other process uses it
  ::unlink((path + ".lock").c_str());
  for (int n = 1;; ++n) {
    const std::string kept = path + ".failed-" + std::to_string(n);
    if (::renameat2(AT_FDCWD, path.c_str(), AT_FDCWD, kept.c_str(), RENAME_NOREPLACE) == 0) {
      ::renameat2(AT_FDCWD, (path + "-wal").c_str(), AT_FDCWD, (kept + "-wal").c_str(), RENAME_NOREPLACE);
      ::unlink((path + "-shm").c_str());  // an index of the log, rebuilt on open
      return kept;
    }
    if (errno != EEXIST)
      throw InputError("study " + path + ": cannot rename it to " + kept + " (" + std::strerror(errno) + ")");
  }
}

// The default back-end: a study location without a registered scheme is an SQLite file.
// A file holds one study: a study name is for databases that hold several.
void check_no_study_name(const std::string& location, const StorageOptions& options) {
  if (!options.study_name.empty())
    throw InputError("--study-name " + printable(options.study_name) + ": study " + location +
                     " is an SQLite file, which holds one study (names select studies in a postgresql:// database)");
}

// The default back-end: a study location without a registered scheme is an SQLite file.
const StorageRegistration sqlite_backend(
    {"",
     [](const std::string& location, const StorageOptions& options) {
       check_no_study_name(location, options);
       return StudyDatabase::exists(location);
     },
     [](const std::string& location, const StudyIdentity& identity, const RunInfo& info, const nlohmann::json& config,
        const StorageOptions& options) {
       check_no_study_name(location, options);
       return std::make_unique<StudyDatabase>(StudyDatabase::create(location, identity, info, config));
     },
     [](const std::string& location, StorageAccess access, const StorageOptions& options) {
       check_no_study_name(location, options);
       return std::make_unique<StudyDatabase>(StudyDatabase::open(location, access));
     },
     &set_aside_study_file,
     [](const std::string& location, const StorageOptions& options) {
       check_no_study_name(location, options);
       return StudyDatabase::upgrade(location);
     }});

}  // namespace

}  // namespace dpareto::study
