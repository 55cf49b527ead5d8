#pragma once
// The `surrogate` figure (DPareto Fig. 3-4): on a 2-D space, or a 2-D slice of a larger one with
// the other parameters fixed at the front point contributing most hypervolume, the GP means of ε
// and of error as heat maps with the evaluated points, the observed (and exact) fronts, and the
// acquisition map with its maximizer starred.
#include "dpareto/bo/operating_point.hpp"
#include "dpareto/plot/gnuplot.hpp"
#include "dpareto/plot/labelled_run.hpp"

namespace dpareto::plot {

struct SurrogateFigureOptions {
  std::string x_parameter;  // default: the space's first parameter
  std::string y_parameter;  // default: the second
  int resolution = 40;      // grid cells per axis
  bool accuracy = false;
  const LabelledRun* exact = nullptr;
};

// `model` is rebuild_run_model(run.data, run.directory). InputError for a 1-D space or unknown
// parameter names.
GnuplotScript surrogate_figure(const LabelledRun& run, const bo::RunModel& model,
                               const SurrogateFigureOptions& options = {});

}  // namespace dpareto::plot
