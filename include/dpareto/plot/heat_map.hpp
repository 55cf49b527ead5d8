#pragma once
// Heat maps over two hyperparameters as raster images (gnuplot `with image`: seamless, unlike
// rectangles, and exact, unlike pm3d's interpolation). A log-scale parameter is drawn on a log10
// coordinate with tick labels in its own units, so the image grid stays uniform. Samples lie on a
// grid (every distinct x with every distinct y); cells with no sample or a non-finite value are
// left blank.
#include <string>
#include <utility>
#include <vector>

namespace dpareto::plot {

struct HeatSample {
  double x, y, value;  // parameter units
};

// One axis of a heat-map panel.
struct HeatAxis {
  std::string name;
  bool log_scale = false;
  double coordinate(double value) const;  // log10(value) on a log scale, else value
  // Label, range [low, high] (parameter units, converted) and ticks labelled in parameter units.
  std::string setup(const std::string& axis, double low, double high) const;
};

struct HeatMap {
  std::string rows;     // "x y value" in coordinates, one scan per x with blank lines between
  bool regular = true;  // uniformly spaced coordinates (drawn as an image), else coloured squares
  double x_low = 0, x_high = 0, y_low = 0, y_high = 0;  // outer cell edges, parameter units
};
HeatMap heat_map(const std::vector<HeatSample>& samples, const HeatAxis& x, const HeatAxis& y);

// The plot clause drawing a heat map's datablock.
std::string heat_map_clause(const std::string& block, const HeatMap& map);
// The smallest and largest finite (and, with `positive_only`, positive) value; {NaN, NaN} if none.
std::pair<double, double> heat_value_range(const std::vector<HeatSample>& samples, bool positive_only);
// Panel setup for a heat map: no grid, the colour box with its range, scale and label.
std::string heat_panel_setup(const std::pair<double, double>& value_range, bool log_colors,
                             const std::string& color_label);
// Axis setup of an ordinary (points) panel over one parameter: label, scale, range.
std::string parameter_axis(const std::string& axis, const std::string& name, bool log_scale, double low, double high);

}  // namespace dpareto::plot
