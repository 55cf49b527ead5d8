#pragma once
// The evaluation loop of a study: propose, evaluate on up to `workers` threads at once, record every
// state change in the study's storage as it happens, and resume a study left by a crash.
//
// Resume: the completed evaluations are told to the proposer in completion order (never re-run),
// its saved state (ask counter, GP warm start) is restored, and evaluations left `running` are
// evaluated again with their stored parameters and seed (or, without retry, recorded as failed).
// An evaluation that was running each time dpareto ended abnormally, `crash_limit` times (a setting
// that crashes dpareto, say; a SIGKILL or power cut looks the same), is recorded as failed with that
// reason instead: it cannot wedge a study.
// A seeded sequential run resumed this way ends with exactly the evaluations of an uninterrupted one.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dpareto/core/go_on.hpp"
#include "dpareto/study/storage.hpp"

namespace dpareto::study {

struct Proposal {
  std::vector<double> params;
  std::string phase;  // init | bo | random | grid
};

// The optimizer seen from a study (bo::Explorer behind explore::ExplorerProposer).
class Proposer {
 public:
  virtual ~Proposer() = default;
  // The next setting given the ones being evaluated now; std::nullopt when there is none left.
  virtual std::optional<Proposal> ask(const std::vector<std::vector<double>>& pending) = 0;
  virtual void tell(const EvaluationRecord& record) = 0;
  // What a resumed proposer needs besides the told records (JSON, stored after every change).
  virtual nlohmann::json state() const = 0;
  virtual void restore_state(const nlohmann::json& state) = 0;
  // Asked as an evaluation starts: the early-stopping rule it consults (issue 18), a snapshot that
  // any thread may call; empty (the default) to let every evaluation run to its end.
  virtual GoOn go_on() const { return {}; }
};

// Evaluates one setting with one seed, asking `go_on` where it can stop early; returns status
// ok|failed, the measurements, seconds and message (id, phase and seed are filled in by the runner,
// and params unless the evaluation stopped early and measured another setting: a training of fewer
// epochs). Called from worker threads.
using Evaluator =
    std::function<EvaluationRecord(const std::vector<double>& params, std::uint64_t seed, const GoOn& go_on)>;

struct RunnerSettings {
  int budget = 0;                  // completed evaluations the study should hold at the end
  int workers = 1;                 // evaluations running at once
  std::uint64_t seed = 0;          // run seed; evaluation seeds derive from it
  bool retry_interrupted = true;   // re-run evaluations a crash left running (else: failed)
  int crash_limit = 2;             // abnormal ends during one evaluation before it is failed (0: never)
  int max_evaluations = 0;         // evaluations this runner starts before it leaves (0: no limit)
  double poll_seconds = 1;         // shared study, budget all taken: how often to look for lost trials
  bool budget_from_study = false;  // follow the budget the study records (run_info "budget"), which a
                                   // later `explore --budget` may raise while workers run
};

// The oracle seed of the evaluation proposed `issue`-th (1-based) in a run seeded with `run_seed`.
std::uint64_t evaluation_seed(std::uint64_t run_seed, int issue);

// How a run ended short of its budget (both false/0 when it used the budget or ran out of proposals).
struct RunnerOutcome {
  int interrupted_signal = 0;  // a stop was requested (core/stop_request.hpp): the signal
  bool stopped = false;        // `should_stop` asked to stop
  // What the study's storage cost this run: evaluations it recorded, seconds waiting for the
  // proposal lock, seconds in the storage's calls (reads, proposals, completions), and seconds in
  // the proposer's asks, and asks repeated because another process proposed meanwhile.
  int recorded = 0, asked_again = 0;
  double lock_wait_seconds = 0, storage_seconds = 0, ask_seconds = 0;
};

class StudyRunner {
 public:
  StudyRunner(Storage& storage, Proposer& proposer, Evaluator evaluator, RunnerSettings settings);
  // Replays the stored evaluations (each passed to `on_complete`, in completion order), then runs
  // until the study holds `budget` completed evaluations or the proposer has nothing left.
  // `on_complete` sees the new records on the calling thread after they are committed, in completion
  // order, those that arrived together at once (an evaluation with its intermediate results; a
  // resumed study's records).
  // It proposes nothing more once a stop signal arrives or `should_stop()` (asked after each
  // completed evaluation) is true, and waits for the evaluations running then. An evaluation that
  // throws Interrupted is not recorded: it stays `running` in the study, and a resume runs it again.
  // A trial left running is evaluated again only when the storage grants this process its claim.
  // On a shared store (several workers) it reads what every worker recorded under the store's
  // proposal lock, asks with every worker's running trials as pending points (Kriging believer)
  // outside it, and records the proposal under it unless another worker proposed meanwhile (then it
  // asks again, under the lock); the budget counts every worker's trials, and a runner whose share is taken waits for
  // the others' last trials, taking over those whose worker is lost.
  RunnerOutcome run(const std::function<void(std::span<const EvaluationRecord>)>& on_complete,
                    const std::function<bool()>& should_stop = {});

 private:
  Storage& storage_;
  Proposer& proposer_;
  Evaluator evaluator_;
  RunnerSettings settings_;
};

}  // namespace dpareto::study
