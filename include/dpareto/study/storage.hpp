#pragma once
// The storage of a study, behind one interface (Optuna's shape: samplers and storages meet only
// through the study record). The SQLite back-end (study_database.hpp) implements it today; another
// back-end (e.g. PostgreSQL for many hosts) is one new implementation registered by its location's
// scheme (storage_registry.hpp). The runner (study_runner.hpp) sees nothing but this interface.
//
// A study holds: its identity (what makes two runs the same study), the run information and the
// explorer configuration, the explorer's state (saved with every state change), and one trial per
// proposed setting: `running`, then completed (ok | failed) with a 1-based completion number.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dpareto/study/run_record.hpp"

namespace dpareto::study {

// What makes two runs the same study: a study opened with a different identity is refused.
struct StudyIdentity {
  std::string problem;
  nlohmann::json settings = nlohmann::json::object();  // the problem's settings
  nlohmann::json space;                                // space_to_json of the space
};

// One proposed evaluation.
struct Trial {
  int trial = 0;            // proposal order, 0-based
  EvaluationRecord record;  // record.id = completion order (0 while running)
  double started_at = 0, finished_at = 0;
  // While running: how many times a process started this evaluation and ended without finishing it
  // or stopping cleanly (crashed, or was killed) — counted from each start, uncounted by release_trial.
  int unfinished_starts = 0;
  // Shared stores, while running: the worker evaluating it ("host pid N") and the seconds since its
  // last heartbeat, as of the last refresh.
  std::string worker;
  double heartbeat_age = 0;
};

// Held while a process reads the study and records its next proposal (never during an evaluation).
class ProposalLock {
 public:
  virtual ~ProposalLock() = default;
};

// A process that worked on a shared study (dpareto worker, or explore): for `dpareto status`.
struct WorkerInfo {
  std::string worker;  // "host pid N"
  std::string host;
  double heartbeat_age = 0;  // seconds since its last heartbeat
  bool left = false;         // it ended cleanly
};

enum class StorageAccess { read_only, read_write };

class Storage {
 public:
  virtual ~Storage() = default;

  // Where the study lives, as the user named it (a file path, a URL); errors name it.
  virtual const std::string& location() const = 0;
  virtual const StudyIdentity& identity() const = 0;
  virtual const RunInfo& run_info() const = 0;
  virtual const nlohmann::json& config() const = 0;
  // The explorer's state as last saved (null before the first ask).
  virtual const nlohmann::json& explorer_state() const = 0;
  // All trials in proposal order, as validated at open and updated since.
  virtual const std::vector<Trial>& trials() const = 0;

  // Completed (ok or failed) records in completion order.
  std::vector<EvaluationRecord> completed() const;
  // Throws InputError naming the study and every difference when `identity` differs (problem, space,
  // problem settings; the host settings data_dir and threads may differ).
  void check_identity(const StudyIdentity& identity) const;

  // State changes, each durable when it returns.
  // Records a new running evaluation (and the explorer state after the ask that proposed it);
  // returns its trial number. The trial is claimed by this process.
  virtual int begin_trial(const std::string& phase, const std::vector<double>& params, std::uint64_t seed,
                          const nlohmann::json& explorer_state) = 0;
  // A running evaluation restarted (after a crash), by this process.
  virtual void restart_trial(int trial) = 0;
  // This process stopped evaluating a running trial on request (a stop signal): the trial stays
  // running for a resume, and this start does not count as a crash.
  virtual void release_trial(int trial) = 0;
  // Completes a running evaluation: `result` carries status ok|failed and the measurements; the
  // completion number is assigned here and returned in the stored record. An ok result's
  // `intermediate` results (earlier epochs of its training, issue 18 item 2) are stored in the same
  // transaction as completed trials of their own (intermediate_of), numbered right after it: a crash
  // records the evaluation with all of them or nothing, and no other worker's completion lands
  // between them (grouped_by_evaluation relies on that).
  virtual const EvaluationRecord& finish_trial(int trial, const EvaluationRecord& result,
                                               const nlohmann::json& explorer_state) = 0;
  virtual void set_explorer_state(const nlohmann::json& state) = 0;
  // Updates the run information (a resumed run's budget and workers, for summary.json exports).
  virtual void set_run_info(const RunInfo& info) = 0;

  // Takes a trial left running (by a crash, or by a worker whose heartbeat stopped) for this process
  // to evaluate again; false when another live worker holds it. A store with a single writer
  // (SQLite, exclusive lock) always grants it.
  virtual bool claim_trial(int trial) = 0;

  // Stores shared by several processes or hosts (postgres_storage.hpp). Such a store keeps the
  // heartbeats of the trials this process runs itself, from its own thread.
  // shared: other processes may write the study while this one runs.
  virtual bool shared() const { return false; }
  // The proposal lock (nullptr where one writer holds the whole study).
  virtual std::unique_ptr<ProposalLock> lock_proposals() { return nullptr; }
  // Re-reads what other processes recorded: trials, explorer state.
  virtual void refresh() {}
  // Running trials whose worker stopped heartbeating for longer than the grace period (a single
  // writer finds what a crash left running when it opens the study: none here).
  virtual std::vector<int> abandoned_trials() const { return {}; }
  // The workers that joined the study (none for a single-writer store), as of the last refresh.
  virtual std::vector<WorkerInfo> workers() const { return {}; }
};

}  // namespace dpareto::study
