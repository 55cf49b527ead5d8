#include "dpareto/plot/hv_figure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/plot/figure_style.hpp"

namespace dpareto::plot {
namespace {

// A number to `digits` significant digits.
std::string number_text(double value, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*g", digits, value);
  return buf;
}

// What sets a run apart beyond its method and seed: `--known-epsilon`, `--cost-aware`, `--early-stop`, the acquisition and the
// problem options (host settings aside), by name.
std::map<std::string, std::string> variant_of(const LabelledRun& run) {
  std::map<std::string, std::string> variant;
  const auto& extra = run.data.info.extra;
  if (extra.value("known_epsilon", false)) variant["known ε"] = "";
  if (extra.value("cost_aware", false)) variant["cost-aware"] = "";
  if (extra.value("early_stop", false)) variant["early stop"] = "";
  if (const auto a = extra.find("acquisition"); a != extra.end() && a->is_string())
    variant["acquisition"] = a->get<std::string>();
  if (const auto o = extra.find("problem_options"); o != extra.end() && o->is_object())
    for (const auto& [key, value] : o->items())
      if (key != "data_dir" && key != "threads")
        variant[key] = value.is_string() ? value.get<std::string>() : value.dump();
  return variant;
}

// Each run's method, with ", name=value" for every variant entry the runs do not all share (so that
// two arms of one method are two groups, named by what differs).
std::vector<std::string> methods_of(const std::vector<LabelledRun>& runs) {
  std::vector<std::map<std::string, std::string>> variants;
  std::map<std::pair<std::string, std::string>, std::size_t> holders;  // (name, value) -> runs holding it
  for (const auto& run : runs) {
    variants.push_back(variant_of(run));
    for (const auto& entry : variants.back()) ++holders[entry];
  }
  std::vector<std::string> methods;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    std::string method = runs[i].data.info.method == "grid" ? "grid of " + std::to_string(runs[i].data.records.size())
                                                            : runs[i].data.info.method;
    for (const auto& entry : variants[i])
      if (holders[entry] < runs.size()) method += ", " + entry.first + (entry.second.empty() ? "" : "=" + entry.second);
    methods.push_back(method);
  }
  return methods;
}

std::string reference_text(const study::RunInfo& info) {
  std::string axis =
      info.hv_axis == "log" ? "ε axis log10 (ε floored at " + readable_number(info.log_floor) + ")" : "ε axis linear";
  return "reference point (ε, error) = (" + readable_number(info.objectives[0].reference) + ", " +
         readable_number(info.objectives[1].reference) + "), " + axis;
}

int initial_points(const study::RunData& run) {
  const auto it = run.summary.find("initial_points");
  return it != run.summary.end() && it->is_number_integer() ? it->get<int>() : 0;
}

}  // namespace

Band band_of(const std::vector<std::vector<double>>& series) {
  Band band;
  std::size_t length = 0;
  for (const auto& s : series) length = std::max(length, s.size());
  for (std::size_t i = 0; i < length; ++i) {
    double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
    int n = 0;
    for (const auto& s : series)
      if (i < s.size()) {
        sum += s[i];
        lo = std::min(lo, s[i]);
        hi = std::max(hi, s[i]);
        ++n;
      }
    band.mean.push_back(sum / n);
    band.low.push_back(lo);
    band.high.push_back(hi);
    band.count.push_back(n);
  }
  return band;
}

GnuplotScript hv_figure(const std::vector<LabelledRun>& runs, const HvFigureOptions& options) {
  if (runs.empty()) throw InputError("hv figure: no run directory given");
  for (const auto& run : runs)
    if (run.data.hv_history.empty())
      throw InputError(run.directory + "/summary.json: empty hv_history (the run has no evaluations)");

  // Groups: runs with the same (problem, method), in order of first appearance; grids of different
  // sizes are different methods, not seeds of one ("grid of 243"), and so are runs whose options
  // differ (methods_of).
  std::vector<std::pair<std::string, std::string>> keys;
  std::vector<std::vector<const LabelledRun*>> groups;
  const auto methods = methods_of(runs);
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const LabelledRun& run = runs[r];
    const std::pair<std::string, std::string> key{run.data.info.problem, methods[r]};
    const auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(key);
      groups.push_back({&run});
    } else {
      groups[static_cast<std::size_t>(it - keys.begin())].push_back(&run);
    }
  }
  std::set<std::string> problems;
  for (const auto& k : keys) problems.insert(k.first);

  GnuplotScript script;
  std::vector<std::string> bands, lines;
  // The axes' extent: what is drawn up to --max-evaluations; the zoomed lower end only counts the
  // values after the initial points.
  double y_hi = 0, y_lo = std::numeric_limits<double>::infinity();
  std::size_t x_hi = 1;
  const std::size_t x_end = options.max_evaluations > 0 ? options.max_evaluations : SIZE_MAX;
  auto extend_y = [&](const LabelledRun& run, std::size_t i, double low, double high) {
    if (i >= x_end) return;
    if (std::isfinite(high)) y_hi = std::max(y_hi, high);
    if (std::isfinite(low) && static_cast<int>(i) >= initial_points(run.data)) y_lo = std::min(y_lo, low);
  };
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const SeriesStyle style = series_style(g);
    const std::string tag = "g" + std::to_string(g);
    const std::string name = keys[g].second + (problems.size() > 1 ? " on " + keys[g].first : "");
    if (groups[g].size() == 1) {
      const auto& history = groups[g].front()->data.hv_history;
      std::string rows;
      for (std::size_t i = 0; i < history.size(); ++i) {
        rows += std::to_string(i + 1) + " " + number(history[i]) + "\n";
        extend_y(*groups[g].front(), i, history[i], history[i]);
      }
      x_hi = std::max(x_hi, history.size());
      lines.push_back(script.data(tag, rows) + " using 1:2 with lines lw 2.5 dt " + std::to_string(style.dash) +
                      " lc rgb " + literal(style.color) + " title " + literal(groups[g].front()->label));
      continue;
    }
    std::vector<std::vector<double>> series;
    for (const auto* run : groups[g]) series.push_back(run->data.hv_history);
    const Band band = band_of(series);
    std::string rows;
    for (std::size_t i = 0; i < band.mean.size(); ++i) {
      rows += std::to_string(i + 1) + " " + number(band.mean[i]) + " " + number(band.low[i]) + " " +
              number(band.high[i]) + "\n";
      extend_y(*groups[g].front(), i, band.low[i], band.high[i]);
    }
    x_hi = std::max(x_hi, band.mean.size());
    const std::string block = script.data(tag, rows);
    bands.push_back(block + " using 1:3:4 with filledcurves fs transparent solid 0.18 noborder lc rgb " +
                    literal(style.color) + " title " +
                    literal(name + ": min–max of " + std::to_string(groups[g].size()) + " runs"));
    lines.push_back(block + " using 1:2 with lines lw 2.5 dt " + std::to_string(style.dash) + " lc rgb " +
                    literal(style.color) + " title " +
                    literal(name + ": mean of " + std::to_string(groups[g].size()) + " runs"));
  }

  // Reference points and axes: stated once when shared, per run (with a warning) otherwise.
  std::set<std::string> references;
  for (const auto& run : runs) references.insert(reference_text(run.data.info));
  std::string subtitle = references.size() == 1 ? *references.begin()
                                                : "WARNING: runs differ in reference/axis, hypervolumes not comparable";
  if (options.exact != nullptr) {
    const double exact_hv = study::run_hypervolume(runs.front().data.info, options.exact->data.records);
    y_hi = std::max(y_hi, exact_hv);
    y_lo = std::min(y_lo, exact_hv);
    lines.push_back(number(exact_hv) + " with lines lw 2 dt (10,5,2,5) lc rgb \"#000000\" title " +
                    literal("exact front: " + options.exact->label + ", HV " + number_text(exact_hv, 4)));
  }
  std::set<int> k0;
  for (const auto& run : runs) k0.insert(initial_points(run.data));

  script.command(common_setup());
  script.command("set title " + literal("Hypervolume of the observed front vs evaluations\n" + subtitle) +
                 " noenhanced");
  script.command("set xlabel \"evaluations (count)\"");
  const bool log_axis_hv = runs.front().data.info.hv_axis == "log";
  script.command(std::string("set ylabel ") +
                 (log_axis_hv ? "\"hypervolume (log10 ε × error units)\"" : "\"hypervolume (ε × error units)\""));
  script.command("set xrange [0:" + std::to_string(std::min(x_hi, x_end) + 1) + "]");
  if (options.zoom && std::isfinite(y_lo) && y_hi > y_lo) {
    const double pad = 0.05 * (y_hi - y_lo);
    script.command("set yrange [" + number(y_lo - pad) + ":" + number(y_hi + pad) + "]");
  } else {
    script.command("set yrange [0:" + number(y_hi > 0 ? y_hi * 1.05 : 1) + "]");
  }
  if (k0.size() == 1 && *k0.begin() > 0) {
    const std::string x = std::to_string(*k0.begin()) + ".5";
    script.command("set arrow from " + x + ", graph 0 to " + x +
                   ", graph 1 nohead dt 3 lw 1.5 lc rgb \"#666666\" back");
    script.command("set label \"initial points end\" at " + x +
                   ", graph 0.03 left offset 0.5,0 textcolor rgb \"#444444\"");
  }
  script.command("set key outside right top vertical Left reverse noenhanced width 1");
  std::vector<std::string> plots = bands;
  plots.insert(plots.end(), lines.begin(), lines.end());
  script.command("plot " + join(plots, ", \\\n  "));
  return script;
}

}  // namespace dpareto::plot
