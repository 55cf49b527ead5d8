// Repeats in parallel (core/parallel_runs): the thread plan against its definition by brute force,
// and run_in_parallel's guarantees: every run once, never more threads busy than given, each run's
// OpenMP team of its planned size (a nested team would be serialized to 1), the lowest run's error.
#include <doctest/doctest.h>
#include <omp.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <thread>

#include "dpareto/core/parallel_runs.hpp"

using namespace dpareto;

TEST_CASE("threads_of_runs: whole waves of single-thread runs, then the rest share every thread") {
  CHECK(threads_of_runs(8, 10) == std::vector<int>{1, 1, 1, 1, 1, 1, 1, 1, 4, 4});
  CHECK(threads_of_runs(16, 10) == std::vector<int>{2, 2, 2, 2, 2, 2, 1, 1, 1, 1});
  CHECK(threads_of_runs(4, 10) == std::vector<int>{1, 1, 1, 1, 1, 1, 1, 1, 2, 2});
  CHECK(threads_of_runs(3, 10) == std::vector<int>{1, 1, 1, 1, 1, 1, 1, 1, 1, 3});
  CHECK(threads_of_runs(2, 10) == std::vector<int>(10, 1));
  CHECK(threads_of_runs(1, 3) == std::vector<int>{1, 1, 1});
  CHECK(threads_of_runs(5, 1) == std::vector<int>{5});
  CHECK(threads_of_runs(7, 0).empty());
  CHECK_THROWS_AS(threads_of_runs(0, 3), std::invalid_argument);
  CHECK_THROWS_AS(threads_of_runs(2, -1), std::invalid_argument);
  for (int threads = 1; threads <= 20; ++threads)
    for (int runs = 1; runs <= 45; ++runs) {
      CAPTURE(threads);
      CAPTURE(runs);
      const auto plan = threads_of_runs(threads, runs);
      const int last = runs < threads ? runs : runs % threads;
      const int whole = runs - last;
      CHECK(whole % threads == 0);
      for (int r = 0; r < whole; ++r) CHECK(plan[static_cast<std::size_t>(r)] == 1);
      if (last > 0) {
        CHECK(std::accumulate(plan.begin() + whole, plan.end(), 0) == threads);  // no thread idles
        for (int r = whole; r < runs; ++r) {  // as even as integers allow, larger shares first
          CHECK(plan[static_cast<std::size_t>(r)] >= threads / last);
          CHECK(plan[static_cast<std::size_t>(r)] <= threads / last + 1);
          if (r > whole) CHECK(plan[static_cast<std::size_t>(r)] <= plan[static_cast<std::size_t>(r - 1)]);
        }
      }
    }
}

TEST_CASE("run_in_parallel: every run once, with its planned OpenMP team, never over the threads") {
  for (const auto& [threads, runs] : std::vector<std::pair<int, int>>{{4, 10}, {3, 10}, {4, 2}, {1, 4}, {6, 1}}) {
    CAPTURE(threads);
    CAPTURE(runs);
    const auto plan = threads_of_runs(threads, runs);
    std::vector<int> calls(static_cast<std::size_t>(runs), 0), given(calls), team(calls);
    // Threads busy and runs under way at once, and the most of each seen.
    std::atomic<int> busy{0}, most_busy{0}, running{0}, most_running{0};
    const auto raise = [](std::atomic<int>& most, int now) {
      for (int seen = most; now > seen && !most.compare_exchange_weak(seen, now);) {
      }
    };
    run_in_parallel(threads, runs, [&](int r, int run_threads) {
      raise(most_busy, busy += run_threads);
      raise(most_running, ++running);
      ++calls[static_cast<std::size_t>(r)];
      given[static_cast<std::size_t>(r)] = run_threads;
#pragma omp parallel num_threads(run_threads)
      {
#pragma omp single
        team[static_cast<std::size_t>(r)] = omp_get_num_threads();
      }
      // Until a second run has been under way beside this one (at most 2 s): overlap, whatever the load.
      const auto since = std::chrono::steady_clock::now();
      while (threads > 1 && runs > 1 && most_running.load() < 2 &&
             std::chrono::steady_clock::now() - since < std::chrono::seconds(2))
        std::this_thread::yield();
      --running;
      busy -= run_threads;
    });
    CHECK(calls == std::vector<int>(static_cast<std::size_t>(runs), 1));
    CHECK(given == plan);
    CHECK(team == plan);
    CHECK(most_busy.load() <= threads);
    if (threads > 1 && runs > 1) CHECK(most_running.load() > 1);  // runs did overlap
  }
}

TEST_CASE("run_in_parallel: a run's default OpenMP team is one thread (a BLAS call stays on it)") {
  std::vector<int> max_threads(4, 0);
  run_in_parallel(4, 4, [&](int r, int) { max_threads[static_cast<std::size_t>(r)] = omp_get_max_threads(); });
  CHECK(max_threads == std::vector<int>(4, 1));
}

TEST_CASE("run_in_parallel: every run ends, then the lowest-numbered run's exception is rethrown") {
  std::atomic<int> ran{0};
  try {
    run_in_parallel(3, 7, [&](int r, int) {
      ++ran;
      if (r == 5) throw std::runtime_error("run 5");
      if (r == 2) throw std::logic_error("run 2");
    });
    FAIL("no exception");
  } catch (const std::logic_error& e) {
    CHECK(std::string(e.what()) == "run 2");
  }
  CHECK(ran.load() == 7);
}
