#pragma once
// Two sets of run directories compared by hypervolume on one common axis (DPareto Sec. 4, Table 2:
// DPareto's front against random sampling's, reference (10, 1), linear ε): each run's hypervolume
// after its first N evaluations, the paper's per-run statistic (this run minus each run of the other
// set, a one-sample t) and Welch's two-sample t when both sets have several runs.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/core/mean_difference.hpp"
#include "dpareto/pareto/point.hpp"

namespace dpareto::explore {

struct ComparisonAxis {
  std::optional<pareto::Point> reference;  // default: the first run's
  std::optional<std::string> hv_axis;      // linear | log; default: the first run's
  std::optional<double> log_floor;         // default: the first run's
  std::size_t evaluations = 0;             // count each run's first N evaluations (failed included); 0: all
  // > 0: each run of the second set is cut into consecutive parts of this many evaluations, each
  // compared as a run of its own (the paper's 5000 random samples split into 19 parts of 256); a
  // trailing part shorter than this is left out.
  std::size_t split_against = 0;
};

struct ComparedRun {
  std::string directory;        // "DIR" or, for a part of a split run, "DIR[257-512]"
  std::string problem, method;
  std::size_t evaluations = 0;  // counted (N, or all of the run's)
  double hypervolume = 0;
};

struct RunComparison {
  pareto::Point reference;
  std::string hv_axis;
  double log_floor = 0;
  std::size_t evaluations = 0;  // N, or 0 when each run counts all of its evaluations
  std::vector<ComparedRun> runs, against;
  std::vector<MeanDifference> per_run;  // runs[i] minus each of `against` (when `against` has ≥ 2)
  std::optional<MeanDifference> welch;  // when both sides have ≥ 2 runs
  std::vector<std::string> warnings;    // runs of different problems, ...
};

// InputError naming the directory for an unreadable run, one with fewer than N evaluations, or a
// reference whose size is not the runs' number of objectives.
RunComparison compare_runs(const std::vector<std::string>& runs, const std::vector<std::string>& against,
                           const ComparisonAxis& axis, double level = 0.95);

}  // namespace dpareto::explore
