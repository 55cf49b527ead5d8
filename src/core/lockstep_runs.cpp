#include "dpareto/core/lockstep_runs.hpp"

#include <omp.h>

#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

#include "dpareto/core/parallel_runs.hpp"

namespace dpareto {

LockstepRuns::LockstepRuns(int threads, int runs, Decide decide)
    : threads_(threads), runs_(runs), decide_(std::move(decide)) {
  if (threads < 1 || runs < 1)
    throw std::invalid_argument("LockstepRuns: " + std::to_string(threads) + " threads, " + std::to_string(runs) +
                                " runs");
}

void LockstepRuns::take_turn(std::unique_lock<std::mutex>& lock) {
  changed_.wait(lock, [&] { return busy_ < threads_; });
  ++busy_;
}

void LockstepRuns::decide_round() {
  std::vector<double> values;
  for (int r = 0; r < runs_; ++r)
    if (met_[static_cast<std::size_t>(r)]) values.push_back(values_[static_cast<std::size_t>(r)]);
  try {
    go_on_ = decide_(round_, values);
  } catch (...) {  // every run stops; run() rethrows it
    go_on_ = false;
    if (!decide_error_) decide_error_ = std::current_exception();
  }
  decided_ = round_;
  ++round_;
  arrived_ = 0;
  std::fill(met_.begin(), met_.end(), 0);
  changed_.notify_all();
}

bool LockstepRuns::meet(int run, int round, double value) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (round != round_) throw std::logic_error("LockstepRuns: run " + std::to_string(run) + " met round " +
                                              std::to_string(round) + " while round " + std::to_string(round_) +
                                              " was being met");
  values_[static_cast<std::size_t>(run)] = value;
  met_[static_cast<std::size_t>(run)] = 1;
  --busy_;  // its turn passes while it waits
  changed_.notify_all();
  if (++arrived_ == going_)
    decide_round();
  else
    changed_.wait(lock, [&] { return decided_ >= round; });
  const bool go_on = go_on_;
  if (go_on) take_turn(lock);
  else ++busy_;  // to be given back by leave() as the run returns
  return go_on;
}

void LockstepRuns::leave() {
  std::lock_guard<std::mutex> lock(mutex_);
  --busy_;
  --going_;
  if (going_ > 0 && arrived_ == going_) decide_round();  // the others waited for this run only
  changed_.notify_all();
}

void LockstepRuns::run(const std::function<void(int, int)>& body) {
  const std::vector<int> plan = threads_of_runs(threads_, runs_);
  values_.assign(static_cast<std::size_t>(runs_), 0.0);
  met_.assign(static_cast<std::size_t>(runs_), 0);
  going_ = runs_;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(runs_));
  std::vector<std::thread> workers;
  for (int r = 0; r < runs_; ++r)
    workers.emplace_back([&, r] {
      omp_set_num_threads(1);
      {
        std::unique_lock<std::mutex> lock(mutex_);
        take_turn(lock);
      }
      try {
        body(r, plan[static_cast<std::size_t>(r)]);
      } catch (...) {
        errors[static_cast<std::size_t>(r)] = std::current_exception();
      }
      leave();
    });
  for (auto& t : workers) t.join();
  if (decide_error_) std::rethrow_exception(decide_error_);
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace dpareto
