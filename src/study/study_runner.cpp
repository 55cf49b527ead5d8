#include "dpareto/study/study_runner.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/core/stop_request.hpp"

namespace dpareto::study {

std::uint64_t evaluation_seed(std::uint64_t run_seed, int issue) {
  return derive_seed(run_seed ^ 0x6576616C75617465ULL, static_cast<std::uint64_t>(issue));
}

StudyRunner::StudyRunner(Storage& storage, Proposer& proposer, Evaluator evaluator, RunnerSettings settings)
    : storage_(storage), proposer_(proposer), evaluator_(std::move(evaluator)), settings_(settings) {
  if (settings_.workers < 1) throw InputError("--workers must be at least 1, got " + std::to_string(settings_.workers));
}

RunnerOutcome StudyRunner::run(const std::function<void(const EvaluationRecord&)>& on_complete,
                               const std::function<bool()>& should_stop) {
  RunnerOutcome outcome;
  // Replay: completed evaluations are reused as they are.
  for (const auto& record : storage_.completed()) {
    proposer_.tell(record);
    on_complete(record);
  }
  if (!storage_.explorer_state().is_null()) {
    try {
      proposer_.restore_state(storage_.explorer_state());
    } catch (const std::exception& e) {  // an edited or damaged study: name it
      throw InputError("study " + storage_.location() + ": corrupt explorer state (" + printable(e.what()) + ")");
    }
  }

  std::deque<int> requeued;
  for (const auto& t : storage_.trials()) {
    if (t.record.status != EvaluationStatus::running || !storage_.claim_trial(t.trial)) continue;
    const bool poisoned = settings_.crash_limit > 0 && t.unfinished_starts >= settings_.crash_limit;
    if (settings_.retry_interrupted && !poisoned) {
      requeued.push_back(t.trial);
      continue;
    }
    EvaluationRecord failed = t.record;
    failed.status = EvaluationStatus::failed;
    failed.message = poisoned
                         ? "dpareto ended abnormally (crashed or was killed) " + std::to_string(t.unfinished_starts) +
                               " times while evaluating this setting; recorded as failed so the study can go on"
                         : "interrupted: the evaluation was running when the previous run stopped (--no-retry)";
    proposer_.tell(failed);
    on_complete(storage_.finish_trial(t.trial, failed, proposer_.state()));
  }

  struct Done {
    int trial;
    EvaluationRecord result;
    int interrupted = 0;  // the signal, when the evaluation stopped because a stop was requested
  };
  std::mutex mutex;
  std::condition_variable finished;
  std::deque<Done> done;
  std::map<int, std::vector<double>> running;  // trial -> params
  std::map<int, std::thread> threads;          // trial -> its worker, joined when its result is recorded
  // Joins every worker on any exit (an exception from the database included) while the state they
  // reference is still alive.
  struct Joiner {
    std::map<int, std::thread>& threads;
    ~Joiner() {
      for (auto& [trial, t] : threads)
        if (t.joinable()) t.join();
    }
  } joiner{threads};

  auto start = [&](int trial) {
    const Trial& t = storage_.trials().at(static_cast<std::size_t>(trial));
    running[trial] = t.record.params;
    threads[trial] =
        std::thread([this, &mutex, &finished, &done, trial, params = t.record.params, seed = t.record.seed] {
          EvaluationRecord result;
          int interrupted = 0;
          try {
            result = evaluator_(params, seed);
          } catch (const Interrupted& e) {
            interrupted = e.signal();
          } catch (const std::exception& e) {
            result.status = EvaluationStatus::failed;
            result.message = std::string("evaluation error: ") + e.what();
          }
          std::lock_guard<std::mutex> lock(mutex);
          done.push_back({trial, std::move(result), interrupted});
          finished.notify_one();
        });
  };

  int completed = static_cast<int>(storage_.completed().size());
  bool exhausted = false;
  const auto stopping = [&] {
    if (const int signal = stop_signal()) outcome.interrupted_signal = signal;
    return outcome.interrupted_signal != 0 || outcome.stopped;
  };
  while (true) {
    while (!stopping() && static_cast<int>(running.size()) < settings_.workers &&
           completed + static_cast<int>(running.size()) < settings_.budget) {
      if (!requeued.empty()) {
        const int trial = requeued.front();
        requeued.pop_front();
        storage_.restart_trial(trial);
        start(trial);
        continue;
      }
      if (exhausted) break;
      std::vector<std::vector<double>> pending;
      for (const auto& [trial, params] : running) pending.push_back(params);
      auto proposal = proposer_.ask(pending);
      if (!proposal) {
        exhausted = true;
        break;
      }
      const int issue = static_cast<int>(storage_.trials().size()) + 1;
      start(storage_.begin_trial(proposal->phase, proposal->params, evaluation_seed(settings_.seed, issue),
                                 proposer_.state()));
    }
    if (running.empty()) break;
    std::deque<Done> arrived;
    {
      std::unique_lock<std::mutex> lock(mutex);
      while (!finished.wait_for(lock, std::chrono::seconds(kHeartbeatSeconds), [&] { return !done.empty(); })) {
        lock.unlock();  // `running` changes on this thread only
        for (const auto& [trial, params] : running) storage_.heartbeat(trial);
        lock.lock();
      }
      arrived.swap(done);
    }
    for (auto& d : arrived) {
      running.erase(d.trial);
      threads.at(d.trial).join();
      threads.erase(d.trial);
      if (d.interrupted) {  // left `running` in the study: a resume evaluates it again
        outcome.interrupted_signal = d.interrupted;
        storage_.release_trial(d.trial);
        continue;
      }
      const Trial& t = storage_.trials().at(static_cast<std::size_t>(d.trial));
      EvaluationRecord record = d.result;
      record.phase = t.record.phase;
      record.params = t.record.params;
      record.seed = t.record.seed;
      proposer_.tell(record);
      on_complete(storage_.finish_trial(d.trial, record, proposer_.state()));
      ++completed;
      if (should_stop && should_stop()) outcome.stopped = true;
    }
  }
  return outcome;
}

}  // namespace dpareto::study
