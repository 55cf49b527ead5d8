#pragma once
// The `surrogate` figure (DPareto Fig. 3-4): on a 2-D space, or a 2-D slice of a larger one with
// the other parameters fixed at the front point contributing most hypervolume, the GP means of ε
// and of error as heat maps with the evaluated points, the observed (and exact) fronts, and the
// acquisition map with its maximizer starred. The maps are plain data computed by whoever holds
// the fitted surrogates (explore::surrogate_maps); this file only draws them.
#include <string>
#include <utility>
#include <vector>

#include "dpareto/plot/gnuplot.hpp"
#include "dpareto/plot/heat_map.hpp"
#include "dpareto/plot/labelled_run.hpp"

namespace dpareto::plot {

// One parameter axis of the slice: its name, scale and bounds (parameter units).
struct SurrogateAxis {
  std::string name;
  bool log_scale = false;
  double low = 0, high = 1;
};

struct SurrogateMaps {
  SurrogateAxis x, y;
  // On the grid of (x, y) cell centres: the GP mean of ε, of error = 1 − utility (sigmoid of the
  // logit mean), and the acquisition, in grid order.
  std::vector<HeatSample> epsilon, error, acquisition;
  std::string acquisition_label = "HVPoI";  // the acquisition's name in the figure
  // The ok evaluations' (x, y) settings, in record order.
  std::vector<std::pair<double, double>> evaluated;
  // A slice of a larger space: the front point (its id) fixing the other parameters, and their
  // values as "name = value, ..." (empty for a 2-D space).
  int anchor_id = 0;
  std::string slice;
};

struct SurrogateFigureOptions {
  bool accuracy = false;
  const LabelledRun* exact = nullptr;
};

GnuplotScript surrogate_figure(const LabelledRun& run, const SurrogateMaps& maps,
                               const SurrogateFigureOptions& options = {});

}  // namespace dpareto::plot
