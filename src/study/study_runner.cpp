#include "dpareto/study/study_runner.hpp"

#include <algorithm>
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
#include "dpareto/core/worker_slot.hpp"

namespace dpareto::study {
namespace {

// Runs `work`, adding its wall time to `seconds`; returns what it returns.
template <class Work>
auto timed(double& seconds, Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  struct Add {
    double& seconds;
    std::chrono::steady_clock::time_point start;
    ~Add() { seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
  } add{seconds, start};
  return work();
}

}  // namespace

std::uint64_t evaluation_seed(std::uint64_t run_seed, int issue) {
  return derive_seed(run_seed ^ 0x6576616C75617465ULL, static_cast<std::uint64_t>(issue));
}

StudyRunner::StudyRunner(Storage& storage, Proposer& proposer, Evaluator evaluator, RunnerSettings settings)
    : storage_(storage), proposer_(proposer), evaluator_(std::move(evaluator)), settings_(settings) {
  if (settings_.workers < 1) throw InputError("--workers must be at least 1, got " + std::to_string(settings_.workers));
}

RunnerOutcome StudyRunner::run(const std::function<void(std::span<const EvaluationRecord>)>& on_complete,
                               const std::function<bool()>& should_stop) {
  RunnerOutcome outcome;
  // Completed evaluations reach the proposer (and on_complete) in completion order, whoever
  // completed them: stored ones are reused as they are, never re-run.
  std::size_t told = 0;
  int evaluations_told = 0;  // of them, the evaluations of their own (not intermediate results)
  const auto catch_up = [&] {
    const auto records = storage_.completed();
    const std::size_t first = told;
    for (; told < records.size(); ++told) {
      proposer_.tell(records[told]);
      evaluations_told += records[told].is_intermediate() ? 0 : 1;
    }
    if (told > first) on_complete(std::span(records).subspan(first));
  };
  // Trials counted against the budget: every one but the intermediate results.
  const auto proposed_evaluations = [&] {
    return static_cast<int>(std::count_if(storage_.trials().begin(), storage_.trials().end(),
                                          [](const Trial& t) { return !t.record.is_intermediate(); }));
  };
  // The explorer state (ask counter, GP warm start) as the study holds it: restored once from a
  // single-writer store, before every ask from a shared one (another worker may have asked since).
  const auto restore_state = [&] {
    if (storage_.explorer_state().is_null()) return;
    try {
      proposer_.restore_state(storage_.explorer_state());
    } catch (const std::exception& e) {  // an edited or damaged study: name it
      throw InputError("study " + storage_.location() + ": corrupt explorer state (" + printable(e.what()) + ")");
    }
  };
  std::deque<int> requeued;
  // Trials left running (by a crash, or a lost worker) that this process may claim: evaluated again,
  // or recorded as failed without retry or once they ended abnormally crash_limit times.
  const auto take_over = [&](const std::vector<int>& trials) {
    for (const int trial : trials) {
      const Trial& t = storage_.trials().at(static_cast<std::size_t>(trial));
      if (t.record.status != EvaluationStatus::running || !storage_.claim_trial(trial)) continue;
      const Trial& claimed = storage_.trials().at(static_cast<std::size_t>(trial));
      const bool poisoned = settings_.crash_limit > 0 && claimed.unfinished_starts >= settings_.crash_limit;
      // An intermediate result is stored, never evaluated: one left running was cut off between its
      // two writes by a dpareto that stored each result apart from its evaluation (studies from before
      // 2026-12-01; its evaluation and the results before it stand).
      const bool cut_off = claimed.record.is_intermediate();
      if (settings_.retry_interrupted && !poisoned && !cut_off) {
        requeued.push_back(trial);
        continue;
      }
      EvaluationRecord failed = claimed.record;
      failed.status = EvaluationStatus::failed;
      failed.message =
          cut_off    ? "an intermediate result whose recording was cut off (dpareto stopped between its two writes); "
                       "not evaluated on its own"
          : poisoned ? "dpareto ended abnormally (crashed or was killed) " + std::to_string(claimed.unfinished_starts) +
                           " times while evaluating this setting; recorded as failed so the study can go on"
                     : "interrupted: the evaluation was running when the previous run stopped or its worker was lost "
                       "(--no-retry)";
      storage_.finish_trial(trial, failed, proposer_.state());
    }
    catch_up();
  };
  const bool shared = storage_.shared();
  {
    const auto lock = storage_.lock_proposals();
    storage_.refresh();
    catch_up();
    restore_state();
    std::vector<int> left_running;
    for (const auto& t : storage_.trials())
      if (t.record.status == EvaluationStatus::running) left_running.push_back(t.trial);
    take_over(left_running);
  }

  struct Done {
    int trial;
    EvaluationRecord result;
    int interrupted = 0;  // the signal, when the evaluation stopped because a stop was requested
  };
  std::mutex mutex;
  std::condition_variable finished;
  std::deque<Done> done;
  std::map<int, std::thread> threads;  // trial -> its worker, joined when its result is recorded
  // Joins every worker on any exit (an exception from the database included) while the state they
  // reference is still alive.
  struct Joiner {
    std::map<int, std::thread>& threads;
    ~Joiner() {
      for (auto& [trial, t] : threads)
        if (t.joinable()) t.join();
    }
  } joiner{threads};

  int started = 0;
  // The slot (0..workers−1) each running trial occupies: the external oracle's {worker}.
  std::map<int, int> slot_of;
  const auto free_slot = [&] {
    for (int slot = 0;; ++slot)
      if (std::none_of(slot_of.begin(), slot_of.end(), [&](const auto& entry) { return entry.second == slot; }))
        return slot;
  };
  auto start = [&](int trial) {
    const Trial& t = storage_.trials().at(static_cast<std::size_t>(trial));
    ++started;
    const int slot = slot_of[trial] = free_slot();
    threads[trial] = std::thread([this, &mutex, &finished, &done, trial, slot, params = t.record.params,
                                  seed = t.record.seed, go_on = proposer_.go_on()] {
          const WorkerSlotScope in_slot(slot);
          EvaluationRecord result;
          int interrupted = 0;
          try {
            result = evaluator_(params, seed, go_on);
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

  bool exhausted = false;
  const auto stopping = [&] {
    if (const int signal = stop_signal()) outcome.interrupted_signal = signal;
    const bool leaving = settings_.max_evaluations > 0 && started >= settings_.max_evaluations;
    return outcome.interrupted_signal != 0 || outcome.stopped || leaving;
  };
  const auto completed = [&] { return evaluations_told; };
  const auto budget = [&] {
    return settings_.budget_from_study ? storage_.run_info().extra.value("budget", settings_.budget) : settings_.budget;
  };
  while (true) {
    // Fill the free slots: a trial to take over first, else a new proposal while the budget (counted
    // over every worker's completed and running trials) has room. On a shared store the ask runs
    // outside the proposal lock, so that one worker's GP fit does not hold the others up; its
    // proposal is recorded only if no other process proposed meanwhile, else it asks again with
    // theirs pending; after kUnlockedAsks such tries it asks under the lock (so that a busy study
    // still makes progress).
    constexpr int kUnlockedAsks = 3;
    int unlocked_asks_left = shared ? kUnlockedAsks : 0;
    while (!stopping() && static_cast<int>(threads.size()) < settings_.workers) {
      auto lock = timed(outcome.lock_wait_seconds, [&] { return storage_.lock_proposals(); });
      if (shared) {
        timed(outcome.storage_seconds, [&] { storage_.refresh(); });
        catch_up();
        take_over(storage_.abandoned_trials());
      }
      if (!requeued.empty()) {
        if (completed() + static_cast<int>(threads.size()) >= budget()) break;
        const int trial = requeued.front();
        requeued.pop_front();
        timed(outcome.storage_seconds, [&] { storage_.restart_trial(trial); });
        start(trial);
        continue;
      }
      if (exhausted || proposed_evaluations() >= budget()) break;
      const std::size_t proposed = storage_.trials().size();
      const bool unlocked_ask = unlocked_asks_left > 0;
      if (unlocked_ask) lock.reset();
      if (shared) restore_state();
      std::vector<std::vector<double>> pending;
      for (const auto& t : storage_.trials())
        if (t.record.status == EvaluationStatus::running) pending.push_back(t.record.params);
      auto proposal = timed(outcome.ask_seconds, [&] { return proposer_.ask(pending); });
      if (!proposal) {
        exhausted = true;
        break;
      }
      if (unlocked_ask) {
        lock = timed(outcome.lock_wait_seconds, [&] { return storage_.lock_proposals(); });
        timed(outcome.storage_seconds, [&] { storage_.refresh(); });
        if (storage_.trials().size() != proposed) {  // another process proposed meanwhile
          ++outcome.asked_again;
          --unlocked_asks_left;
          continue;
        }
      }
      const int issue = static_cast<int>(storage_.trials().size()) + 1;
      start(timed(outcome.storage_seconds, [&] {
        return storage_.begin_trial(proposal->phase, proposal->params, evaluation_seed(settings_.seed, issue),
                                    proposer_.state());
      }));
      unlocked_asks_left = shared ? kUnlockedAsks : 0;
    }
    if (threads.empty()) {
      // Other workers may still be evaluating the last trials of a shared study's budget: wait, and
      // take over any they abandon, until the budget is complete.
      if (!shared || stopping() || exhausted || completed() >= budget()) break;
      std::this_thread::sleep_for(std::chrono::duration<double>(settings_.poll_seconds));
      continue;
    }
    std::deque<Done> arrived;
    {
      std::unique_lock<std::mutex> lock(mutex);
      finished.wait(lock, [&] { return !done.empty(); });
      arrived.swap(done);
    }
    for (auto& d : arrived) {
      threads.at(d.trial).join();
      threads.erase(d.trial);
      slot_of.erase(d.trial);
      if (d.interrupted) {  // left `running` in the study: a resume evaluates it again
        outcome.interrupted_signal = d.interrupted;
        storage_.release_trial(d.trial);
        continue;
      }
      const Trial& t = storage_.trials().at(static_cast<std::size_t>(d.trial));
      EvaluationRecord record = d.result;
      record.phase = t.record.phase;
      if (record.params.empty()) record.params = t.record.params;  // else the setting a stopped training measured
      record.seed = t.record.seed;
      // Its intermediate results are stored with it, in one transaction (Storage::finish_trial).
      timed(outcome.storage_seconds, [&] { storage_.finish_trial(d.trial, record, proposer_.state()); });
      ++outcome.recorded;
      catch_up();
      if (should_stop && should_stop()) outcome.stopped = true;
    }
  }
  return outcome;
}

}  // namespace dpareto::study
