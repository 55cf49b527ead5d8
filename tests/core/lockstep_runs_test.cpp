// Runs in lockstep (core/lockstep_runs): one decision a round over every run's value, in run order;
// all runs stop together after the round it says so; never more runs busy than threads; a run that
// throws holds nobody up, and its error (or decide's) comes back from run().
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "dpareto/core/lockstep_runs.hpp"

using namespace dpareto;

TEST_CASE("LockstepRuns: each round decided once on every run's value; all stop after the same round") {
  for (int threads : {1, 2, 3, 8}) {
    CAPTURE(threads);
    constexpr int runs = 5, rounds = 6, stop_after = 4;
    std::vector<std::vector<double>> seen;  // decide's values, a round each
    LockstepRuns lockstep(threads, runs, [&](int round, const std::vector<double>& values) {
      CHECK(round == static_cast<int>(seen.size()) + 1);
      seen.push_back(values);
      return round < stop_after;
    });
    std::vector<int> reached(runs, 0);
    std::atomic<int> busy{0}, most_busy{0};
    lockstep.run([&](int r, int run_threads) {
      CHECK(run_threads >= 1);
      for (int round = 1; round <= rounds; ++round) {
        const int now = ++busy;
        int most = most_busy.load();
        while (now > most && !most_busy.compare_exchange_weak(most, now)) {
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        --busy;
        reached[static_cast<std::size_t>(r)] = round;
        if (!lockstep.meet(r, round, 10.0 * round + r)) return;
      }
    });
    REQUIRE(seen.size() == static_cast<std::size_t>(stop_after));
    for (int round = 1; round <= stop_after; ++round)
      CHECK(seen[static_cast<std::size_t>(round - 1)] ==
            std::vector<double>{10.0 * round, 10.0 * round + 1, 10.0 * round + 2, 10.0 * round + 3, 10.0 * round + 4});
    CHECK(reached == std::vector<int>(runs, stop_after));
    CHECK(most_busy.load() <= std::min(threads, runs));
    if (threads >= 2) CHECK(most_busy.load() >= 2);  // they did run side by side
  }
}

TEST_CASE("LockstepRuns: runs that go to their end without being stopped, and one that throws midway") {
  int decisions = 0;
  LockstepRuns lockstep(2, 4, [&](int, const std::vector<double>& values) {
    ++decisions;
    CHECK(values.size() == (decisions <= 2 ? 4u : 3u));  // run 2 threw in round 3
    return true;
  });
  std::vector<int> reached(4, 0);
  CHECK_THROWS_WITH_AS(lockstep.run([&](int r, int) {
    for (int round = 1; round <= 5; ++round) {
      if (r == 2 && round == 3) throw std::runtime_error("run 2 failed");
      reached[static_cast<std::size_t>(r)] = round;
      REQUIRE(lockstep.meet(r, round, r));
    }
  }),
                       "run 2 failed", std::runtime_error);
  CHECK(decisions == 5);
  CHECK(reached == std::vector<int>{5, 5, 2, 5});
}

TEST_CASE("LockstepRuns: an error in decide stops every run and comes back from run()") {
  LockstepRuns lockstep(3, 3, [](int round, const std::vector<double>&) -> bool {
    if (round == 2) throw std::runtime_error("no decision");
    return true;
  });
  std::vector<int> reached(3, 0);
  CHECK_THROWS_WITH_AS(lockstep.run([&](int r, int) {
    for (int round = 1; round <= 4; ++round) {
      reached[static_cast<std::size_t>(r)] = round;
      if (!lockstep.meet(r, round, 0)) return;
    }
  }),
                       "no decision", std::runtime_error);
  CHECK(reached == std::vector<int>{2, 2, 2});
  CHECK_THROWS_AS(LockstepRuns(0, 3, {}), std::invalid_argument);
  CHECK_THROWS_AS(LockstepRuns(2, 0, {}), std::invalid_argument);
}
