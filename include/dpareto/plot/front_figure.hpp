#pragma once
// The `front` figure (DPareto Fig. 5 bottom, Fig. 8): every evaluated point (faint; initial points
// open, BO/random/grid points filled), each run's Pareto front as a bold staircase, an optional
// exact front; ε on a log axis, error (or utility) on the other; failed evaluations listed in the
// caption, never drawn.
#include <optional>
#include <string>
#include <vector>

#include "dpareto/plot/gnuplot.hpp"
#include "dpareto/plot/labelled_run.hpp"

namespace dpareto::plot {

// An operating point drawn on the front (`pick --png`): a star with its label, and the target's
// ε as a vertical line when it has one.
struct MarkedPoint {
  double epsilon = 0, utility = 0;
  std::string label;
  std::optional<double> target_epsilon;
};

struct FrontFigureOptions {
  bool accuracy = false;               // plot utility (higher is better) instead of error
  const LabelledRun* exact = nullptr;  // a `dpareto exact` run: its front is drawn as the truth
  std::optional<double> max_epsilon;   // the ε axis ends here; the caption counts the points beyond
  std::optional<MarkedPoint> mark;
  std::optional<double> non_private;  // a non-private model's utility (else the runs' "non_private", if common)
  // Per run (in order; shorter, or null entries: none), the run with its robust utilities
  // (explore/robust_front.hpp): its front is drawn as a thin dotted staircase in a darker shade of the run's colour
  // (visible where it runs along the bold observed front).
  std::vector<const study::RunData*> robust;
  // The further objective whose values colour the front points (every run must have it); without
  // it, the third objective when every run has the same.
  std::optional<std::string> colour_by;
};

// Throws InputError when a run has nothing to draw (see require_plottable). Render with render().
GnuplotScript front_figure(const std::vector<LabelledRun>& runs, const FrontFigureOptions& options = {});

}  // namespace dpareto::plot
