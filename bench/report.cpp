// bench_report: wall time of a full `dpareto report` (front, hv, variability, surrogate figures and
// report.md) of a 272-evaluation SVT run (docs/plot.md quotes it). Prints figures, asserts
// nothing. Usage: bench_report [RUN_DIR]; without one, a 272-evaluation run is written to a temp
// directory (SVT's exact privacy oracle, a cheap closed-form stand-in for its utility, 3 failures).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <vector>

#include "dpareto/plot/report.hpp"
#include "dpareto/problems/registry.hpp"
#include "dpareto/study/run_record.hpp"

using namespace dpareto;

namespace {

std::string synthetic_svt_run() {
  const auto dir = (std::filesystem::temp_directory_path() / "dpareto-bench-report-run").string();
  std::filesystem::remove_all(dir);
  const auto problem = problems::make_problem("svt");
  study::RunInfo info;
  info.problem = "svt";
  info.method = "dpareto";
  info.seed = 1;
  info.parameter_names = {"bound", "noise"};
  info.objectives[0].reference = 1000;
  info.hv_axis = "log";
  info.extra = {{"initial_points", 16}, {"settings", problem->settings()}};
  study::RunDirectoryWriter writer(dir, info);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int id = 1; id <= 272; ++id) {
    study::EvaluationRecord r;
    r.id = id;
    r.phase = id <= 16 ? "init" : "bo";
    r.params = problem->space().from_unit({unit(rng), unit(rng)});
    r.epsilon = problem->privacy(r.params);
    const double u = 1 / (1 + std::exp(-1.5 * (std::log10(r.epsilon) - 1.5))) / (1 + 0.01 * r.params[0]);
    r.utility = std::clamp(u + 0.02 * (unit(rng) - 0.5), 0.0, 1.0);
    r.utility_min = std::max(0.0, r.utility - 0.1 * unit(rng));
    r.utility_max = std::min(1.0, r.utility + 0.1 * unit(rng));
    r.status = id % 97 == 0 ? study::EvaluationStatus::failed : study::EvaluationStatus::ok;
    r.message = r.status == study::EvaluationStatus::failed ? "synthetic failure" : "";
    writer.add(r);
  }
  return dir;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string run = argc > 1 ? argv[1] : synthetic_svt_run();
  const auto data = study::read_run_directory(run);
  plot::ReportOptions options;
  options.out_dir = (std::filesystem::temp_directory_path() / "dpareto-bench-report").string();
  std::vector<double> seconds;
  std::size_t figures = 0;
  for (int rep = 0; rep < 3; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    figures = plot::write_report({run}, options).figures.size();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(seconds.begin(), seconds.end());
  std::printf("report of %s (%zu evaluations): %zu figures + report.md in %.2f s (median of 3; min %.2f, max %.2f)\n",
              run.c_str(), data.records.size(), figures, seconds[1], seconds[0], seconds[2]);
  return 0;
}
