#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/plot/figure_style.hpp"
#include "dpareto/plot/front_figure.hpp"
#include "dpareto/plot/hv_figure.hpp"
#include "dpareto/plot/oracle_figure.hpp"
#include "dpareto/plot/variability_figure.hpp"
#include "png_image.hpp"
#include "run_fixtures.hpp"

using namespace dpareto;
using namespace dpareto::plot;
namespace fs = std::filesystem;

namespace {

void check_png(const std::string& path, int width, int height, const std::vector<std::string>& colors) {
  const auto image = test::read_png(path);
  CHECK(image.width == width);
  CHECK(image.height == height);
  CHECK(test::luminance_variance(image) > 100.0);  // not blank
  for (const auto& c : colors) CHECK_MESSAGE(test::count_color(image, c) > 200, "series colour " << c);
}

}  // namespace

TEST_CASE("front, hv and variability figures render as valid, non-blank PNGs with distinct series colours") {
  const std::string dir = test::temp_dir("figures");
  const std::string a = dir + "/run-a", b = dir + "/run-b", c = dir + "/run-c";
  test::write_synthetic_run(a, "dpareto", 1, 60, {5, 17});
  test::write_synthetic_run(b, "random", 2, 60, {}, "random");
  test::write_synthetic_run(c, "random", 3, 50, {}, "random");
  const auto runs = load_runs({a, b, c});
  const std::string blue = series_style(0).color, vermillion = series_style(1).color;

  render(front_figure(runs), dir + "/front.png", {900, 600});
  check_png(dir + "/front.png", 900, 600, {blue, vermillion});

  render(hv_figure(runs), dir + "/hv.png", {1200, 800});
  check_png(dir + "/hv.png", 1200, 800, {blue, vermillion});

  // Zoomed on a long run's first 40 evaluations: the axes follow what is drawn there.
  HvFigureOptions zoomed;
  zoomed.max_evaluations = 40;
  zoomed.zoom = true;
  const auto hv_zoomed = hv_figure(runs, zoomed).text();
  CHECK(hv_zoomed.find("set xrange [0:41]") != std::string::npos);
  CHECK(hv_zoomed.find("set yrange [0:") == std::string::npos);
  double lowest = INFINITY, highest = 0;  // after the 8 initial points of the fixtures, up to 40
  for (const auto& run : runs)
    for (std::size_t i = 0; i < 40 && i < run.data.hv_history.size(); ++i) {
      if (i >= 8) lowest = std::min(lowest, run.data.hv_history[i]);
      highest = std::max(highest, run.data.hv_history[i]);
    }
  const double pad = 0.05 * (highest - lowest);
  CHECK(hv_zoomed.find("set yrange [" + dpareto::format_number(lowest - pad) + ":" +
                       dpareto::format_number(highest + pad) + "]") != std::string::npos);
  CHECK(hv_figure(runs).text().find("set yrange [0:") != std::string::npos);
  render(hv_figure(runs, zoomed), dir + "/hv_zoomed.png", {1200, 800});
  check_png(dir + "/hv_zoomed.png", 1200, 800, {blue, vermillion});

  // Grids of different sizes are two methods, never the band of two seeds of one.
  test::write_synthetic_run(dir + "/grid3", "grid", 4, 27, {}, "grid");
  test::write_synthetic_run(dir + "/grid4", "grid", 5, 64, {}, "grid");
  const auto grids = hv_figure(load_runs({dir + "/grid3", dir + "/grid4"})).text();
  CHECK(grids.find("min–max") == std::string::npos);
  CHECK(grids.find("title 'grid3 (grid)'") != std::string::npos);
  CHECK(grids.find("title 'grid4 (grid)'") != std::string::npos);

  render(variability_figure({runs[0]}, {true}), dir + "/variability.png", {1000, 700});
  check_png(dir + "/variability.png", 1000, 700, {blue});

  // SVG and PDF by extension.
  render(front_figure({runs[0]}), dir + "/front.svg", {800, 600});
  render(front_figure({runs[0]}), dir + "/front.pdf", {800, 600});
  std::ifstream svg(dir + "/front.svg"), pdf(dir + "/front.pdf");
  std::string svg_text((std::istreambuf_iterator<char>(svg)), {}), pdf_head(4, ' ');
  pdf.read(pdf_head.data(), 4);
  CHECK(svg_text.find("<svg") != std::string::npos);
  CHECK(pdf_head == "%PDF");
}

TEST_CASE("the front caption lists failed evaluations, which are never plotted") {
  const std::string dir = test::temp_dir("failed");
  test::write_synthetic_run(dir + "/run", "dpareto", 4, 20, {3, 11});
  const auto script = front_figure({load_run(dir + "/run")}).text();
  CHECK(script.find("#3 (synthetic failure 3)") != std::string::npos);
  CHECK(script.find("#11 (synthetic failure 11)") != std::string::npos);
  // Counts per phase exclude the failed #3 (init) and #11 (bo).
  CHECK(script.find("initial points (7)") != std::string::npos);
  CHECK(script.find("BO points (11)") != std::string::npos);
}

TEST_CASE("bad input: no evaluations, only failed ones, missing or corrupt summary") {
  const std::string dir = test::temp_dir("bad");
  { study::RunDirectoryWriter empty(dir + "/empty", test::svt_like_info("dpareto", 1)); }
  CHECK_THROWS_WITH_AS(front_figure({load_run(dir + "/empty")}), doctest::Contains("no evaluations"), InputError);
  CHECK_THROWS_AS(hv_figure({load_run(dir + "/empty")}), InputError);
  test::write_synthetic_run(dir + "/failed", "dpareto", 1, 3, {1, 2, 3});
  CHECK_THROWS_WITH_AS(front_figure({load_run(dir + "/failed")}), doctest::Contains("all 3 evaluations failed"),
                       InputError);
  CHECK_THROWS_AS(load_run(dir + "/missing"), InputError);
  test::write_synthetic_run(dir + "/corrupt", "dpareto", 1, 3);
  std::ofstream(dir + "/corrupt/summary.json") << "{ not json";
  CHECK_THROWS_WITH_AS(load_run(dir + "/corrupt"), doctest::Contains("summary.json"), InputError);
}

TEST_CASE("output format by extension; a missing gnuplot names the package") {
  CHECK(format_from_path("a/b.PNG") == Format::png);
  CHECK(format_from_path("x.svg") == Format::svg);
  CHECK(format_from_path("x.pdf") == Format::pdf);
  CHECK_THROWS_AS(format_from_path("x.jpg"), InputError);
  ::setenv("DPARETO_GNUPLOT", "/nonexistent/gnuplot", 1);
  CHECK_THROWS_WITH_AS(gnuplot_executable(), doctest::Contains("gnuplot-nox"), DependencyError);
  ::unsetenv("DPARETO_GNUPLOT");
  const std::string saved = std::getenv("PATH");
  ::setenv("PATH", "/nonexistent", 1);
  CHECK_THROWS_WITH_AS(render(GnuplotScript{}, "/tmp/x.png", {}),
                       doctest::Contains("install the Debian package gnuplot-nox"), DependencyError);
  ::setenv("PATH", saved.c_str(), 1);
}

TEST_CASE("a gnuplot error is reported with its line") {
  GnuplotScript script;
  script.command("plot $undefined_block using 1:2");
  const std::string out = test::temp_dir("gperr") + "/x.png";
  CHECK_THROWS_WITH_AS(render(script, out, {}), doctest::Contains("gnuplot failed"), Error);
}

TEST_CASE("oracle figure of a hand-made exact grid: heat maps and front render; needs two parameters") {
  const std::string dir = test::temp_dir("oracle");
  study::RunInfo info = test::svt_like_info("exact", 1);
  {
    study::RunDirectoryWriter writer(dir + "/exact", info);
    std::vector<study::EvaluationRecord> grid;
    int id = 0;
    for (int bound = 1; bound <= 30; bound += 3)
      for (int k = 0; k < 12; ++k) {
        study::EvaluationRecord r;
        r.id = ++id;
        r.phase = "grid";
        // A failed cell stays blank.
        r.status = id == 5 ? study::EvaluationStatus::failed : study::EvaluationStatus::ok;
        r.message = id == 5 ? "synthetic" : "";
        const double noise = std::pow(10.0, -2 + 4.0 * k / 11);
        r.params = {static_cast<double>(bound), noise};
        r.epsilon = (1 + std::cbrt(2.0 * bound)) * (1 + std::cbrt(4.0 * bound * bound)) / noise;
        r.utility = r.utility_min = r.utility_max =
            1 / (1 + std::exp(-(std::log10(r.epsilon) - 1))) / (1 + 0.02 * bound);
        writer.add(r);
      }
  }
  const auto run = load_run(dir + "/exact");
  const auto script = oracle_figure(run);
  CHECK(script.text().find("with image") != std::string::npos);  // a regular grid draws as an image
  render(script, dir + "/oracle.png", {1200, 800});
  const auto image = test::read_png(dir + "/oracle.png");
  CHECK(image.width == 1200);
  CHECK(test::luminance_variance(image) > 100.0);
  CHECK(test::count_color(image, "#fde725", 30) > 200);  // the palette's bright end is drawn

  test::write_synthetic_run(dir + "/three", "dpareto", 1, 5);
  auto three = load_run(dir + "/three");
  three.data.info.parameter_names.push_back("extra");
  CHECK_THROWS_AS(oracle_figure(three), InputError);
}

namespace {

// Sets keys of a run directory's summary.json (as a run of another problem, or with a baseline).
void patch_summary(const std::string& run, const nlohmann::json& keys) {
  auto summary = nlohmann::json::parse(std::ifstream(run + "/summary.json"));
  summary.update(keys);
  std::ofstream(run + "/summary.json") << summary.dump(2);
}

FrontFigureOptions accuracy_axis() {
  FrontFigureOptions options;
  options.accuracy = true;
  return options;
}

}  // namespace

TEST_CASE("the front figure draws the runs' common baseline, and warns when problems differ") {
  const std::string dir = test::temp_dir("baseline");
  test::write_synthetic_run(dir + "/a", "dpareto", 4, 20);
  test::write_synthetic_run(dir + "/b", "random", 5, 20);
  const nlohmann::json majority = {{"baseline", {{"utility", 0.625}, {"source", "majority class"}}}};
  patch_summary(dir + "/a", majority);
  patch_summary(dir + "/b", majority);
  const auto both = front_figure({load_run(dir + "/a"), load_run(dir + "/b")}).text();
  CHECK(both.find("title 'baseline 0.625 (majority class)'") != std::string::npos);
  CHECK(both.find(" 0.375\n") != std::string::npos);  // drawn at error 1 − 0.625
  CHECK(both.find("different problems") == std::string::npos);
  const auto accuracy = front_figure({load_run(dir + "/a")}, accuracy_axis()).text();
  CHECK(accuracy.find(" 0.625\n") != std::string::npos);  // at utility 0.625 on the accuracy axis

  // A non-private model's utility, from the runs' summaries or given to the figure.
  patch_summary(dir + "/a", {{"non_private", {{"utility", 0.875}}}});
  const auto with_non_private = front_figure({load_run(dir + "/a")}, accuracy_axis()).text();
  CHECK(with_non_private.find("title 'non-private 0.875 (no DP)'") != std::string::npos);
  CHECK(with_non_private.find(" 0.875\n") != std::string::npos);
  FrontFigureOptions given = accuracy_axis();
  given.non_private = 0.9;
  const auto overridden = front_figure({load_run(dir + "/a")}, given).text();
  CHECK(overridden.find("title 'non-private 0.9 (no DP)'") != std::string::npos);
  CHECK(front_figure({load_run(dir + "/b")}).text().find("non-private") == std::string::npos);

  // Runs that disagree on the baseline (or lack one) draw none.
  patch_summary(dir + "/b", {{"baseline", {{"utility", 0.7}, {"source", "--baseline"}}}});
  CHECK(front_figure({load_run(dir + "/a"), load_run(dir + "/b")}).text().find("baseline") == std::string::npos);

  patch_summary(dir + "/b", {{"problem", "adult-logreg-sgd"}});
  const auto mixed = front_figure({load_run(dir + "/a"), load_run(dir + "/b")}).text();
  CHECK(mixed.find("warning: runs of 2 problems overlaid: their fronts compare only where") != std::string::npos);
  CHECK(mixed.find("Pareto fronts — 2 problems") != std::string::npos);  // not the first run's problem
  CHECK(front_figure({load_run(dir + "/a")}).text().find("Pareto front — problem svt") != std::string::npos);
}

TEST_CASE("the front figure: --max-epsilon ends the axis, a pick is marked, the axis names the utility") {
  const std::string dir = test::temp_dir("mark");
  test::write_synthetic_run(dir + "/a", "dpareto", 4, 30);
  const auto run = load_run(dir + "/a");
  std::size_t beyond = 0;
  for (const auto& r : run.data.records) beyond += r.ok() && r.epsilon > 10;
  REQUIRE(beyond > 0);
  FrontFigureOptions options;
  options.max_epsilon = 10;
  options.mark = MarkedPoint{2.5, 0.4, "picked (observed): ε 2.5, utility 0.4", 3.0};
  const auto script = front_figure({run}, options).text();
  CHECK(script.find(std::to_string(beyond) + " point(s) with ε above 10 not shown (--max-epsilon)") !=
        std::string::npos);
  CHECK(script.find("title 'picked (observed): ε 2.5, utility 0.4'") != std::string::npos);
  CHECK(script.find("title 'target ε ≤ 3'") != std::string::npos);
  CHECK(script.find("error = 1 − utility (lower is better)") != std::string::npos);  // no name recorded
  options.max_epsilon = 1e-9;  // below every point: nothing would be drawn
  CHECK_THROWS_WITH_AS(front_figure({run}, options), doctest::Contains("--max-epsilon 1e-09"), InputError);

  patch_summary(dir + "/a", {{"utility_name", "F1 score"}});
  CHECK(front_figure({load_run(dir + "/a")}).text().find("error = 1 − F1 score (lower is better)") !=
        std::string::npos);
  CHECK(front_figure({load_run(dir + "/a")}, accuracy_axis()).text().find("F1 score (higher is better)") !=
        std::string::npos);
}

TEST_CASE("the front figure draws a run's robust front dotted, in a darker shade of the run's colour") {
  const std::string dir = test::temp_dir("robust");
  test::write_synthetic_run(dir + "/a", "dpareto", 5, 30);
  const auto run = load_run(dir + "/a");
  study::RunData robust = run.data;
  for (auto& r : robust.records) r.utility = 0.0625;  // every robust utility the same: a one-point front
  FrontFigureOptions options;
  options.robust = {&robust};
  const auto script = front_figure({run}, options).text();
  CHECK(script.find("title 'robust front (1 point)'") != std::string::npos);
  CHECK(script.find("$r0_robust") != std::string::npos);
  CHECK(script.find("dt 3 lc rgb '" + darker(series_style(0).color) + "'") != std::string::npos);
  CHECK(darker("#0072B2") == "#003959");  // each channel halved, rounded: 0x72 / 2 = 0x39, 0xB2 / 2 = 0x59
  CHECK(darker("#FFFFFF", 0.25) == "#404040");
  CHECK(script.find(" 0.9375\n") != std::string::npos);  // drawn at error 1 − 0.0625
  CHECK(script.find("fronts bold, robust fronts dotted") != std::string::npos);
  CHECK(front_figure({run}).text().find("robust") == std::string::npos);
}

TEST_CASE("hv figure: runs of one method whose options differ are two groups, named by the difference") {
  const std::string dir = test::temp_dir("hv-variants");
  // Seeds 1-2 observe every epoch, 3-4 the final one; all use the same acquisition (not named).
  for (int seed = 1; seed <= 4; ++seed) {
    const std::string run = dir + "/s" + std::to_string(seed);
    test::write_synthetic_run(run, "dpareto", static_cast<std::uint64_t>(seed), 20);
    auto summary = nlohmann::json::parse(std::ifstream(run + "/summary.json"));
    summary["acquisition"] = "hvpoi";
    summary["problem_options"] = {{"repeats", "10"}, {"data_dir", "/elsewhere/" + std::to_string(seed)}};
    if (seed <= 2) summary["problem_options"]["observe"] = "every-epoch";
    std::ofstream(run + "/summary.json") << summary.dump();
  }
  const auto text = hv_figure(load_runs({dir + "/s1", dir + "/s2", dir + "/s3", dir + "/s4"})).text();
  CHECK(text.find("dpareto, observe=every-epoch: mean of 2 runs") != std::string::npos);
  CHECK(text.find("dpareto: mean of 2 runs") != std::string::npos);
  CHECK(text.find("acquisition=") == std::string::npos);  // shared by all: not named
  CHECK(text.find("data_dir") == std::string::npos);      // a host setting
}
