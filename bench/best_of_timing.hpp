#pragma once
// Best-of-N wall and process CPU time of a piece of work, for the benchmarks.
#include <time.h>

#include <algorithm>
#include <chrono>

namespace dpareto::bench {

inline double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Timing {
  double wall = 1e300, cpu = 1e300;  // best of the runs
};

// Runs f(0), ..., f(runs − 1) and keeps the smallest wall and CPU times.
template <class F>
Timing best_of(int runs, F&& f) {
  Timing best;
  for (int r = 0; r < runs; ++r) {
    const double cpu0 = cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    f(r);
    best.wall = std::min(best.wall, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    best.cpu = std::min(best.cpu, cpu_seconds() - cpu0);
  }
  return best;
}

}  // namespace dpareto::bench
