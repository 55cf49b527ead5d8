#include "dpareto/plot/front_figure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/plot/figure_style.hpp"
#include "dpareto/plot/staircase.hpp"

namespace dpareto::plot {
namespace {

std::string phase_name(const std::string& phase) {
  if (phase == "init") return "initial points";
  if (phase == "bo") return "BO points";
  return phase + " points";
}

// The (ε, error) points of a run's front, drawable ones only; with more than two objectives, the
// front's projection (its staircase is the (ε, error) front of them).
std::vector<pareto::Point2> front_points(const study::RunData& run) {
  std::vector<pareto::Point2> points;
  for (const std::size_t i : study::run_front(run.records, run.info.objectives))
    if (plottable(run.records[i])) points.push_back({run.records[i].epsilon, run.records[i].error()});
  return points;
}

// The objective whose values colour the front points (DESIGN.md §3.7: 2-D projections, a further
// objective as colour): `wanted` when given, which every run must have after (ε, error); else the
// third, when every run has the same one; none for two-objective runs or runs that differ.
std::optional<std::string> colour_objective(const std::vector<LabelledRun>& runs,
                                            const std::optional<std::string>& wanted) {
  if (wanted) {
    std::optional<std::string> column;
    for (const auto& run : runs) {
      const auto& objectives = run.data.info.objectives;
      const std::string where = "--colour-by " + printable(*wanted) + " (run " + printable(run.directory) + ")";
      const std::size_t i = objectives.index_of(*wanted, where);
      if (i < 2) throw InputError(where + ": '" + printable(*wanted) + "' is an axis of the figure, not a colour");
      column = objectives[i].column();
    }
    return column;
  }
  std::optional<std::string> name;
  for (const auto& run : runs) {
    const auto& objectives = run.data.info.objectives;
    if (objectives.size() < 3 || (name && *name != objectives[2].column())) return std::nullopt;
    name = objectives[2].column();
  }
  return name;
}

std::string staircase_rows(const std::vector<pareto::Point2>& front, double x_end, bool accuracy) {
  std::string rows;
  for (const auto& v : staircase(front, x_end))
    rows += number(v[0]) + " " + number(utility_axis_value(v[1], accuracy)) + "\n";
  return rows;
}

// A utility the runs' summary.json records under `key` ("baseline": the one to beat; "non_private":
// a model trained without DP), when every run records the same.
struct Baseline {
  double utility;
  std::string source;
};
std::optional<Baseline> common_baseline(const std::vector<LabelledRun>& runs, const std::string& key) {
  std::optional<Baseline> common;
  for (const auto& run : runs) {
    const auto it = run.data.info.extra.find(key);
    if (it == run.data.info.extra.end() || !it->is_object() || !it->contains("utility") ||
        !it->at("utility").is_number())
      return std::nullopt;
    const double utility = it->at("utility").get<double>();
    if (!(utility >= 0 && utility <= 1) || (common && common->utility != utility)) return std::nullopt;
    const auto source = it->value("source", nlohmann::json(""));
    common = Baseline{utility, source.is_string() ? source.get<std::string>() : ""};
  }
  return common;
}

}  // namespace

GnuplotScript front_figure(const std::vector<LabelledRun>& runs, const FrontFigureOptions& options) {
  if (runs.empty()) throw InputError("front figure: no run directory given");
  for (const auto& run : runs) require_plottable(run);
  if (options.exact != nullptr) require_plottable(*options.exact);

  double x_lo = std::numeric_limits<double>::infinity(), x_hi = 0;
  double y_lo = std::numeric_limits<double>::infinity(), y_hi = -y_lo;
  auto extend = [&](double eps, double error) {
    x_lo = std::min(x_lo, eps);
    x_hi = std::max(x_hi, eps);
    const double y = utility_axis_value(error, options.accuracy);
    y_lo = std::min(y_lo, y);
    y_hi = std::max(y_hi, y);
  };
  for (const auto& run : runs)
    for (const auto& r : run.data.records)
      if (plottable(r)) extend(r.epsilon, r.error());
  if (options.mark) extend(options.mark->epsilon, 1 - options.mark->utility);
  const auto robust_of = [&](std::size_t k) { return k < options.robust.size() ? options.robust[k] : nullptr; };
  for (std::size_t k = 0; k < runs.size(); ++k)
    if (const auto* robust = robust_of(k))
      for (const auto& p : front_points(*robust)) extend(p[0], p[1]);
  const std::optional<Baseline> baseline = common_baseline(runs, "baseline");
  if (baseline) extend(x_lo, 1 - baseline->utility);
  std::optional<Baseline> non_private = common_baseline(runs, "non_private");
  if (options.non_private) non_private = Baseline{*options.non_private, ""};
  if (non_private) extend(x_lo, 1 - non_private->utility);
  std::vector<pareto::Point2> exact_front;
  if (options.exact != nullptr) {
    exact_front = front_points(options.exact->data);
    for (const auto& p : exact_front) extend(p[0], p[1]);
  }

  GnuplotScript script;
  std::vector<std::string> plots, captions;
  const std::optional<std::string> colour = colour_objective(runs, options.colour_by);
  std::vector<const study::RunData*> all;
  std::size_t evaluations = 0;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const auto& run = runs[k];
    all.push_back(&run.data);
    evaluations += run.data.records.size();
    const SeriesStyle style = series_style(k);
    const std::string tag = "r" + std::to_string(k);
    // Background points, one series per phase (initial points open, the others filled).
    std::map<std::string, std::string> rows_by_phase;
    std::map<std::string, int> count_by_phase;
    std::vector<std::string> phase_order;
    plots.push_back(key_header(run.label));
    for (const auto& r : run.data.records) {
      if (!plottable(r)) continue;
      if (!rows_by_phase.count(r.phase)) phase_order.push_back(r.phase);
      rows_by_phase[r.phase] +=
          number(r.epsilon) + " " + number(utility_axis_value(r.error(), options.accuracy)) + "\n";
      ++count_by_phase[r.phase];
    }
    for (std::size_t p = 0; p < phase_order.size(); ++p) {
      const std::string& phase = phase_order[p];
      const std::string block = script.data(tag + "_" + std::to_string(p), rows_by_phase[phase]);
      const bool open = phase == "init";
      plots.push_back(block + " using 1:2 with points pt " + std::to_string(open ? style.open_point : style.point) +
                      " ps " + (open ? "1.1" : "0.8") + " lc rgb " + literal(faint(style.color, open ? 0.6 : 0.35)) +
                      " title " + literal(phase_name(phase) + " (" + std::to_string(count_by_phase[phase]) + ")"));
    }
    // The front's points once: their (ε, error) for the staircase, and their rows (with the colour).
    std::vector<pareto::Point2> front;
    std::string front_rows;
    for (const std::size_t i : study::run_front(run.data.records, run.data.info.objectives)) {
      const auto& r = run.data.records[i];
      if (!plottable(r)) continue;
      front.push_back({r.epsilon, r.error()});
      front_rows += number(r.epsilon) + " " + number(utility_axis_value(r.error(), options.accuracy));
      front_rows += colour ? " " + number(r.column(*colour)) + "\n" : "\n";
    }
    const std::string stairs = script.data(tag + "_stairs", staircase_rows(front, x_hi, options.accuracy));
    const std::string points = script.data(tag + "_front", front_rows);
    plots.push_back(
        stairs + " using 1:2 with lines lw 3 dt " + std::to_string(style.dash) + " lc rgb " + literal(style.color) +
        " title " +
        literal("Pareto front (" + std::to_string(front.size()) + (front.size() == 1 ? " point)" : " points)")));
    if (colour)
      plots.push_back(points + " using 1:2:3 with points pt " + std::to_string(style.point) +
                      " ps 1.6 lc palette notitle");
    else
      plots.push_back(points + " using 1:2 with points pt " + std::to_string(style.point) + " ps 1.4 lc rgb " +
                      literal(style.color) + " notitle");
    if (const auto* robust = robust_of(k)) {
      const auto robust_front = front_points(*robust);
      plots.push_back(script.data(tag + "_robust", staircase_rows(robust_front, x_hi, options.accuracy)) +
                      " using 1:2 with lines lw 2 dt 3 lc rgb " + literal(darker(style.color)) + " title " +
                      literal("robust front (" + std::to_string(robust_front.size()) +
                              (robust_front.size() == 1 ? " point)" : " points)")));
    }
    const std::string failed = failed_list(run.data);
    if (!failed.empty()) captions.push_back("failed, not plotted — " + run.label + ": " + failed);
    if (const std::size_t n = unplottable_count(run.data); n > 0)
      captions.push_back(run.label + ": " + std::to_string(n) +
                         " ok point(s) with ε ≤ 0 or ε = inf not drawable on the log axis");
  }
  if (options.exact != nullptr) {
    const std::string stairs = script.data("exact", staircase_rows(exact_front, x_hi, options.accuracy));
    plots.push_back(stairs + " using 1:2 with lines lw 2 dt (10,5,2,5) lc rgb \"#000000\" title " +
                    literal("exact front: " + options.exact->label));
  }

  if (options.max_epsilon) {
    if (!(*options.max_epsilon > x_lo))
      throw InputError("--max-epsilon " + format_number(*options.max_epsilon) +
                       ": the epsilon axis would end before the smallest epsilon " + readable_number(x_lo));
    x_hi = std::min(x_hi, *options.max_epsilon);
    std::size_t beyond = 0;
    for (const auto& run : runs)
      for (const auto& r : run.data.records) beyond += plottable(r) && r.epsilon > x_hi;
    if (beyond > 0)
      captions.push_back(std::to_string(beyond) + " point(s) with ε above " + readable_number(x_hi) +
                         " not shown (--max-epsilon)");
  }
  if (options.mark) {
    const auto& m = *options.mark;
    const double y = utility_axis_value(1 - m.utility, options.accuracy);
    if (m.target_epsilon && *m.target_epsilon > x_lo && *m.target_epsilon < x_hi) {
      const std::string target = script.data("target", number(*m.target_epsilon) + " " + number(y_lo) + "\n" +
                                                           number(*m.target_epsilon) + " " + number(y_hi) + "\n");
      plots.push_back(target + " using 1:2 with lines lw 1.5 dt 2 lc rgb \"#CC79A7\" title " +
                      literal("target ε ≤ " + readable_number(*m.target_epsilon)));
    }
    const std::string point = script.data("mark", number(m.epsilon) + " " + number(y) + "\n");
    plots.push_back(point + " using 1:2 with points pt 3 ps 3.5 lw 2.5 lc rgb \"#000000\" title " +
                    literal(clean_utf8(m.label)));
  }
  // Horizontal reference lines across the ε axis: the utility to beat, and what no privacy reaches.
  auto reference_line = [&](const std::string& name, double utility, const std::string& style,
                            const std::string& title) {
    const std::string y = number(utility_axis_value(1 - utility, options.accuracy));
    plots.push_back(script.data(name, number(x_lo) + " " + y + "\n" + number(x_hi) + " " + y + "\n") +
                    " using 1:2 with lines " + style + " title " + literal(title));
  };
  if (baseline)
    reference_line("baseline", baseline->utility, "lw 2 dt 3 lc rgb \"#777777\"",
                   "baseline " + readable_number(baseline->utility) + " (" + printable(baseline->source, 40) + ")");
  if (non_private)
    reference_line("non_private", non_private->utility, "lw 2 dt 4 lc rgb \"#009E73\"",
                   "non-private " + readable_number(non_private->utility) + " (no DP)");
  std::set<std::string> problems;
  for (const auto& run : runs) problems.insert(run.data.info.problem);
  if (problems.size() > 1)
    captions.push_back("warning: runs of " + std::to_string(problems.size()) +
                       " problems overlaid: their fronts compare only where the data, the accountant and δ agree");

  // Three short lines: the title is centred over the plot area, which the legend narrows, and a
  // longer line is cut at the figure's edge.
  std::string title = "Privacy–utility Pareto front";
  if (problems.size() > 1) {
    title += "s — " + std::to_string(problems.size()) + " problems";
  } else if (!runs.front().data.info.problem.empty()) {
    title += " — problem " + runs.front().data.info.problem;
  }
  title += "\n" + std::to_string(evaluations) + " evaluations in " + std::to_string(runs.size()) + " run(s)" +
           "\ninitial points open, later points filled, fronts bold" +
           (std::any_of(options.robust.begin(), options.robust.end(), [](const auto* r) { return r != nullptr; })
                ? ", robust fronts dotted"
                : "");
  if (colour) {
    title += "\nfront points of the " + std::to_string(runs.front().data.info.objectives.size()) +
             "-objective front, coloured by " + *colour;
    script.command("set cblabel " + literal(*colour) + " noenhanced");
    script.command("set colorbox user origin graph 1.03, graph 0 size graph 0.03, graph 0.62");
  }
  script.command(common_setup());
  script.command("set title " + literal(title) + " noenhanced");
  finish_objective_figure(script, epsilon_label(common_delta(all)),
                          utility_axis_label(options.accuracy, utility_name_of(all)), x_lo, x_hi, y_lo, y_hi, captions,
                          plots);
  return script;
}

}  // namespace dpareto::plot
