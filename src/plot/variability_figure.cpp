#include "dpareto/plot/variability_figure.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "dpareto/core/error.hpp"
#include "dpareto/pareto/dominance.hpp"
#include "dpareto/plot/figure_style.hpp"
#include "dpareto/plot/staircase.hpp"

namespace dpareto::plot {

bool has_repeat_spread(const study::RunData& run) {
  return std::any_of(run.records.begin(), run.records.end(),
                     [](const auto& r) { return r.ok() && r.utility_min < r.utility_max; });
}

GnuplotScript variability_figure(const std::vector<LabelledRun>& runs, const VariabilityFigureOptions& options) {
  if (runs.empty()) throw InputError("variability figure: no run directory given");
  for (const auto& run : runs) require_plottable(run);

  struct Statistic {
    const char* name;
    double study::EvaluationRecord::*utility;
    int dash;
  };
  const std::array<Statistic, 3> statistics{{{"best repeat", &study::EvaluationRecord::utility_max, 2},
                                             {"mean of repeats", &study::EvaluationRecord::utility, 1},
                                             {"worst repeat", &study::EvaluationRecord::utility_min, 3}}};
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = 0;
  double y_lo = x_lo, y_hi = -x_lo;
  for (const auto& run : runs)
    for (const auto& r : run.data.records) {
      if (!plottable(r)) continue;
      x_lo = std::min(x_lo, r.epsilon);
      x_hi = std::max(x_hi, r.epsilon);
      for (const auto& s : statistics) {
        const double y = utility_axis_value(1 - r.*(s.utility), options.accuracy);
        if (!std::isfinite(y)) continue;
        y_lo = std::min(y_lo, y);
        y_hi = std::max(y_hi, y);
      }
    }

  GnuplotScript script;
  std::vector<std::string> plots, captions;
  std::vector<const study::RunData*> all;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const auto& run = runs[k];
    all.push_back(&run.data);
    const SeriesStyle style = series_style(k);
    plots.push_back(key_header(run.label));
    std::string points;
    for (const auto& r : run.data.records)
      if (plottable(r))
        points += number(r.epsilon) + " " + number(utility_axis_value(r.error(), options.accuracy)) + "\n";
    plots.push_back(script.data("p" + std::to_string(k), points) + " using 1:2 with points pt " +
                    std::to_string(style.open_point) + " ps 0.7 lc rgb " + literal(faint(style.color, 0.3)) +
                    " title \"evaluations (mean utility)\"");
    for (std::size_t s = 0; s < statistics.size(); ++s) {
      std::vector<pareto::Point2> objectives;
      for (const auto& r : run.data.records)
        if (plottable(r) && std::isfinite(r.*(statistics[s].utility)))
          objectives.push_back({r.epsilon, 1 - r.*(statistics[s].utility)});
      std::string rows;
      for (const auto& v : staircase(objectives, x_hi))
        rows += number(v[0]) + " " + number(utility_axis_value(v[1], options.accuracy)) + "\n";
      std::string front_rows;
      for (const auto& p : pareto::pareto_front(objectives))
        front_rows += number(p[0]) + " " + number(utility_axis_value(p[1], options.accuracy)) + "\n";
      const std::string tag = "r" + std::to_string(k) + "s" + std::to_string(s);
      plots.push_back(script.data(tag, rows) + " using 1:2 with lines lw " + (s == 1 ? "3" : "2") + " dt " +
                      std::to_string(statistics[s].dash) + " lc rgb " + literal(style.color) + " title " +
                      literal(std::string("front of ") + statistics[s].name));
      plots.push_back(script.data(tag + "p", front_rows) + " using 1:2 with points pt " +
                      std::to_string(s == 1 ? style.point : style.open_point) + " ps 1.1 lc rgb " +
                      literal(style.color) + " notitle");
    }
    if (!has_repeat_spread(run.data))
      captions.push_back(run.label +
                         ": every evaluation has utility_min = utility_max (one repeat?): the three fronts coincide");
    const std::string failed = failed_list(run.data);
    if (!failed.empty()) captions.push_back("failed, not plotted — " + run.label + ": " + failed);
  }

  script.command(common_setup());
  script.command("set title " +
                 literal("Variability of the Pareto front across repeats — problem " + runs.front().data.info.problem +
                         "\nfronts of each setting's mean, best (max utility) and worst (min utility) repeat") +
                 " noenhanced");
  finish_objective_figure(script, epsilon_label(common_delta(all)),
                          utility_axis_label(options.accuracy, utility_name_of(all)), x_lo, x_hi, y_lo, y_hi, captions,
                          plots);
  return script;
}

}  // namespace dpareto::plot
