// bench_hv_by_training_time: hypervolume against cumulative training seconds for two arms of runs
// (issue 18 item 2: explorations with observe=final against observe=every-epoch). Reads run
// directories; prints, per pair of runs (the i-th of each arm, same seed), the hypervolume the first
// arm reached with all its evaluations, the training seconds and evaluations the second arm needed to
// reach it, and their ratio to the first arm's; then the mean ratio, and both arms' mean hypervolume
// at fractions of the first arm's mean training time. Training seconds are the evaluations' own
// `seconds` (intermediate results cost none). Asserts nothing.
// Usage: bench_hv_by_training_time [--hv-axis linear|log] [--tolerance T] RUN_DIR... -- RUN_DIR...
// (--hv-axis: the axis of every run's hypervolume; default each run's own. --tolerance: the second
// arm reaches the first's hypervolume once within T of it, default 0; e.g. the hypervolume of one
// test example's accuracy across the ε axis, below which two fronts cannot be told apart).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpareto/study/run_record.hpp"

using namespace dpareto;

namespace {

// One run's hypervolume after each evaluation (with its intermediate results) against the training
// seconds spent so far.
struct Curve {
  std::string directory;
  std::vector<double> seconds, hypervolume;
};

Curve curve_of(const std::string& directory, const std::string& hv_axis) {
  auto run = study::read_run_directory(directory);
  if (!hv_axis.empty()) run.info.hv_axis = hv_axis;
  Curve c{directory, {}, {}};
  std::vector<study::EvaluationRecord> so_far;
  double spent = 0;
  for (const auto& group : study::grouped_by_evaluation(run.records)) {
    for (const auto& r : group) spent += r.seconds;
    so_far.insert(so_far.end(), group.begin(), group.end());
    c.seconds.push_back(spent);
    c.hypervolume.push_back(study::run_hypervolume(run.info, so_far));
  }
  return c;
}

// The hypervolume after the last evaluation that finished within `seconds` (0 before the first).
double hypervolume_at(const Curve& c, double seconds) {
  const auto after = std::upper_bound(c.seconds.begin(), c.seconds.end(), seconds);
  return after == c.seconds.begin() ? 0.0 : c.hypervolume[static_cast<std::size_t>(after - c.seconds.begin()) - 1];
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Curve> first, second;
  bool after_separator = false;
  std::string hv_axis;
  double tolerance = 0;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--") {
        after_separator = true;
        continue;
      }
      if (arg == "--hv-axis" && i + 1 < argc) {
        hv_axis = argv[++i];
        if (hv_axis != "linear" && hv_axis != "log")
          throw std::runtime_error("--hv-axis " + hv_axis + ": expected linear or log");
        continue;
      }
      if (arg == "--tolerance" && i + 1 < argc) {
        const std::string value = argv[++i];
        std::size_t used = 0;
        try {
          tolerance = std::stod(value, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != value.size() || !(tolerance >= 0) || !std::isfinite(tolerance))
          throw std::runtime_error("--tolerance " + value + ": expected a finite number >= 0");
        continue;
      }
      (after_separator ? second : first).push_back(curve_of(arg, hv_axis));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_hv_by_training_time: %s\n", e.what());
    return 2;
  }
  if (first.empty() || first.size() != second.size()) {
    std::fprintf(stderr, "usage: bench_hv_by_training_time RUN_DIR... -- RUN_DIR... (as many on each side)\n");
    return 2;
  }
  for (const auto* arm : {&first, &second})
    for (const auto& c : *arm)
      if (c.seconds.empty()) {
        std::fprintf(stderr, "bench_hv_by_training_time: %s has no evaluation\n", c.directory.c_str());
        return 2;
      }
  if (tolerance > 0) std::printf("reaching: within %g of the first arm's final hypervolume\n", tolerance);
  std::printf(
      "pair  first: evaluations  training s  HV  | second reaches that HV after: evaluations  training s  "
      "| seconds ratio  evaluations ratio\n");
  std::vector<double> second_ratios, evaluation_ratios, totals;
  int unreached = 0;
  for (std::size_t i = 0; i < first.size(); ++i) {
    const Curve &a = first[i], &b = second[i];
    const double target = a.hypervolume.back() - tolerance;
    totals.push_back(a.seconds.back());
    const auto reached =
        std::find_if(b.hypervolume.begin(), b.hypervolume.end(), [&](double h) { return h >= target; });
    std::printf("%4zu  %19zu  %10.1f  %.4f | ", i + 1, a.seconds.size(), a.seconds.back(), target);
    if (reached == b.hypervolume.end()) {
      ++unreached;
      std::printf("not reached (best %.4f after %zu evaluations, %.1f s)\n", b.hypervolume.back(), b.seconds.size(),
                  b.seconds.back());
      continue;
    }
    const auto at = static_cast<std::size_t>(reached - b.hypervolume.begin());
    second_ratios.push_back(b.seconds[at] / a.seconds.back());
    evaluation_ratios.push_back(static_cast<double>(at + 1) / static_cast<double>(a.seconds.size()));
    std::printf("%41zu  %10.1f | %13.3f  %17.3f\n", at + 1, b.seconds[at], second_ratios.back(),
                evaluation_ratios.back());
  }
  if (second_ratios.empty())
    std::printf("mean over the 0 pair(s) where the second arm reached the first's hypervolume: none reached it\n");
  else
    std::printf(
        "mean over the %zu pair(s) where the second arm reached the first's hypervolume: training seconds "
        "%.3f of the first arm's, evaluations %.3f; not reached in %d\n",
        second_ratios.size(), mean(second_ratios), mean(evaluation_ratios), unreached);
  // The median over every pair, a pair that never reached it counting as above any ratio (the mean
  // above leaves those out, so it flatters the second arm when some did not reach).
  std::vector<double> all = second_ratios;
  all.resize(first.size(), std::numeric_limits<double>::infinity());
  std::sort(all.begin(), all.end());
  const std::size_t n = all.size();
  const double median = n % 2 ? all[n / 2] : (all[n / 2 - 1] + all[n / 2]) / 2;
  if (std::isfinite(median))
    std::printf("median over all %zu pairs (not reached counted as above every ratio): training seconds %.3f\n", n,
                median);
  else
    std::printf("median over all %zu pairs: not reached in half of them or more\n", n);
  // The mean curves: the first share of the first arm's mean training time at which the second arm's
  // mean hypervolume reaches the first arm's mean final one (a per-seed outlier at the end moves it
  // less than the per-pair figures above).
  const auto mean_at = [&](const std::vector<Curve>& arm, double seconds) {
    std::vector<double> h;
    for (const auto& c : arm) h.push_back(hypervolume_at(c, seconds));
    return mean(h);
  };
  const double first_final = mean_at(first, std::numeric_limits<double>::infinity());
  constexpr int kSteps = 1000;
  int step = 1;
  while (step <= kSteps && mean_at(second, mean(totals) * step / kSteps) < first_final - tolerance) ++step;
  if (step <= kSteps)
    std::printf(
        "mean curves: the second arm's mean hypervolume reaches the first's mean final %.4f at %.3f of the "
        "first arm's mean training time\n",
        first_final, static_cast<double>(step) / kSteps);
  else
    std::printf(
        "mean curves: the second arm's mean hypervolume stays below the first's mean final %.4f within the "
        "first arm's mean training time\n",
        first_final);
  std::printf("\nmean hypervolume at a share of the first arm's mean training time (%.1f s)\nshare  first   second\n",
              mean(totals));
  for (int tenth = 1; tenth <= 10; ++tenth) {
    const double seconds = mean(totals) * tenth / 10.0;
    std::vector<double> ha, hb;
    for (std::size_t i = 0; i < first.size(); ++i) {
      ha.push_back(hypervolume_at(first[i], seconds));
      hb.push_back(hypervolume_at(second[i], seconds));
    }
    std::printf("%5.1f  %.4f  %.4f\n", tenth / 10.0, mean(ha), mean(hb));
  }
  return 0;
}
