#pragma once
// The SQLite study::Storage: the durable record of an exploration in one SQLite database (WAL mode),
// so that a crash, a reboot or a killed job never loses an evaluation. It is the default back-end
// (storage_registry.hpp): a study location without a registered scheme is an SQLite file.
//
// Tables (study format version 2):
//   study_meta(key TEXT PRIMARY KEY, value TEXT)  format, version, identity (problem, settings,
//                                                 space), run_info, config, explorer_state
//   evaluations(trial INTEGER PRIMARY KEY,        proposal order, 0-based
//               completion INTEGER UNIQUE,        1-based completion order; NULL while running
//               phase, status ('running'|'ok'|'failed'), params (JSON array), epsilon, delta,
//               utility, utility_min, utility_max, seconds, started_at, finished_at (Unix
//               seconds), message, seed (decimal text of the 64-bit seed given to the oracle),
//               worker (the process running it, process_liveness.hpp; NULL once released),
//               unfinished_starts (Trial::unfinished_starts))
// Version 1 kept unfinished_starts in study_meta and had no worker column: `dpareto study upgrade`
// migrates it (upgrade()); a study of another version is refused, naming both.
// Every state change is one transaction. WAL with synchronous=NORMAL: a committed transaction
// survives a killed or crashed process; the completion of an evaluation that took 1 s or more is
// committed with synchronous=FULL (fsync), so that it also survives a power cut.
// Several processes on one host may write a study at once (explore, dpareto worker): each holds a
// shared flock on the file for its lifetime (renaming a failed study aside takes it exclusively),
// proposals are made under an exclusive flock on STUDY.lock, and a running evaluation whose process
// is gone (pid and start time) may be taken over. Readers (export, status) take no lock and need no
// write access (a study in a directory they cannot write is read from a private copy, as SQLite
// could not create the log's index there).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/core/file_lock.hpp"
#include "dpareto/study/storage.hpp"

struct sqlite3;

namespace dpareto::study {

// A trial is one row of the evaluations table.
class StudyDatabase : public Storage {
 public:
  using Access = StorageAccess;

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
  ~StudyDatabase() override;

  const std::string& path() const { return path_; }
  const std::string& location() const override { return path_; }
  const StudyIdentity& identity() const override { return identity_; }
  const RunInfo& run_info() const override { return info_; }
  const nlohmann::json& config() const override { return config_; }
  const nlohmann::json& explorer_state() const override { return explorer_state_; }
  const std::vector<Trial>& trials() const override { return trials_; }

  // State changes, each in its own transaction.
  int begin_trial(const std::string& phase, const std::vector<double>& params, std::uint64_t seed,
                  const nlohmann::json& explorer_state) override;
  void restart_trial(int trial) override;
  void release_trial(int trial) override;
  const EvaluationRecord& finish_trial(int trial, const EvaluationRecord& result,
                                       const nlohmann::json& explorer_state) override;
  void set_explorer_state(const nlohmann::json& state) override;
  void set_run_info(const RunInfo& info) override;
  // A trial is claimed when the process that ran it is gone (or released it).
  bool claim_trial(int trial) override;
  // A file study is shared by the processes that open it for writing; one in memory is not.
  bool shared() const override { return path_ != ":memory:"; }
  std::unique_ptr<ProposalLock> lock_proposals() override;
  void refresh() override;
  std::vector<int> abandoned_trials() const override;

  // `dpareto study upgrade`: migrates a study of an older format version to the current one, in
  // one transaction; returns the version it found (the current one: nothing to do).
  static int upgrade(const std::string& path);

 private:
  StudyDatabase(std::string path, sqlite3* db, std::optional<FileLock> lock);
  void initialize(const StudyIdentity& identity, const RunInfo& info, const nlohmann::json& config);
  void load();
  void exec(const std::string& sql);
  void set_meta(const std::string& key, const std::string& value);
  void load_trials();
  std::string where() const;

  std::string path_;
  std::optional<FileLock> lock_;  // the shared lock of a writer
  sqlite3* db_ = nullptr;
  StudyIdentity identity_;
  RunInfo info_;
  nlohmann::json config_;
  nlohmann::json explorer_state_;
  std::vector<Trial> trials_;
  std::string private_copy_;  // read-only access to a study in a directory we cannot write: the copy read
};

// Plain JSON forms of RunInfo, as stored in the study.
nlohmann::json run_info_to_json(const RunInfo& info);
RunInfo run_info_from_json(const nlohmann::json& value, const std::string& source);

}  // namespace dpareto::study
