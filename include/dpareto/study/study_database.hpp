#pragma once
// The SQLite study::Storage: the durable record of an exploration in one SQLite database (WAL mode),
// so that a crash, a reboot or a killed job never loses an evaluation. It is the default back-end
// (storage_registry.hpp): a study location without a registered scheme is an SQLite file.
//
// Tables:
//   study_meta(key TEXT PRIMARY KEY, value TEXT)  format, version, identity (problem, settings,
//                                                 space), run_info, config, explorer_state
//   evaluations(trial INTEGER PRIMARY KEY,        proposal order, 0-based
//               completion INTEGER UNIQUE,        1-based completion order; NULL while running
//               phase, status ('running'|'ok'|'failed'), params (JSON array), epsilon, delta,
//               utility, utility_min, utility_max, seconds, started_at, finished_at (Unix
//               seconds), message, seed (decimal text of the 64-bit seed given to the oracle))
// study_meta 'unfinished_starts' is a JSON object {"trial": n} of Trial::unfinished_starts for the
// running trials with n > 0 (absent in studies written before it: read as none).
// Every state change is one transaction. WAL with synchronous=NORMAL: a committed transaction
// survives a killed or crashed process; the completion of an evaluation that took 1 s or more is
// committed with synchronous=FULL (fsync), so that it also survives a power cut. A study
// opened for writing holds an exclusive flock on the file for its lifetime, so two runs never
// write the same study; readers (export) need no lock, nor write access (a study in a directory
// they cannot write is read from a private copy, as SQLite could not create the log's index there).
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
  // One writer holds the file's lock: every claim is granted.
  bool claim_trial(int) override { return true; }

 private:
  StudyDatabase(std::string path, sqlite3* db, std::optional<FileLock> lock);
  void initialize(const StudyIdentity& identity, const RunInfo& info, const nlohmann::json& config);
  void load();
  void exec(const std::string& sql);
  void set_meta(const std::string& key, const std::string& value);
  void save_unfinished_starts();
  std::string where() const;

  std::string path_;
  std::optional<FileLock> lock_;  // the run lock, while open for writing
  sqlite3* db_ = nullptr;
  StudyIdentity identity_;
  RunInfo info_;
  nlohmann::json config_;
  nlohmann::json explorer_state_;
  std::vector<Trial> trials_;
  int completions_ = 0;
  std::string private_copy_;  // read-only access to a study in a directory we cannot write: the copy read
};

// Plain JSON forms of RunInfo, as stored in the study.
nlohmann::json run_info_to_json(const RunInfo& info);
RunInfo run_info_from_json(const nlohmann::json& value, const std::string& source);

}  // namespace dpareto::study
