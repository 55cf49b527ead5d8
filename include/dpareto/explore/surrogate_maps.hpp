#pragma once
// What the `surrogate` figure draws, computed from a rebuilt run's fitted surrogates: the GP means
// of ε and error and the acquisition on a grid over two parameters (the others fixed at the front
// point contributing most hypervolume), and the evaluated settings. plot::surrogate_figure draws it.
#include <string>

#include "dpareto/explore/run_model.hpp"
#include "dpareto/plot/labelled_run.hpp"
#include "dpareto/plot/surrogate_figure.hpp"

namespace dpareto::explore {

struct SurrogateGrid {
  std::string x_parameter;  // default: the space's first parameter
  std::string y_parameter;  // default: the second
  int resolution = 40;      // grid cells per axis (clamped to [4, 400])
};

// `model` is rebuild_run_model(run.data, run.directory). InputError for a 1-D space or unknown
// parameter names.
plot::SurrogateMaps surrogate_maps(const plot::LabelledRun& run, const RunModel& model, const SurrogateGrid& grid = {});

}  // namespace dpareto::explore
