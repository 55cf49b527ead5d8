#pragma once
// R runs that advance in rounds and may all stop together after one (a training's repeats, epoch by
// epoch, stopped early when their mean result cannot improve the front: issue 18, `--early-stop`).
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <vector>

namespace dpareto {

class LockstepRuns {
 public:
  // Asked once a round, when every run still going has ended it, with the runs' values (by run
  // index; only of those that ended the round): whether they all go on.
  using Decide = std::function<bool(int round, const std::vector<double>& values)>;

  // At most `threads` runs are busy at once (the others wait for a turn), so that R runs take the
  // CPU they would take as run_in_parallel(threads, R, ...) does; run r gets
  // threads_of_runs(threads, runs)[r] threads of its own.
  LockstepRuns(int threads, int runs, Decide decide);

  // Calls body(r, its threads) for every run on a std::thread of its own (OpenMP's default team size
  // 1 there, as run_in_parallel); after all end, rethrows decide's exception, else the lowest-numbered
  // run's. A run
  // that throws or returns no longer holds the others up.
  void run(const std::function<void(int run, int run_threads)>& body);

  // Run r's end of `round` with its value: waits for the other runs still going to end it, then
  // returns whether they go on (the same answer for all). Rounds are met in order, 1, 2, ...
  bool meet(int run, int round, double value);

 private:
  void take_turn(std::unique_lock<std::mutex>& lock);
  void decide_round();  // with the lock held, once every run still going has met the round
  void leave();

  int threads_, runs_;
  Decide decide_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int busy_ = 0;         // runs holding a turn
  int going_ = 0;        // runs neither returned nor thrown
  int round_ = 1;        // the round being met
  int arrived_ = 0;      // runs that met it
  bool go_on_ = true;    // the last decision
  int decided_ = 0;      // rounds decided
  std::vector<double> values_;
  std::vector<char> met_;
  std::exception_ptr decide_error_;  // thrown by decide: every run stops, run() rethrows it
};

}  // namespace dpareto
