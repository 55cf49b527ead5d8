#include "dpareto/study/postgres_storage.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "dpareto/core/atomic_file.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_file.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/study/storage_registry.hpp"
#include "dpareto/study/study_database.hpp"
#include "pg_connection.hpp"
#include "process_liveness.hpp"
#include "trial_text.hpp"

namespace dpareto::study {
namespace fs = std::filesystem;
namespace {

// Advisory lock keys: (kLockClass, 0) guards schema creation, (kLockClass, study id) proposals.
constexpr const char* kLockClass = "1685090930";  // "dpar"

const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS dpareto_schema(version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS dpareto_studies(
  id SERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE,
  identity TEXT NOT NULL, run_info TEXT NOT NULL, config TEXT NOT NULL,
  explorer_state TEXT NOT NULL DEFAULT 'null',
  trials INTEGER NOT NULL DEFAULT 0, completions INTEGER NOT NULL DEFAULT 0,
  created_at DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS dpareto_trials(
  study_id INTEGER NOT NULL REFERENCES dpareto_studies(id) ON DELETE CASCADE,
  trial INTEGER NOT NULL, completion INTEGER,
  phase TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
  params TEXT NOT NULL, objectives TEXT, seconds DOUBLE PRECISION,
  started_at DOUBLE PRECISION NOT NULL, finished_at DOUBLE PRECISION,
  message TEXT NOT NULL DEFAULT '', seed TEXT NOT NULL,
  claim TEXT, worker TEXT, heartbeat_at TIMESTAMPTZ, unfinished_starts INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (study_id, trial), UNIQUE (study_id, completion));
CREATE TABLE IF NOT EXISTS dpareto_workers(
  study_id INTEGER NOT NULL REFERENCES dpareto_studies(id) ON DELETE CASCADE,
  worker TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(), heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  left_at TIMESTAMPTZ,
  PRIMARY KEY (study_id, worker));
)";

std::string hex(std::uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = digits[v & 15];
  return out;
}

std::string study_name_of(const StorageOptions& options) {
  return options.study_name.empty() ? "default" : options.study_name;
}

// The location as dpareto shows it: the URI without its password, and the study's name.
std::string shown_study(const std::string& uri, const StorageOptions& options) {
  return study::shown_location(uri) + "#" + study_name_of(options);
}

// Checks the database's schema version; false when it holds no dpareto tables yet.
bool check_schema(pg::Connection& c) {
  const auto present = c.exec("SELECT to_regclass('dpareto_schema') IS NOT NULL");
  if (present.text(0, 0) != "t") return false;
  const auto version = c.exec("SELECT max(version) FROM dpareto_schema");
  const int v = version.is_null(0, 0) ? 0 : std::atoi(version.text(0, 0).c_str());
  if (v > kPostgresSchemaVersion)
    throw InputError("study " + c.shown() + ": schema version " + std::to_string(v) + " is newer than this dpareto's " +
                     std::to_string(kPostgresSchemaVersion) + " (use a newer dpareto)");
  if (v < kPostgresSchemaVersion)
    throw InputError("study " + c.shown() + ": schema version " + std::to_string(v) + " is older than this dpareto's " +
                     std::to_string(kPostgresSchemaVersion) + " (run dpareto study upgrade)");
  return true;
}

std::string spool_directory(const StorageOptions& options) {
  if (!options.spool_directory.empty()) return options.spool_directory;
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string base = cache && *cache ? cache : std::string(home && *home ? home : "/tmp") + "/.cache";
  return base + "/dpareto/spool";
}

class PostgresStorage;

class AdvisoryLock : public ProposalLock {
 public:
  explicit AdvisoryLock(PostgresStorage& storage);
  ~AdvisoryLock() override;

 private:
  PostgresStorage& storage_;
};

class PostgresStorage : public Storage {
 public:
  PostgresStorage(const std::string& uri, const StorageOptions& options, StorageAccess access)
      : options_(options),
        shown_(shown_study(uri, options)),
        connection_(uri, shown_, options.reconnect_seconds),
        access_(access) {
    if (options_.grace_seconds <= 0) options_.grace_seconds = 3 * options_.heartbeat_seconds;
    connection_.set_on_reconnect([this] {
      if (lock_held_) take_lock();
    });
    uri_ = uri;
  }
  ~PostgresStorage() override { leave(); }

  // Creates the tables where none exist and the study; InputError when the study exists.
  void create(const StudyIdentity& identity, const RunInfo& info, const nlohmann::json& config) {
    const std::string name = study_name_of(options_);
    pg::Transaction tx(connection_);
    connection_.exec(std::string("SELECT pg_advisory_xact_lock(") + kLockClass + ", 0)");
    if (!check_schema(connection_)) {
      connection_.exec_script(kSchema);
      connection_.exec("INSERT INTO dpareto_schema(version) VALUES ($1)", {std::to_string(kPostgresSchemaVersion)});
    }
    if (connection_.exec("SELECT 1 FROM dpareto_studies WHERE name = $1", {name}).rows() > 0)
      throw InputError("study " + shown_ + ": already exists");
    const nlohmann::json identity_json = {
        {"problem", identity.problem}, {"settings", identity.settings}, {"space", identity.space}};
    connection_.exec(
        "INSERT INTO dpareto_studies(name, identity, run_info, config, created_at) VALUES ($1, $2, $3, $4, $5)",
        {name, identity_json.dump(), run_info_to_json(info).dump(), config.dump(), format_number(now_unix())});
    tx.commit();
  }

  // Reads the study; InputError naming the database when it holds no such study.
  void open() {
    const std::string name = study_name_of(options_);
    if (!check_schema(connection_)) throw InputError("study " + shown_ + ": the database holds no dpareto studies");
    const auto row = connection_.exec("SELECT id, identity, config FROM dpareto_studies WHERE name = $1", {name});
    if (row.rows() == 0) {
      std::string names;
      const auto all = connection_.exec("SELECT name FROM dpareto_studies ORDER BY name LIMIT 11");
      for (int i = 0; i < std::min(all.rows(), 10); ++i) names += (names.empty() ? "" : ", ") + all.text(i, 0);
      if (all.rows() > 10) names += ", ...";
      throw InputError("study " + shown_ + ": the database holds no study '" + name +
                       "' (it holds: " + (names.empty() ? "none" : names) + ")");
    }
    id_ = row.text(0, 0);
    const std::string where = "study " + shown_;
    const auto identity = parse_json(row.text(0, 1), where + ": 'identity'");
    try {
      identity_.problem = identity.at("problem").get<std::string>();
      identity_.settings = identity.at("settings");
      identity_.space = identity.at("space");
    } catch (const nlohmann::json::exception&) {
      throw InputError(where + ": corrupt 'identity'");
    }
    config_ = parse_json(row.text(0, 2), where + ": 'config'");
    load();
  }

  const std::string& location() const override { return shown_; }
  const StudyIdentity& identity() const override { return identity_; }
  const RunInfo& run_info() const override { return info_; }
  const nlohmann::json& config() const override { return config_; }
  const nlohmann::json& explorer_state() const override { return explorer_state_; }
  const std::vector<Trial>& trials() const override { return trials_; }
  std::vector<WorkerInfo> workers() const override { return workers_; }
  bool shared() const override { return true; }

  std::unique_ptr<ProposalLock> lock_proposals() override {
    join();
    return std::make_unique<AdvisoryLock>(*this);
  }

  void refresh() override {
    connection_.retrying([&] { load(); });
  }

  std::vector<int> abandoned_trials() const override {
    std::vector<int> out;
    for (const auto& t : trials_)
      if (t.record.status == EvaluationStatus::running && !claims_.count(t.trial) &&
          !(t.heartbeat_age <= options_.grace_seconds))  // NaN: released, or never heartbeat
        out.push_back(t.trial);
    return out;
  }

  int begin_trial(const std::string& phase, const std::vector<double>& params, std::uint64_t seed,
                  const nlohmann::json& explorer_state) override {
    join();
    const std::string claim = new_claim();
    const double started = now_unix();
    int trial = -1;
    connection_.retrying([&] {
      pg::Transaction tx(connection_);
      // A retry after a commit whose answer was lost finds its row.
      const auto mine =
          connection_.exec("SELECT trial FROM dpareto_trials WHERE study_id = $1 AND claim = $2", {id_, claim});
      if (mine.rows() > 0) {
        trial = std::atoi(mine.text(0, 0).c_str());
        tx.commit();
        return;
      }
      const auto next = connection_.exec(
          "UPDATE dpareto_studies SET trials = trials + 1, explorer_state = $2 WHERE id = $1 RETURNING trials - 1",
          {id_, explorer_state.dump()});
      trial = std::atoi(next.text(0, 0).c_str());
      connection_.exec(
          "INSERT INTO dpareto_trials(study_id, trial, phase, status, params, started_at, seed, claim, worker, "
          "heartbeat_at, unfinished_starts) VALUES ($1, $2, $3, 'running', $4, $5, $6, $7, $8, now(), 1)",
          {id_, std::to_string(trial), phase, params_text(params), format_number(started), std::to_string(seed), claim,
           worker_});
      tx.commit();
    });
    hold(trial, claim);
    if (trial == static_cast<int>(trials_.size())) {  // under the proposal lock the cache was current
      Trial t;
      t.trial = trial;
      t.record.phase = phase;
      t.record.status = EvaluationStatus::running;
      t.record.params = params;
      t.record.seed = seed;
      t.started_at = started;
      t.unfinished_starts = 1;
      t.worker = worker_;
      trials_.push_back(std::move(t));
      explorer_state_ = explorer_state;
    } else {
      refresh();
    }
    return trial;
  }

  bool claim_trial(int trial) override {
    join();
    const std::string claim = new_claim();
    bool granted = false;
    connection_.retrying([&] {
      const auto r = connection_.exec(
          "UPDATE dpareto_trials SET claim = $3, worker = $4, heartbeat_at = now() WHERE study_id = $1 AND trial = $2 "
          "AND status = 'running' AND (claim = $3 OR claim IS NULL OR heartbeat_at IS NULL OR "
          "heartbeat_at < now() - make_interval(secs => $5)) RETURNING unfinished_starts",
          {id_, std::to_string(trial), claim, worker_, format_number(options_.grace_seconds)});
      granted = r.rows() > 0;
    });
    if (!granted) return false;
    hold(trial, claim);
    connection_.retrying([&] { load_trials(); });
    return true;
  }

  void restart_trial(int trial) override {
    const std::string claim = claim_of(trial);
    connection_.retrying([&] {
      connection_.exec(
          "UPDATE dpareto_trials SET started_at = $4, unfinished_starts = unfinished_starts + 1 "
          "WHERE study_id = $1 AND trial = $2 AND claim = $3",
          {id_, std::to_string(trial), claim, format_number(now_unix())});
    });
    connection_.retrying([&] { load_trials(); });
  }

  void release_trial(int trial) override {
    const std::string claim = claim_of(trial);
    connection_.retrying([&] {
      connection_.exec(
          "UPDATE dpareto_trials SET unfinished_starts = GREATEST(unfinished_starts - 1, 0), claim = NULL, "
          "worker = NULL, heartbeat_at = NULL WHERE study_id = $1 AND trial = $2 AND claim = $3",
          {id_, std::to_string(trial), claim});
    });
    let_go(trial);
  }

  const EvaluationRecord& finish_trial(int trial, const EvaluationRecord& result, const nlohmann::json&) override {
    join();
    // The explorer state changes only when it asks (saved by begin_trial, under the proposal lock):
    // a completion never overwrites what another worker's ask saved.
    const std::string claim = claims_.count(trial) ? claims_.at(trial) : new_claim();
    const std::string spooled = spool(trial, claim, result);
    complete(trial, claim, result);
    std::error_code ec;
    fs::remove(spooled, ec);
    let_go(trial);
    connection_.retrying([&] { load_trials(); });
    return trials_.at(static_cast<std::size_t>(trial)).record;
  }

  void set_explorer_state(const nlohmann::json& state) override {
    connection_.retrying([&] {
      connection_.exec("UPDATE dpareto_studies SET explorer_state = $2 WHERE id = $1", {id_, state.dump()});
    });
    explorer_state_ = state;
  }

  void set_run_info(const RunInfo& info) override {
    connection_.retrying([&] {
      connection_.exec("UPDATE dpareto_studies SET run_info = $2 WHERE id = $1", {id_, run_info_to_json(info).dump()});
    });
    info_ = info;
  }

  void take_lock() {
    connection_.exec(std::string("SELECT pg_advisory_lock(") + kLockClass + ", $1)", {id_});
    lock_held_ = true;
  }
  void lock() {
    connection_.retrying([&] { take_lock(); });
  }
  void unlock() {
    lock_held_ = false;
    try {
      connection_.exec(std::string("SELECT pg_advisory_unlock(") + kLockClass + ", $1)", {id_});
    } catch (const Error&) {  // a lost connection released it
    }
  }

 private:
  std::string new_claim() { return hex(os_random_u64()); }

  std::string claim_of(int trial) const {
    const auto it = claims_.find(trial);
    if (it == claims_.end())
      throw Error("study " + shown_ + ": trial " + std::to_string(trial) + " is not this worker's");
    return it->second;
  }

  void hold(int trial, const std::string& claim) {
    std::lock_guard<std::mutex> lock(heartbeat_mutex_);
    claims_[trial] = claim;
  }
  void let_go(int trial) {
    std::lock_guard<std::mutex> lock(heartbeat_mutex_);
    claims_.erase(trial);
  }

  // Records a result once: the first completion of a running trial wins; a retry whose first try
  // committed, or a worker that finishes a trial another worker completed meanwhile, records nothing.
  // An ok result's intermediate results are inserted in the same transaction, as completed trials
  // numbered right after it (the study row, locked by its UPDATE, serializes the numbers).
  void complete(int trial, const std::string& claim, const EvaluationRecord& result) {
    const double finished = now_unix();
    const std::size_t measured = result.ok() ? result.intermediate.size() : 0;
    const std::string extra = std::to_string(measured);
    connection_.retrying([&] {
      pg::Transaction tx(connection_);
      const auto row =
          connection_.exec("SELECT status, seed FROM dpareto_trials WHERE study_id = $1 AND trial = $2 FOR UPDATE",
                           {id_, std::to_string(trial)});
      if (row.rows() == 0) throw Error("study " + shown_ + ": no trial " + std::to_string(trial));
      if (row.text(0, 0) != "running") {
        tx.commit();
        return;
      }
      const auto numbers = connection_.exec(
          "UPDATE dpareto_studies SET completions = completions + 1 + $2, trials = trials + $2 WHERE id = $1 "
          "RETURNING completions - $2, trials - $2",
          {id_, extra});
      EvaluationRecord evaluation;
      evaluation.id = std::atoi(numbers.text(0, 0).c_str());
      evaluation.seed = parse_seed(row.text(0, 1), "study " + shown_ + ": trial " + std::to_string(trial));
      // The params too where they are given: a training stopped early measured fewer epochs.
      connection_.exec(
          "UPDATE dpareto_trials SET completion = $3, status = $4, objectives = $5, seconds = $6, finished_at = $7, "
          "message = $8, claim = $9, heartbeat_at = NULL, unfinished_starts = 0, params = COALESCE($10, params) "
          "WHERE study_id = $1 AND trial = $2",
          {id_, std::to_string(trial), numbers.text(0, 0), to_string(result.status), objectives_text(result),
           format_number(result.seconds), format_number(finished), result.message, claim,
           result.params.empty() ? pg::Parameter{} : pg::Parameter{params_text(result.params)}});
      const int first_trial = std::atoi(numbers.text(0, 1).c_str());
      for (std::size_t k = 0; k < measured; ++k) {
        const EvaluationRecord r = intermediate_of(result.intermediate[k], evaluation);
        connection_.exec(
            "INSERT INTO dpareto_trials(study_id, trial, completion, phase, status, params, objectives, seconds, "
            "started_at, finished_at, message, seed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $11)",
            {id_, std::to_string(first_trial + static_cast<int>(k)), std::to_string(evaluation.id + 1 + static_cast<int>(k)),
             r.phase, to_string(r.status), params_text(r.params), objectives_text(r), format_number(r.seconds),
             format_number(finished), r.message, std::to_string(r.seed)});
      }
      tx.commit();
    });
  }

  std::string objectives_text(const EvaluationRecord& result) const {
    nlohmann::json objectives = nlohmann::json::object();
    for (const auto& c : info_.objectives.columns()) objectives[c] = json_number(result.column(c));
    return objectives.dump();
  }

  // The spool file of a result not yet recorded (removed once it is).
  std::string spool(int trial, const std::string& claim, const EvaluationRecord& result) const {
    const std::string dir = spool_directory(options_);
    std::error_code ec;
    fs::create_directories(dir, ec);
    nlohmann::json record = spooled_measurements(result);
    if (!result.params.empty()) record["params"] = params_text(result.params);
    if (!result.intermediate.empty()) {
      record["intermediate"] = nlohmann::json::array();
      for (const auto& r : result.intermediate) {
        nlohmann::json measured = spooled_measurements(r);
        measured["params"] = params_text(r.params);
        record["intermediate"].push_back(std::move(measured));
      }
    }
    const nlohmann::json entry = {{"study", shown_}, {"trial", trial}, {"claim", claim}, {"record", record}};
    const std::string path = dir + "/" + spool_prefix() + claim + ".json";
    write_file_atomically(path, entry.dump());
    return path;
  }

  nlohmann::json spooled_measurements(const EvaluationRecord& result) const {
    nlohmann::json record = {
        {"status", to_string(result.status)}, {"seconds", json_number(result.seconds)}, {"message", result.message}};
    for (const auto& c : info_.objectives.columns()) record[c] = json_number(result.column(c));
    return record;
  }
  EvaluationRecord spooled_record(const nlohmann::json& r, const std::string& path) const {
    EvaluationRecord record;
    record.status = parse_evaluation_status(r.at("status").get<std::string>(), path);
    record.seconds = number_from_json(r.at("seconds"), path + ": seconds");
    record.message = r.at("message").get<std::string>();
    for (const auto& c : info_.objectives.columns()) record.column(c) = number_from_json(r.at(c), path + ": " + c);
    return record;
  }

  std::string spool_prefix() const { return hex(std::hash<std::string>{}(shown_)) + "-"; }

  // Records the results a worker of this study spooled and could not record (it lost the database
  // and was then stopped), then removes their files.
  void replay_spool() {
    const std::string dir = spool_directory(options_);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return;
    const std::string prefix = spool_prefix();
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (!name.starts_with(prefix)) continue;
      const std::string path = entry.path().string();
      nlohmann::json j;
      EvaluationRecord record;
      int trial = -1;
      try {
        j = read_json_file(path, "spool file");
        if (j.at("study") != shown_) continue;
        trial = j.at("trial").get<int>();
        const auto& r = j.at("record");
        record = spooled_record(r, path);
        if (r.contains("params"))
          record.params = parse_params(r.at("params").get<std::string>(), info_.parameter_names.size(), path + ": params");
        if (r.contains("intermediate"))
          for (const auto& m : r.at("intermediate")) {
            EvaluationRecord& measured = record.intermediate.emplace_back(spooled_record(m, path));
            measured.params = parse_params(m.at("params").get<std::string>(), info_.parameter_names.size(),
                                           path + ": intermediate params");
          }
      } catch (const std::exception& e) {
        throw InputError("spool file " + path + ": cannot be read (" + e.what() + "); move it away to continue");
      }
      if (trial < 0 || trial >= static_cast<int>(trials_.size()))
        throw InputError("spool file " + path + ": trial " + std::to_string(trial) + " is not in study " + shown_);
      complete(trial, j.at("claim").get<std::string>(), record);
      fs::remove(path, ec);
    }
    load();
  }

  // Reads the study's explorer state, run information (budget), trials and (for readers) workers.
  void load() {
    const std::string where = "study " + shown_;
    const auto study = connection_.exec("SELECT explorer_state, run_info FROM dpareto_studies WHERE id = $1", {id_});
    if (study.rows() == 0) throw InputError(where + ": the study was deleted");
    explorer_state_ = parse_json(study.text(0, 0), where + ": 'explorer_state'");
    info_ = run_info_from_json(parse_json(study.text(0, 1), where + ": 'run_info'"), where + ": 'run_info'");
    load_trials();
    if (access_ == StorageAccess::read_write) return;  // the workers list is for readers (status)
    const auto workers = connection_.exec(
        "SELECT worker, host, EXTRACT(EPOCH FROM now() - heartbeat_at), left_at IS NOT NULL FROM dpareto_workers "
        "WHERE study_id = $1 ORDER BY started_at",
        {id_});
    std::vector<WorkerInfo> infos;
    for (int i = 0; i < workers.rows(); ++i)
      infos.push_back({workers.text(i, 0), workers.text(i, 1), workers.number(i, 2), workers.text(i, 3) == "t"});
    workers_ = std::move(infos);
  }

  // Reads the trials that changed since the last read, validating every row.
  void load_trials() {
    const std::string where = "study " + shown_;
    // Completed rows never change: read only the rows that are running, new, or completed since.
    const auto rows = connection_.exec(
        "SELECT trial, completion, phase, status, params, objectives, seconds, started_at, finished_at, message, seed, "
        "worker, EXTRACT(EPOCH FROM now() - heartbeat_at), unfinished_starts FROM dpareto_trials "
        "WHERE study_id = $1 AND (trial >= $2 OR status = 'running' OR completion > $3) ORDER BY trial",
        {id_, std::to_string(trials_.size()), std::to_string(last_completion(trials_))});
    std::vector<Trial> trials = trials_;
    const auto columns = info_.objectives.columns();
    for (int i = 0; i < rows.rows(); ++i) {
      Trial t;
      t.trial = std::atoi(rows.text(i, 0).c_str());
      const std::string row = where + ": corrupt row (trial " + std::to_string(t.trial) + ")";
      auto& r = t.record;
      r.phase = rows.text(i, 2);
      r.status = parse_evaluation_status(rows.text(i, 3), row);
      if (!rows.is_null(i, 1)) {
        r.id = std::atoi(rows.text(i, 1).c_str());
        if (r.id < 1) throw InputError(row + ": invalid completion number '" + printable(rows.text(i, 1)) + "'");
      }
      r.params = parse_params(rows.text(i, 4), info_.parameter_names.size(), row);
      if (!rows.is_null(i, 5)) {
        const auto objectives = parse_json(rows.text(i, 5), row + ": objectives");
        for (const auto& c : columns)
          r.column(c) = objectives.contains(c) ? number_from_json(objectives.at(c), row + ": " + c)
                                               : std::numeric_limits<double>::quiet_NaN();
      }
      r.seconds = rows.number(i, 6);
      t.started_at = rows.number(i, 7);
      t.finished_at = rows.number(i, 8);
      r.message = rows.text(i, 9);
      r.seed = parse_seed(rows.text(i, 10), row);
      t.worker = rows.text(i, 11);
      t.heartbeat_age = rows.number(i, 12);
      t.unfinished_starts = std::atoi(rows.text(i, 13).c_str());
      check_trial(t, !rows.is_null(i, 1), row);
      place_trial(trials, std::move(t), row);
    }
    check_completion_numbers(trials, where);
    trials_ = std::move(trials);
  }

  // A writing process joins the study as a worker (registered, heartbeating, its spool replayed)
  // when it first works on it: a run refused at open (another problem, say) writes nothing.
  void join() {
    if (joined_) return;
    if (access_ != StorageAccess::read_write) throw Error("study " + shown_ + ": opened read-only");
    joined_ = true;
    const std::string host = host_name();
    worker_ = host + " pid " + std::to_string(::getpid()) + " " + hex(os_random_u64()).substr(0, 6);
    connection_.exec("INSERT INTO dpareto_workers(study_id, worker, host, pid) VALUES ($1, $2, $3, $4)",
                     {id_, worker_, host, std::to_string(::getpid())});
    heartbeat_connection_ = std::make_unique<pg::Connection>(uri_, shown_, options_.reconnect_seconds);
    heartbeat_thread_ = std::thread([this] { beat(); });
    replay_spool();
  }

  // The heartbeat thread: every heartbeat_seconds, this worker's and its running trials'.
  void beat() {
    std::unique_lock<std::mutex> lock(heartbeat_mutex_);
    while (!stopping_) {
      std::string claims;
      for (const auto& [trial, claim] : claims_) claims += (claims.empty() ? "" : ",") + claim;
      lock.unlock();
      try {
        heartbeat_connection_->exec(
            "UPDATE dpareto_trials SET heartbeat_at = now() WHERE study_id = $1 AND claim = ANY($2::text[])",
            {id_, "{" + claims + "}"});
        heartbeat_connection_->exec(
            "UPDATE dpareto_workers SET heartbeat_at = now() WHERE study_id = $1 AND worker = $2", {id_, worker_});
      } catch (const pg::ConnectionLost&) {
        heartbeat_connection_->try_reconnect();  // the next beat tries again
      } catch (const Error&) {
      }
      lock.lock();
      heartbeat_wake_.wait_for(lock, std::chrono::duration<double>(options_.heartbeat_seconds),
                               [&] { return stopping_; });
    }
  }

  void leave() {
    if (!heartbeat_thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(heartbeat_mutex_);
      stopping_ = true;
    }
    heartbeat_wake_.notify_all();
    heartbeat_thread_.join();
    try {
      connection_.exec("UPDATE dpareto_workers SET left_at = now() WHERE study_id = $1 AND worker = $2",
                       {id_, worker_});
    } catch (const Error&) {  // the database is gone: the worker's heartbeat simply stops
    }
  }

  StorageOptions options_;
  std::string shown_, uri_;
  pg::Connection connection_;
  StorageAccess access_;
  std::string id_, worker_;
  StudyIdentity identity_;
  RunInfo info_;
  nlohmann::json config_, explorer_state_;
  std::vector<Trial> trials_;
  std::vector<WorkerInfo> workers_;
  bool lock_held_ = false;
  bool joined_ = false;
  // Shared with the heartbeat thread.
  std::mutex heartbeat_mutex_;
  std::condition_variable heartbeat_wake_;
  std::map<int, std::string> claims_;  // trial -> this worker's claim on it
  bool stopping_ = false;
  std::unique_ptr<pg::Connection> heartbeat_connection_;
  std::thread heartbeat_thread_;
};

AdvisoryLock::AdvisoryLock(PostgresStorage& storage) : storage_(storage) {
  storage_.lock();
}
AdvisoryLock::~AdvisoryLock() {
  storage_.unlock();
}

std::unique_ptr<Storage> open_postgres(const std::string& uri, StorageAccess access, const StorageOptions& options) {
  auto storage = std::make_unique<PostgresStorage>(uri, options, access);
  storage->open();
  return storage;
}

bool postgres_study_exists(const std::string& uri, const StorageOptions& options) {
  pg::Connection c(uri, shown_study(uri, options), options.reconnect_seconds);
  return check_schema(c) &&
         c.exec("SELECT 1 FROM dpareto_studies WHERE name = $1", {study_name_of(options)}).rows() > 0;
}

std::unique_ptr<Storage> create_postgres(const std::string& uri, const StudyIdentity& identity, const RunInfo& info,
                                         const nlohmann::json& config, const StorageOptions& options) {
  PostgresStorage(uri, options, StorageAccess::read_only).create(identity, info, config);
  return open_postgres(uri, StorageAccess::read_write, options);
}

// One schema version so far: a database of this dpareto's version needs nothing; another is refused.
int upgrade_postgres(const std::string& uri, const StorageOptions& options) {
  pg::Connection c(uri, shown_study(uri, options), options.reconnect_seconds);
  if (!check_schema(c)) throw InputError("study " + c.shown() + ": the database holds no dpareto studies");
  return kPostgresSchemaVersion;
}

const StorageRegistration postgresql_backend(
    {"postgresql", &postgres_study_exists, &create_postgres, &open_postgres, {}, &upgrade_postgres});
const StorageRegistration postgres_backend(
    {"postgres", &postgres_study_exists, &create_postgres, &open_postgres, {}, &upgrade_postgres});

}  // namespace
}  // namespace dpareto::study
