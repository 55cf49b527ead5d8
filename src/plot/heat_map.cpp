#include "dpareto/plot/heat_map.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "dpareto/plot/gnuplot.hpp"

namespace dpareto::plot {
namespace {

std::vector<double> distinct(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

bool uniform(const std::vector<double>& c) {
  if (c.size() < 2) return true;
  const double step = (c.back() - c.front()) / static_cast<double>(c.size() - 1);
  for (std::size_t i = 1; i < c.size(); ++i)
    if (std::abs(c[i] - c[i - 1] - step) > 1e-3 * step) return false;
  return true;
}

// Half a cell beyond the outermost coordinates (a single coordinate gets ±0.5).
std::pair<double, double> extent(const std::vector<double>& c) {
  const double half = c.size() < 2 ? 0.5 : (c.back() - c.front()) / static_cast<double>(c.size() - 1) / 2;
  return {c.front() - half, c.back() + half};
}

}  // namespace

double HeatAxis::coordinate(double value) const {
  return log_scale ? std::log10(value) : value;
}

std::string HeatAxis::setup(const std::string& axis, double low, double high) const {
  const double lo = coordinate(low), hi = coordinate(high);
  std::string out = "set " + axis + "label " + literal(name + (log_scale ? " (log scale)" : "")) + " noenhanced\n";
  out += "set m" + axis + "tics default\nunset logscale " + axis + "\nset " + axis + "range [" + number(lo) + ":" +
         number(hi) + "]\n";
  if (!log_scale) return out + "set " + axis + "tics auto\nset format " + axis + " \"%g\"\n";
  // Decades labelled in parameter units; 2× and 5× too when fewer than two decades are in range.
  std::string tics;
  const int first = static_cast<int>(std::floor(lo)), last = static_cast<int>(std::ceil(hi));
  int decades = 0;
  for (int d = first; d <= last; ++d) decades += d >= lo - 1e-9 && d <= hi + 1e-9;
  for (int d = first; d <= last; ++d)
    for (int k = 1; k <= 9; ++k) {
      const double c = d + std::log10(static_cast<double>(k));
      if (c < lo - 1e-9 || c > hi + 1e-9) continue;
      const bool labelled = k == 1 || (decades < 2 && (k == 2 || k == 5));
      char label[32];
      std::snprintf(label, sizeof label, "%g", k * std::pow(10.0, d));
      tics += std::string(tics.empty() ? "" : ", ") + "\"" + (labelled ? label : "") + "\" " + number(c) +
              (labelled ? "" : " 1");
    }
  return out + "set " + axis + "tics (" + tics + ")\n";
}

HeatMap heat_map(const std::vector<HeatSample>& samples, const HeatAxis& x, const HeatAxis& y) {
  std::vector<double> xs, ys;
  std::map<std::pair<double, double>, double> values;
  for (const auto& s : samples) {
    const double cx = x.coordinate(s.x), cy = y.coordinate(s.y);
    xs.push_back(cx);
    ys.push_back(cy);
    values[{cx, cy}] = s.value;
  }
  HeatMap map;
  xs = distinct(xs);
  ys = distinct(ys);
  if (xs.empty()) return map;
  map.regular = uniform(xs) && uniform(ys);
  for (const double cx : xs) {
    for (const double cy : ys) {
      const auto it = values.find({cx, cy});
      map.rows += number(cx) + " " + number(cy) + " " + number(it == values.end() ? std::nan("") : it->second) + "\n";
    }
    map.rows += "\n";
  }
  const auto [x0, x1] = extent(xs);
  const auto [y0, y1] = extent(ys);
  auto back = [](const HeatAxis& a, double c) { return a.log_scale ? std::pow(10.0, c) : c; };
  map.x_low = back(x, x0), map.x_high = back(x, x1), map.y_low = back(y, y0), map.y_high = back(y, y1);
  return map;
}

std::string heat_map_clause(const std::string& block, const HeatMap& map) {
  return map.regular ? block + " using 1:2:3 with image notitle"
                     : block + " using 1:2:3 with points pt 5 ps 1.5 lc palette notitle";
}

std::pair<double, double> heat_value_range(const std::vector<HeatSample>& samples, bool positive_only) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& s : samples)
    if (std::isfinite(s.value) && (!positive_only || s.value > 0)) {
      lo = std::min(lo, s.value);
      hi = std::max(hi, s.value);
    }
  if (lo > hi) return {std::nan(""), std::nan("")};
  return {lo, hi};
}

std::string heat_panel_setup(const std::pair<double, double>& value_range, bool log_colors,
                             const std::string& color_label) {
  std::string out = "unset grid\nset colorbox\nset rmargin 13\n";
  out += log_colors ? "set logscale cb 10\nset format cb \"%g\"\n" : "unset logscale cb\nset format cb \"%g\"\n";
  auto [lo, hi] = value_range;
  if (std::isfinite(lo) && std::isfinite(hi)) {
    if (!(hi > lo)) hi = log_colors ? lo * 10 : lo + 1;  // a flat map still needs a colour range
    out += "set cbrange [" + number(lo) + ":" + number(hi) + "]\n";
  } else {
    out += "set cbrange [*:*]\n";
  }
  return out + "set cblabel " + literal(color_label) + "\n";
}

std::string parameter_axis(const std::string& axis, const std::string& name, bool log_scale, double low, double high) {
  std::string out = "set " + axis + "label " + literal(name + (log_scale ? " (log scale)" : "")) + " noenhanced\n";
  out += log_scale ? "set logscale " + axis + " 10\nset format " + axis + " \"%g\"\n"
                   : "unset logscale " + axis + "\nset format " + axis + " \"%g\"\n";
  out += "set " + axis + "tics auto\nset " + axis + "range [" + number(low) + ":" + number(high) + "]\n";
  return out;
}

}  // namespace dpareto::plot
