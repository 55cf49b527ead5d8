#pragma once
// Shared look of every figure: series styles that stay distinguishable in greyscale print (each
// series has its own colour, dash type and point type), the heat-map palette, and axis helpers.
#include <string>
#include <vector>

#include "dpareto/plot/gnuplot.hpp"

namespace dpareto::plot {

struct SeriesStyle {
  std::string color;  // "#RRGGBB" (Okabe-Ito, colour-blind safe)
  int dash;           // gnuplot dash type
  int point;          // filled point type
  int open_point;     // the same shape, open
};

// The style of the i-th series (cycles after 7).
SeriesStyle series_style(std::size_t index);
// A translucent version of "#RRGGBB" for faint background points ("#AARRGGBB", gnuplot's alpha).
std::string faint(const std::string& color, double opacity = 0.35);
// "#RRGGBB" with each channel scaled by `factor` in [0, 1]: the same hue, darker (a line drawn over
// a bold one of the run's own colour stays visible).
std::string darker(const std::string& color, double factor = 0.5);

// Commands shared by every plot: grid, border, tics outward, the viridis palette (monotone in
// lightness, so heat maps survive greyscale print).
std::string common_setup();
// "set xrange [lo:hi]" (or y/cb) with a margin so that points on the data's edge are not clipped;
// on a log axis the margin is a factor.
std::string axis_range(const std::string& axis, double low, double high, bool log_scale);
// Log-scale setup of an axis with plain-number tick labels (0.01 0.1 1 10) and minor tics.
std::string log_axis(const std::string& axis);

// A caption line for the bottom of the figure (long captions are cut with "…").
std::string caption_label(const std::string& text, double screen_y = 0.015);

// A legend line with no sample, heading the entries of one run.
std::string key_header(const std::string& text);
// Settings of one 2-D `plot` panel of a 2x2 multiplot: fixed margins (gnuplot's automatic margins
// let a legend below overlap the x label in multiplots, and map-view heat panels beside it would
// not line up), no colour box.
std::string panel_setup(bool has_key);

// Joins items with ", ".
std::string join(const std::vector<std::string>& items, const std::string& separator = ", ");

// The shared end of the objective-space figures (front, variability): the axis labels, ε on a log
// x axis over [x_low, x_high], y over [y_low, y_high], the key outside on the right, up to four
// caption lines (e.g. failed evaluations) under the plot, then the plot command itself.
void finish_objective_figure(GnuplotScript& script, const std::string& x_label, const std::string& y_label,
                             double x_low, double x_high, double y_low, double y_high,
                             const std::vector<std::string>& captions, const std::vector<std::string>& plots);

}  // namespace dpareto::plot
