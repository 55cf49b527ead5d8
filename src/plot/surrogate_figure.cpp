#include "dpareto/plot/surrogate_figure.hpp"

#include <algorithm>
#include <limits>

#include "dpareto/plot/figure_style.hpp"
#include "dpareto/plot/staircase.hpp"

namespace dpareto::plot {

GnuplotScript surrogate_figure(const LabelledRun& run, const SurrogateMaps& maps,
                               const SurrogateFigureOptions& options) {
  require_plottable(run);
  std::vector<HeatSample> error_map = maps.error;
  for (auto& sample : error_map) sample.value = utility_axis_value(sample.value, options.accuracy);
  double best_acquisition = -1;
  std::pair<double, double> best_at{0, 0};
  for (const auto& sample : maps.acquisition)
    if (sample.value > best_acquisition) {
      best_acquisition = sample.value;
      best_at = {sample.x, sample.y};
    }

  GnuplotScript script;
  const HeatAxis x_axis{maps.x.name, maps.x.log_scale}, y_axis{maps.y.name, maps.y.log_scale};
  const HeatMap eps_map = heat_map(maps.epsilon, x_axis, y_axis), err_map = heat_map(error_map, x_axis, y_axis),
                acq_map = heat_map(maps.acquisition, x_axis, y_axis);
  const std::string eps_block = script.data("eps", eps_map.rows);
  const std::string err_block = script.data("err", err_map.rows);
  const std::string acq_block = script.data("acq", acq_map.rows);
  std::string evaluated_rows, objective_rows;
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = 0, y_lo = x_lo, y_hi = -x_lo;
  std::vector<pareto::Point2> observed;
  for (const auto& [x, y] : maps.evaluated)
    evaluated_rows += number(x_axis.coordinate(x)) + " " + number(y_axis.coordinate(y)) + "\n";
  for (const auto& r : run.data.records) {
    if (!r.ok() || !plottable(r)) continue;
    const double y = utility_axis_value(r.error(), options.accuracy);
    objective_rows += number(r.epsilon) + " " + number(y) + "\n";
    observed.push_back({r.epsilon, r.error()});
    x_lo = std::min(x_lo, r.epsilon), x_hi = std::max(x_hi, r.epsilon);
    y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
  }
  std::vector<pareto::Point2> exact;
  if (options.exact != nullptr)
    for (const std::size_t i : study::run_front(options.exact->data.records, options.exact->data.info.objectives)) {
      const auto& r = options.exact->data.records[i];
      if (!plottable(r)) continue;
      exact.push_back({r.epsilon, r.error()});
      const double y = utility_axis_value(r.error(), options.accuracy);
      x_lo = std::min(x_lo, r.epsilon), x_hi = std::max(x_hi, r.epsilon);
      y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
    }
  auto stairs_rows = [&](const std::vector<pareto::Point2>& points) {
    std::string rows;
    for (const auto& v : staircase(points, x_hi))
      rows += number(v[0]) + " " + number(utility_axis_value(v[1], options.accuracy)) + "\n";
    return rows;
  };
  const std::string evaluated = script.data("evaluated", evaluated_rows);
  const std::string objectives = script.data("objectives", objective_rows);
  const std::string observed_stairs = script.data("observed_front", stairs_rows(observed));
  const std::string star = script.data(
      "star", number(x_axis.coordinate(best_at.first)) + " " + number(y_axis.coordinate(best_at.second)) + "\n");
  // White dots with a black ring: visible on every colour of the palette.
  const std::string points_clause = evaluated + " using 1:2 with points pt 7 ps 0.8 lc rgb \"white\" notitle, " +
                                    evaluated +
                                    " using 1:2 with points pt 6 ps 0.8 lc rgb \"black\" title \"evaluated setting\"";

  const std::string axes = x_axis.setup("x", maps.x.low, maps.x.high) + y_axis.setup("y", maps.y.low, maps.y.high);
  std::string title = "GP surrogates of run " + run.label + " (" + std::to_string(run.data.records.size()) +
                      " evaluations, problem " + run.data.info.problem + ")";
  title += maps.slice.empty() ? ""
                              : "\nslice at front point #" + std::to_string(maps.anchor_id) + ": " + maps.slice +
                                    " (evaluated settings projected onto it)";
  const std::string utility_name = options.accuracy ? "utility" : "error";

  script.command(common_setup());
  script.command("set multiplot layout 2,2 title " + literal(title) + " noenhanced");
  // Top left: GP mean of ε.
  script.command(panel_setup(true) + axes + heat_panel_setup(heat_value_range(maps.epsilon, true), true, "ε") +
                 "set title \"GP mean of ε (privacy oracle surrogate)\"\n"
                 "plot " +
                 heat_map_clause(eps_block, eps_map) + ", " + points_clause);
  // Top right: GP mean of error (or utility).
  script.command(axes + heat_panel_setup(heat_value_range(error_map, false), false, utility_name) + "set title " +
                 literal("GP mean of " + utility_axis_label(options.accuracy, utility_name_of({&run.data}), true) +
                         " (utility surrogate)") +
                 "\nplot " + heat_map_clause(err_block, err_map) + ", " + points_clause);
  // Bottom left: fronts in objective space.
  std::string fronts = objectives + " using 1:2 with points pt 6 ps 0.7 lc rgb " + literal(faint("#0072B2", 0.5)) +
                       " title \"evaluations\", " + observed_stairs +
                       " using 1:2 with lines lw 3 lc rgb \"#0072B2\" title \"observed front\"";
  if (options.exact != nullptr)
    fronts += ", " + script.data("exact_front", stairs_rows(exact)) +
              " using 1:2 with lines lw 2 dt (10,5,2,5) lc rgb \"#000000\" title \"exact front\"";
  script.command(common_setup() + panel_setup(true) + "set title \"Observed" +
                 std::string(options.exact ? " and exact" : "") + " Pareto front\"\n" + "set xlabel " +
                 literal(epsilon_label("")) + "\nset ylabel " +
                 literal(utility_axis_label(options.accuracy, utility_name_of({&run.data}), true)) +
                 "\nunset logscale y\nset ytics auto\nset xtics auto\n" + log_axis("x") +
                 axis_range("x", x_lo, x_hi, true) + axis_range("y", y_lo, y_hi, false) + "plot " + fronts);
  // Bottom right: the acquisition and its maximizer.
  const std::string& acquisition_name = maps.acquisition_label;
  script.command(panel_setup(true) + "set mxtics default\n" + axes +
                 heat_panel_setup(heat_value_range(maps.acquisition, false), false, acquisition_name) + "set title " +
                 literal(acquisition_name + " acquisition and its maximizer on this grid" +
                         (best_acquisition > 0 ? "" : " (zero everywhere)")) +
                 "\nplot " + heat_map_clause(acq_block, acq_map) + ", " + points_clause + ", " + star +
                 " using 1:2 with points pt 3 ps 4 lw 3 lc rgb \"#D55E00\" title \"maximizer\"");
  script.command("unset multiplot");
  return script;
}

}  // namespace dpareto::plot
