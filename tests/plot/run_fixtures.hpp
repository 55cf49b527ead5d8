#pragma once
// Hand-written run directories for the plot tests (study::RunDirectoryWriter, no problem needed).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "dpareto/study/run_record.hpp"

namespace dpareto::plot::test {

// A fresh empty directory under the system temp dir.
inline std::string temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("dpareto-plot-test-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline study::RunInfo svt_like_info(const std::string& method, std::uint64_t seed) {
  study::RunInfo info;
  info.problem = "svt";
  info.method = method;
  info.seed = seed;
  info.parameter_names = {"bound", "noise"};
  info.objectives.set_reference({1000, 1});
  info.hv_axis = "log";
  info.log_floor = 1e-2;
  info.extra = {{"initial_points", 8}, {"settings", {{"repeats", "5"}}}};
  return info;
}

// `n` records of an SVT-shaped trade-off: ε = (1 + (2C)^{1/3})(1 + (2C)^{2/3}) / b, utility rising
// with ε; the first 8 are "init", the rest `later_phase`; ids listed in `failed` fail.
inline void write_synthetic_run(const std::string& dir, const std::string& method, std::uint64_t seed, int n,
                                const std::vector<int>& failed = {}, const std::string& later_phase = "bo") {
  study::RunDirectoryWriter writer(dir, svt_like_info(method, seed));
  std::uint64_t state = seed * 2654435761u + 12345;
  auto uniform = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  for (int id = 1; id <= n; ++id) {
    study::EvaluationRecord r;
    r.id = id;
    r.phase = id <= 8 ? "init" : later_phase;
    const double bound = std::round(1 + 29 * uniform());
    const double noise = std::pow(10.0, -2 + 4 * uniform());
    r.params = {bound, noise};
    const bool fails = std::find(failed.begin(), failed.end(), id) != failed.end();
    r.status = fails ? study::EvaluationStatus::failed : study::EvaluationStatus::ok;
    r.message = fails ? "synthetic failure " + std::to_string(id) : "";
    const double c2 = 2 * bound;
    r.epsilon = (1 + std::cbrt(c2)) * (1 + std::cbrt(c2 * c2)) / noise;
    const double base = 1 / (1 + std::exp(-(std::log10(r.epsilon) - 1.0) * 1.5)) / (1 + 0.02 * bound);
    r.utility = std::clamp(base + 0.03 * (uniform() - 0.5), 0.0, 1.0);
    r.utility_min = std::max(0.0, r.utility - 0.1 * uniform());
    r.utility_max = std::min(1.0, r.utility + 0.1 * uniform());
    r.seconds = 0.01;
    writer.add(r);
  }
}

}  // namespace dpareto::plot::test
