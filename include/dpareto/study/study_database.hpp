#pragma once
// A study: the durable record of an exploration in one SQLite database (WAL mode), so that a
// crash, a reboot or a killed job never loses an evaluation.
//
// Tables:
//   study_meta(key TEXT PRIMARY KEY, value TEXT)  format, version, identity (problem, settings,
//                                                 space), run_info, config, explorer_state
//   evaluations(trial INTEGER PRIMARY KEY,        proposal order, 0-based
//               completion INTEGER UNIQUE,        1-based completion order; NULL while running
//               phase, status ('running'|'ok'|'failed'), params (JSON array), epsilon, delta,
//               utility, utility_min, utility_max, seconds, started_at, finished_at (Unix
//               seconds), message, seed (decimal text of the 64-bit seed given to the oracle))
// Every state change is one transaction. WAL with synchronous=NORMAL: a committed transaction
// survives a killed or crashed process; the completion of an evaluation that took 1 s or more is
// committed with synchronous=FULL (fsync), so that it also survives a power cut. A study
// opened for writing holds an exclusive flock on the file for its lifetime, so two runs never
// write the same study; readers (export) need no lock.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/study/run_record.hpp"

struct sqlite3;

namespace dpareto::study {

// What makes two runs the same study: a study opened with a different identity is refused.
struct StudyIdentity {
  std::string problem;
  nlohmann::json settings = nlohmann::json::object();  // the problem's settings
  nlohmann::json space;                                 // space_to_json of the space
};

// One row of the evaluations table.
struct Trial {
  int trial = 0;                 // proposal order, 0-based
  EvaluationRecord record;       // record.id = completion order (0 while running)
  double started_at = 0, finished_at = 0;
};

class StudyDatabase {
 public:
  enum class Access { read_only, read_write };

  // Creates a new study at `path` (which must not exist, or be an empty file).
  static StudyDatabase create(const std::string& path, const StudyIdentity& identity, const RunInfo& info,
                              const nlohmann::json& config);
  // Opens an existing study, validating its metadata and every row before anything is written.
  // Throws InputError naming the file and the problem: missing file, not an SQLite database, not a
  // study, locked by another process, a corrupt row.
  // A study that lives only in memory (runs without --study use the same code path).
  static StudyDatabase in_memory(const StudyIdentity& identity, const RunInfo& info, const nlohmann::json& config);
  static StudyDatabase open(const std::string& path, Access access);
  static bool exists(const std::string& path);

  StudyDatabase(StudyDatabase&& other) noexcept;
  StudyDatabase& operator=(StudyDatabase&& other) = delete;
  StudyDatabase(const StudyDatabase&) = delete;
  ~StudyDatabase();

  const std::string& path() const { return path_; }
  const StudyIdentity& identity() const { return identity_; }
  const RunInfo& run_info() const { return info_; }
  const nlohmann::json& config() const { return config_; }
  // The explorer's state as last saved (null before the first ask).
  const nlohmann::json& explorer_state() const { return explorer_state_; }
  // All rows in proposal order, as validated at open and updated since.
  const std::vector<Trial>& trials() const { return trials_; }
  // Completed (ok or failed) records in completion order.
  std::vector<EvaluationRecord> completed() const;

  // Throws InputError naming the file and the first difference when `identity` differs.
  void check_identity(const StudyIdentity& identity) const;

  // State changes, each in its own transaction.
  // A new running evaluation (and the explorer state after the ask that proposed it).
  int begin_trial(const std::string& phase, const std::vector<double>& params, std::uint64_t seed,
                  const nlohmann::json& explorer_state);
  // A running evaluation restarted after a crash.
  void restart_trial(int trial);
  // Completes a running evaluation: `result` carries status ok|failed and the measurements; the
  // completion id is assigned here and returned in the stored record.
  const EvaluationRecord& finish_trial(int trial, const EvaluationRecord& result,
                                       const nlohmann::json& explorer_state);
  void set_explorer_state(const nlohmann::json& state);
  // Updates the run information (a resumed run's budget and workers, for summary.json exports).
  void set_run_info(const RunInfo& info);

 private:
  StudyDatabase(std::string path, sqlite3* db, int lock_fd);
  void initialize(const StudyIdentity& identity, const RunInfo& info, const nlohmann::json& config);
  void load();
  void exec(const std::string& sql);
  void set_meta(const std::string& key, const std::string& value);
  std::string where() const;

  std::string path_;
  sqlite3* db_ = nullptr;
  int lock_fd_ = -1;
  StudyIdentity identity_;
  RunInfo info_;
  nlohmann::json config_;
  nlohmann::json explorer_state_;
  std::vector<Trial> trials_;
  int completions_ = 0;
};

// `dpareto explore --study FILE`: creates the study when FILE does not exist; otherwise opens it
// for writing and refuses (InputError naming the file and the difference) a different identity, a
// different explorer configuration, or a seed that differs from the stored one (`seed_given`: the
// user passed --seed). The run seed to use is the returned study's run_info().seed.
StudyDatabase open_or_create_study(const std::string& path, const StudyIdentity& identity, const RunInfo& info,
                                   const nlohmann::json& config, bool seed_given);

// Plain JSON forms of RunInfo, as stored in the study.
nlohmann::json run_info_to_json(const RunInfo& info);
RunInfo run_info_from_json(const nlohmann::json& value, const std::string& source);

}  // namespace dpareto::study
