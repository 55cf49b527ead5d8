#include "dpareto/core/parallel_runs.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

namespace dpareto {
namespace {

// The runs of the last wave: those left after whole waves of `threads` (all of them when fewer).
int last_wave(int threads, int runs) {
  return runs < threads ? runs : runs % threads;
}

}  // namespace

std::vector<int> threads_of_runs(int threads, int runs) {
  if (threads < 1 || runs < 0)
    throw std::invalid_argument("threads_of_runs: " + std::to_string(threads) + " threads, " + std::to_string(runs) +
                                " runs");
  std::vector<int> out(static_cast<std::size_t>(runs), 1);
  const int last = last_wave(threads, runs);
  for (int i = 0; i < last; ++i)
    out[static_cast<std::size_t>(runs - last + i)] = threads / last + (i < threads % last ? 1 : 0);
  return out;
}

void run_in_parallel(int threads, int runs, const std::function<void(int, int)>& run) {
  const std::vector<int> plan = threads_of_runs(threads, runs);
  std::vector<std::exception_ptr> errors(plan.size());
  const auto guarded = [&](int r) {
    try {
      run(r, plan[static_cast<std::size_t>(r)]);
    } catch (...) {
      errors[static_cast<std::size_t>(r)] = std::current_exception();
    }
  };
  if (threads == 1 || runs <= 1) {
    for (int r = 0; r < runs; ++r) guarded(r);
  } else {
    const int whole = runs - last_wave(threads, runs);  // runs in whole waves, one thread each
    // Whole waves: `threads` workers take the next run as they finish one.
    std::atomic<int> next{0};
    std::vector<std::thread> workers;
    for (int w = 0; w < std::min(threads, whole); ++w)
      workers.emplace_back([&] {
        omp_set_num_threads(1);
        for (int r = next++; r < whole; r = next++) guarded(r);
      });
    for (auto& t : workers) t.join();
    workers.clear();
    // The last wave: its runs at once, sharing the threads.
    for (int r = whole; r < runs; ++r)
      workers.emplace_back([&, r] {
        omp_set_num_threads(1);
        guarded(r);
      });
    for (auto& t : workers) t.join();
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace dpareto
