#pragma once
// The `variability` figure (DPareto Fig. 7): for each run, the Pareto fronts of the mean, the best
// and the worst of each evaluation's repeats (utility, utility_max, utility_min).
#include "dpareto/plot/gnuplot.hpp"
#include "dpareto/plot/labelled_run.hpp"

namespace dpareto::plot {

struct VariabilityFigureOptions {
  bool accuracy = false;
};

GnuplotScript variability_figure(const std::vector<LabelledRun>& runs, const VariabilityFigureOptions& options = {});

// Whether any ok record's repeats differ (utility_min < utility_max): otherwise the three fronts
// coincide and the figure says nothing.
bool has_repeat_spread(const study::RunData& run);

}  // namespace dpareto::plot
