#include "dpareto/plot/figure_style.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "dpareto/plot/gnuplot.hpp"

namespace dpareto::plot {

SeriesStyle series_style(std::size_t index) {
  static const std::array<SeriesStyle, 7> styles{{
      {"#0072B2", 1, 7, 6},    // blue, solid, circle
      {"#D55E00", 2, 5, 4},    // vermillion, dashed, square
      {"#009E73", 4, 9, 8},    // green, dash-dot, triangle
      {"#CC79A7", 5, 13, 12},  // purple, dash-dot-dot, diamond
      {"#E69F00", 3, 11, 10},  // orange, dotted, inverted triangle
      {"#56B4E9", 6, 15, 14},  // sky blue, pentagon
      {"#000000", 7, 7, 6},
  }};
  return styles[index % styles.size()];
}

std::string faint(const std::string& color, double opacity) {
  const int alpha = std::clamp(static_cast<int>(std::lround((1 - opacity) * 255)), 0, 255);
  char buf[4];
  std::snprintf(buf, sizeof buf, "%02X", alpha);
  return "#" + std::string(buf) + color.substr(1);
}

std::string darker(const std::string& color, double factor) {
  char buf[8];
  const long rgb = std::strtol(color.substr(1, 6).c_str(), nullptr, 16);
  const auto scaled = [&](int shift) {
    return static_cast<int>(std::lround(((rgb >> shift) & 0xFF) * std::clamp(factor, 0.0, 1.0)));
  };
  std::snprintf(buf, sizeof buf, "#%02X%02X%02X", scaled(16), scaled(8), scaled(0));
  return buf;
}

std::string common_setup() {
  return "set border lw 1\n"
         "set tics out nomirror\n"
         "set grid xtics ytics mxtics mytics lc rgb \"#DDDDDD\" lw 0.6, lc rgb \"#F0F0F0\" lw 0.4\n"
         "set key box opaque samplen 5 spacing 1.2\n"
         "set palette defined (0 '#440154', 1 '#3b528b', 2 '#21918c', 3 '#5ec962', 4 '#fde725')\n";
}

std::string axis_range(const std::string& axis, double low, double high, bool log_scale) {
  if (!(low <= high) || !std::isfinite(low) || !std::isfinite(high)) return "set " + axis + "range [*:*]\n";
  double lo = low, hi = high;
  if (log_scale) {
    const double span = std::max(std::log10(hi / lo), 0.3);
    const double pad = std::pow(10.0, 0.04 * span);
    if (hi / lo < 2) {
      lo /= 1.5;
      hi *= 1.5;
    }
    lo /= pad;
    hi *= pad;
  } else {
    const double span = hi - lo > 0 ? hi - lo : std::max(std::abs(hi), 1.0) * 0.1;
    lo -= 0.04 * span;
    hi += 0.04 * span;
  }
  return "set " + axis + "range [" + number(lo) + ":" + number(hi) + "]\n";
}

std::string log_axis(const std::string& axis) {
  return "set logscale " + axis + " 10\nset format " + axis + " \"%g\"\nset m" + axis + "tics 10\n";
}

std::string caption_label(const std::string& text, double screen_y) {
  std::string shown = text;
  if (shown.size() > 220) {
    std::size_t cut = 217;
    while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
    shown = shown.substr(0, cut) + "…";
  }
  return "set label " + literal(shown) + " at screen 0.01, screen " + number(screen_y) + " left front noenhanced\n";
}

std::string key_header(const std::string& text) {
  return "NaN with lines lc rgb \"#FFFFFF\" title " + literal(text);
}

std::string panel_setup(bool has_key) {
  const std::string margins = "set lmargin 10\nset rmargin 4\nset bmargin 7.5\nunset colorbox\n";
  return margins +
         (has_key ? "set key outside below center horizontal maxrows 2 nobox noenhanced samplen 2\n" : "unset key\n");
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

void finish_objective_figure(GnuplotScript& script, const std::string& x_label, const std::string& y_label,
                             double x_low, double x_high, double y_low, double y_high,
                             const std::vector<std::string>& captions, const std::vector<std::string>& plots) {
  script.command("set xlabel " + literal(x_label));
  script.command("set ylabel " + literal(y_label));
  script.command(log_axis("x"));
  script.command(axis_range("x", x_low, x_high, true));
  script.command(axis_range("y", y_low, y_high, false));
  script.command("set key outside right top vertical Left reverse noenhanced width 1");
  const std::size_t shown = std::min<std::size_t>(captions.size(), 4);
  script.command("set bmargin " + std::to_string(4 + 1.5 * shown));
  for (std::size_t i = 0; i < shown; ++i)
    script.command(caption_label(captions[i], 0.015 + 0.035 * static_cast<double>(shown - 1 - i)));
  script.command("plot " + join(plots, ", \\\n  "));
}

}  // namespace dpareto::plot
