#pragma once
// The `oracle` figure (DPareto Fig. 1-2): from an `exact` run directory (its evaluations.csv is a
// full grid), both oracles' values as heat maps over the two hyperparameters, the exact Pareto
// front, and the hyperparameter settings that make it up.
#include "dpareto/plot/gnuplot.hpp"
#include "dpareto/plot/labelled_run.hpp"

namespace dpareto::plot {

struct OracleFigureOptions {
  bool accuracy = false;
};

// InputError unless the run has exactly two parameters and ok evaluations.
GnuplotScript oracle_figure(const LabelledRun& run, const OracleFigureOptions& options = {});

// Whether a parameter's values are best shown on a log axis (all positive, spanning ≥ 50×).
bool log_scaled(const std::vector<double>& values);

}  // namespace dpareto::plot
