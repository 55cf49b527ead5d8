#pragma once
// Wall seconds since a steady-clock time point.

#include <chrono>

namespace dpareto {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace dpareto
