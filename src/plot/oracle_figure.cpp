#include "dpareto/plot/oracle_figure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dpareto/core/error.hpp"
#include "dpareto/plot/figure_style.hpp"
#include "dpareto/plot/heat_map.hpp"
#include "dpareto/plot/staircase.hpp"

namespace dpareto::plot {

bool log_scaled(const std::vector<double>& values) {
  if (values.empty()) return false;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return *lo > 0 && *hi / *lo >= 50;
}

GnuplotScript oracle_figure(const LabelledRun& run, const OracleFigureOptions& options) {
  require_plottable(run);
  const auto& names = run.data.info.parameter_names;
  if (names.size() != 2)
    throw InputError(run.directory + ": the oracle figure needs a 2-parameter problem, '" + run.data.info.problem +
                     "' has " + std::to_string(names.size()));
  std::vector<double> xs, ys;
  for (const auto& r : run.data.records) {
    xs.push_back(r.params[0]);
    ys.push_back(r.params[1]);
  }
  const bool log_x = log_scaled(xs), log_y = log_scaled(ys);
  std::vector<HeatSample> epsilon_map, error_map;
  std::vector<pareto::Point2> objectives;
  std::string grid_rows;
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = 0, y_lo = x_lo, y_hi = -x_lo;
  for (const auto& r : run.data.records) {
    if (!r.ok()) continue;
    const double y = utility_axis_value(r.error(), options.accuracy);
    epsilon_map.push_back({r.params[0], r.params[1], plottable(r) ? r.epsilon : std::nan("")});
    error_map.push_back({r.params[0], r.params[1], y});
    if (!plottable(r)) continue;
    objectives.push_back({r.epsilon, r.error()});
    grid_rows += number(r.epsilon) + " " + number(y) + "\n";
    x_lo = std::min(x_lo, r.epsilon), x_hi = std::max(x_hi, r.epsilon);
    y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
  }
  const auto front = study::run_front(run.data.records, run.data.info.objectives);
  std::string front_params, front_rows;
  for (const std::size_t i : front) {
    const auto& r = run.data.records[i];
    if (!plottable(r)) continue;
    front_params += number(r.params[0]) + " " + number(r.params[1]) + " " + number(r.epsilon) + "\n";
    front_rows += number(r.epsilon) + " " + number(utility_axis_value(r.error(), options.accuracy)) + "\n";
  }
  std::string stairs;
  for (const auto& v : staircase(objectives, x_hi))
    stairs += number(v[0]) + " " + number(utility_axis_value(v[1], options.accuracy)) + "\n";

  GnuplotScript script;
  const HeatAxis x_axis{names[0], log_x}, y_axis{names[1], log_y};
  const HeatMap eps_map = heat_map(epsilon_map, x_axis, y_axis), err_map = heat_map(error_map, x_axis, y_axis);
  const std::string eps_block = script.data("eps", eps_map.rows);
  const std::string err_block = script.data("err", err_map.rows);
  const std::string grid_block = script.data("grid", grid_rows);
  const std::string stairs_block = script.data("stairs", stairs);
  const std::string front_block = script.data("front", front_rows);
  const std::string front_params_block = script.data("front_params", front_params);
  const auto [x_min, x_max] = std::minmax_element(xs.begin(), xs.end());
  const auto [y_min, y_max] = std::minmax_element(ys.begin(), ys.end());
  const std::string axes =
      x_axis.setup("x", eps_map.x_low, eps_map.x_high) + y_axis.setup("y", eps_map.y_low, eps_map.y_high);
  const std::string utility_name = options.accuracy ? "utility" : "error = 1 − utility";
  std::string title = "Oracles of problem " + run.data.info.problem + " on a grid of " +
                      std::to_string(run.data.records.size()) + " settings — run " + run.label;
  const std::string failed = failed_list(run.data, 3);
  title += failed.empty() ? "" : "\nfailed settings left blank: " + failed;

  script.command(common_setup());
  script.command("set multiplot layout 2,2 title " + literal(title) + " noenhanced");
  script.command(panel_setup(false) + axes + heat_panel_setup(heat_value_range(epsilon_map, true), true, "ε") +
                 "set title \"Privacy oracle: ε\"\nplot " + heat_map_clause(eps_block, eps_map));
  script.command(
      axes + heat_panel_setup(heat_value_range(error_map, false), false, options.accuracy ? "utility" : "error") +
      "set title " + literal("Utility oracle: " + utility_name) + "\nplot " + heat_map_clause(err_block, err_map));
  script.command(common_setup() + panel_setup(true) +
                 "unset logscale y\nset xtics auto\nset ytics auto\nset title \"Exact Pareto front\"\nset xlabel " +
                 literal(epsilon_label("")) + "\nset ylabel " +
                 literal(utility_axis_label(options.accuracy, utility_name_of({&run.data}), true)) + "\n" +
                 log_axis("x") + axis_range("x", x_lo, x_hi, true) + axis_range("y", y_lo, y_hi, false) + "plot " +
                 grid_block + " using 1:2 with points pt 6 ps 0.5 lc rgb " + literal(faint("#0072B2", 0.4)) +
                 " title \"grid settings\", " + stairs_block +
                 " using 1:2 with lines lw 3 lc rgb \"#000000\" title \"exact front\", " + front_block +
                 " using 1:2 with points pt 7 ps 1 lc rgb \"#D55E00\" title \"front settings\"");
  // Bottom right: where the front lies in hyperparameter space (padded so edge points show whole).
  script.command(panel_setup(true) + "set rmargin 13\nset colorbox\nset mxtics default\n" +
                 parameter_axis("x", names[0], log_x, *x_min, *x_max) +
                 parameter_axis("y", names[1], log_y, *y_min, *y_max) + axis_range("x", *x_min, *x_max, log_x) +
                 axis_range("y", *y_min, *y_max, log_y) +
                 "set title \"Settings on the exact front (colour: ε)\"\n"
                 "set logscale cb 10\nset cbrange [*:*]\nset cblabel \"ε\"\nplot " +
                 front_params_block + " using 1:2:3 with points pt 7 ps 1.3 lc palette title \"front setting\"");
  script.command("unset multiplot");
  return script;
}

}  // namespace dpareto::plot
