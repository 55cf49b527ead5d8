#pragma once
// Shared by the benchmarks: wall times are only meaningful on an otherwise idle machine, so each
// benchmark prints the load average it started under, and CPU time beside wall time.
#include <cstdio>
#include <ctime>

namespace dpareto::bench {

inline void print_load() {
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  double load = -1;
  if (f) {
    if (std::fscanf(f, "%lf", &load) != 1) load = -1;
    std::fclose(f);
  }
  std::printf("load average (1 min) at start: %.2f\n", load);
}

inline double cpu_since(std::clock_t start) {
  return double(std::clock() - start) / CLOCKS_PER_SEC;
}

}  // namespace dpareto::bench
