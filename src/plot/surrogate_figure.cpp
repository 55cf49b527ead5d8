#include "dpareto/plot/surrogate_figure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/pareto/hypervolume.hpp"
#include "dpareto/pareto/objective_axis.hpp"
#include "dpareto/plot/figure_style.hpp"
#include "dpareto/plot/heat_map.hpp"
#include "dpareto/plot/staircase.hpp"

namespace dpareto::plot {
namespace {

// The value of parameter p at unit coordinate u, on its scale, not rounded (integers relaxed as
// the GPs see them).
double display_value(const space::Parameter& p, double u) {
  if (p.scale == space::Scale::log) return std::exp(std::log(p.low) + u * (std::log(p.high) - std::log(p.low)));
  return p.low + u * (p.high - p.low);
}

// Index of the front record whose removal loses the most hypervolume (on the run's axis).
std::size_t most_contributing_front_record(const study::RunData& run) {
  pareto::EpsilonAxis axis;
  axis.kind = run.info.hv_axis == "log" ? pareto::EpsilonAxis::Kind::log10 : pareto::EpsilonAxis::Kind::linear;
  axis.floor = run.info.log_floor;
  const auto front = study::run_front(run.records);
  const pareto::Point2 reference = axis.map({run.info.reference_epsilon, run.info.reference_error});
  std::vector<pareto::Point2> points;
  for (const std::size_t i : front) points.push_back(axis.map({run.records[i].epsilon, run.records[i].error()}));
  const double total = pareto::hypervolume_2d(points, reference);
  std::size_t best = front.front();
  double best_loss = -1;
  for (std::size_t k = 0; k < front.size(); ++k) {
    auto without = points;
    without.erase(without.begin() + static_cast<std::ptrdiff_t>(k));
    const double loss = total - pareto::hypervolume_2d(without, reference);
    if (loss > best_loss) {
      best_loss = loss;
      best = front[k];
    }
  }
  return best;
}

}  // namespace

GnuplotScript surrogate_figure(const LabelledRun& run, const bo::RunModel& model,
                               const SurrogateFigureOptions& options) {
  require_plottable(run);
  const bo::Explorer& explorer = *model.explorer;
  const space::Space& space = explorer.space();
  if (space.dimension() < 2)
    throw InputError(run.directory + ": the surrogate figure needs at least 2 parameters, problem '" +
                     run.data.info.problem + "' has " + std::to_string(space.dimension()));
  const std::size_t ix = options.x_parameter.empty() ? 0 : space.index_of(options.x_parameter);
  const std::size_t iy = options.y_parameter.empty() ? (ix == 0 ? 1 : 0) : space.index_of(options.y_parameter);
  if (ix == iy) throw InputError("surrogate figure: --x and --y name the same parameter '" + space.parameter(ix).name + "'");
  const auto& px = space.parameter(ix);
  const auto& py = space.parameter(iy);
  const bool log_x = px.scale == space::Scale::log, log_y = py.scale == space::Scale::log;

  // The slice: other parameters fixed at the front point contributing most hypervolume.
  const std::size_t anchor_index = most_contributing_front_record(run.data);
  const auto& anchor = run.data.records[anchor_index];
  const std::vector<double> anchor_unit = space.to_unit(model.params_of(anchor));
  std::string slice;
  for (std::size_t i = 0; i < space.dimension(); ++i)
    if (i != ix && i != iy)
      slice += (slice.empty() ? "" : ", ") + space.parameter(i).name + " = " + format_number(model.params_of(anchor)[i]);

  const int n = std::clamp(options.resolution, 4, 400);
  std::vector<HeatSample> epsilon_map, error_map, acquisition_map;
  double best_acquisition = -1;
  std::pair<double, double> best_at{0, 0};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      std::vector<double> u = anchor_unit;
      u[ix] = (i + 0.5) / n;  // cell centres: the image covers the bounds exactly
      u[iy] = (j + 0.5) / n;
      const double x = display_value(px, u[ix]), y = display_value(py, u[iy]);
      const auto prediction = explorer.predict(u);
      const double error = 1 - 1 / (1 + std::exp(-prediction.mean_logit_utility));
      epsilon_map.push_back({x, y, std::exp(prediction.mean_log_epsilon)});
      error_map.push_back({x, y, utility_axis_value(error, options.accuracy)});
      const double a = explorer.acquisition_at(u);
      acquisition_map.push_back({x, y, a});
      if (a > best_acquisition) {
        best_acquisition = a;
        best_at = {x, y};
      }
    }

  GnuplotScript script;
  const HeatAxis x_axis{px.name, log_x}, y_axis{py.name, log_y};
  const HeatMap eps_map = heat_map(epsilon_map, x_axis, y_axis), err_map = heat_map(error_map, x_axis, y_axis),
                acq_map = heat_map(acquisition_map, x_axis, y_axis);
  const std::string eps_block = script.data("eps", eps_map.rows);
  const std::string err_block = script.data("err", err_map.rows);
  const std::string acq_block = script.data("acq", acq_map.rows);
  std::string evaluated_rows, objective_rows;
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = 0, y_lo = x_lo, y_hi = -x_lo;
  std::vector<pareto::Point2> observed;
  for (const auto& r : run.data.records) {
    if (!r.ok()) continue;
    const auto params = model.params_of(r);
    evaluated_rows += number(x_axis.coordinate(params[ix])) + " " + number(y_axis.coordinate(params[iy])) + "\n";
    if (!plottable(r)) continue;
    const double y = utility_axis_value(r.error(), options.accuracy);
    objective_rows += number(r.epsilon) + " " + number(y) + "\n";
    observed.push_back({r.epsilon, r.error()});
    x_lo = std::min(x_lo, r.epsilon), x_hi = std::max(x_hi, r.epsilon);
    y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
  }
  std::vector<pareto::Point2> exact;
  if (options.exact != nullptr)
    for (const std::size_t i : study::run_front(options.exact->data.records)) {
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
  const std::string points_clause =
      evaluated + " using 1:2 with points pt 7 ps 0.8 lc rgb \"white\" notitle, " + evaluated +
      " using 1:2 with points pt 6 ps 0.8 lc rgb \"black\" title \"evaluated setting\"";

  const std::string axes = x_axis.setup("x", display_value(px, 0), display_value(px, 1)) +
                           y_axis.setup("y", display_value(py, 0), display_value(py, 1));
  std::string title = "GP surrogates of run " + run.label + " (" + std::to_string(run.data.records.size()) +
                      " evaluations, problem " + run.data.info.problem + ")";
  title += slice.empty() ? ""
                         : "\nslice at front point #" + std::to_string(anchor.id) + ": " + slice +
                               " (evaluated settings projected onto it)";
  const std::string utility_name = options.accuracy ? "utility" : "error";

  script.command(common_setup());
  script.command("set multiplot layout 2,2 title " + literal(title) + " noenhanced");
  // Top left: GP mean of ε.
  script.command(panel_setup(true) + axes + heat_panel_setup(heat_value_range(epsilon_map, true), true, "ε") +
                 "set title \"GP mean of ε (privacy oracle surrogate)\"\n"
                 "plot " + heat_map_clause(eps_block, eps_map) + ", " + points_clause);
  // Top right: GP mean of error (or utility).
  script.command(axes + heat_panel_setup(heat_value_range(error_map, false), false, utility_name) +
                 "set title " + literal("GP mean of " + std::string(options.accuracy ? "utility" : "error = 1 − utility") +
                                        " (utility surrogate)") +
                 "\nplot " + heat_map_clause(err_block, err_map) + ", " + points_clause);
  // Bottom left: fronts in objective space.
  std::string fronts = objectives + " using 1:2 with points pt 6 ps 0.7 lc rgb " +
                       literal(faint("#0072B2", 0.5)) + " title \"evaluations\", " + observed_stairs +
                       " using 1:2 with lines lw 3 lc rgb \"#0072B2\" title \"observed front\"";
  if (options.exact != nullptr)
    fronts += ", " + script.data("exact_front", stairs_rows(exact)) +
              " using 1:2 with lines lw 2 dt (10,5,2,5) lc rgb \"#000000\" title \"exact front\"";
  script.command(common_setup() + panel_setup(true) + "set title \"Observed" +
                 std::string(options.exact ? " and exact" : "") + " Pareto front\"\n" + "set xlabel " +
                 literal(epsilon_label("")) + "\nset ylabel " + literal(utility_axis_label(options.accuracy, true)) +
                 "\nunset logscale y\nset ytics auto\nset xtics auto\n" + log_axis("x") + axis_range("x", x_lo, x_hi, true) +
                 axis_range("y", y_lo, y_hi, false) + "plot " + fronts);
  // Bottom right: the acquisition and its maximizer.
  const std::string acquisition_name =
      run.data.info.extra.value("acquisition", "hvpoi") == "ehvi" ? "EHVI" : "HVPoI";
  script.command(panel_setup(true) + "set mxtics default\n" + axes +
                 heat_panel_setup(heat_value_range(acquisition_map, false), false, acquisition_name) + "set title " +
                 literal(acquisition_name + " acquisition and its maximizer on this grid" +
                         (best_acquisition > 0 ? "" : " (zero everywhere)")) +
                 "\nplot " + heat_map_clause(acq_block, acq_map) + ", " + points_clause + ", " + star +
                 " using 1:2 with points pt 3 ps 4 lw 3 lc rgb \"#D55E00\" title \"maximizer\"");
  script.command("unset multiplot");
  return script;
}

}  // namespace dpareto::plot
