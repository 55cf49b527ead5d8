#pragma once
// The `hv` figure (DPareto Fig. 5 top, Fig. 6): hypervolume of the observed front after each
// evaluation, one line per run; runs of one method on one problem (several seeds) are drawn as
// their mean with a min–max band. The reference point and the ε axis are stated on the figure.
#include "dpareto/plot/gnuplot.hpp"
#include "dpareto/plot/labelled_run.hpp"

namespace dpareto::plot {

struct HvFigureOptions {
  const LabelledRun* exact = nullptr;  // draws the exact front's hypervolume as a horizontal line
  std::size_t max_evaluations = 0;     // > 0: the evaluations axis ends here (a long random run beside 256)
  bool zoom = false;  // the hypervolume axis spans the values after the initial points, not from 0
};

// Throws InputError when a run has no hypervolume history (no evaluations).
GnuplotScript hv_figure(const std::vector<LabelledRun>& runs, const HvFigureOptions& options = {});

// Mean, min and max across series at each index (series may differ in length: index i uses the
// series that reached it). Exposed for tests.
struct Band {
  std::vector<double> mean, low, high;
  std::vector<int> count;
};
Band band_of(const std::vector<std::vector<double>>& series);

}  // namespace dpareto::plot
