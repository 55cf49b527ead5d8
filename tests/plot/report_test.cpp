#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "png_image.hpp"
#include "run_fixtures.hpp"

using namespace dpareto;
namespace fs = std::filesystem;

namespace {

int run_cli(const std::string& args, const std::string& io_dir) {
  return std::system((std::string(DPARETO_CLI) + " " + args + " >" + io_dir + "/out 2>" + io_dir + "/err").c_str());
}

std::string read_text(const std::string& path) {
  std::stringstream s;
  s << std::ifstream(path).rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("dpareto report: figures and report.md; unusable runs are left out and said so") {
  const std::string dir = plot::test::temp_dir("report");
  plot::test::write_synthetic_run(dir + "/bo", "dpareto", 1, 40, {7});
  plot::test::write_synthetic_run(dir + "/random", "random", 2, 40, {}, "random");
  { study::RunDirectoryWriter empty(dir + "/empty", plot::test::svt_like_info("dpareto", 3)); }
  const std::string out = dir + "/report";
  // A missing run directory is an error before anything is written (issue 21: no false success).
  CHECK(run_cli("report " + dir + "/bo " + dir + "/missing --out " + out, dir) != 0);
  CHECK(read_text(dir + "/err").find(dir + "/missing: not a run directory (no such directory)") != std::string::npos);
  CHECK(!std::filesystem::exists(out));
  REQUIRE(
      run_cli("report " + dir + "/bo " + dir + "/random " + dir + "/empty --out " + out + " --width 1000 --height 700",
              dir) == 0);
  for (const char* figure : {"front.png", "hv.png", "variability.png", "surrogate-bo.png"}) {
    INFO(figure);
    const auto image = plot::test::read_png(out + "/" + figure);
    CHECK(image.width == 1000);
    CHECK(image.height == 700);
    CHECK(plot::test::luminance_variance(image) > 100.0);
  }
  const std::string md = read_text(out + "/report.md");
  CHECK(md.find("![Pareto fronts](front.png)") != std::string::npos);
  CHECK(md.find("no evaluations") != std::string::npos);  // the empty run, left out
  CHECK(md.find("| ε | utility (mean) | utility min | utility max |") != std::string::npos);
  // Each run's robust hypervolume beside the observed one (both runs are small SVT runs: fitted).
  CHECK(md.find("| hypervolume | robust hypervolume |") != std::string::npos);
  CHECK(md.find("– (") == std::string::npos);
  REQUIRE(run_cli("report " + dir + "/bo --out " + dir + "/kept --keep-scripts", dir) == 0);
  CHECK(read_text(dir + "/kept/front.png.gp").find("title 'robust front (") != std::string::npos);
}

TEST_CASE("dpareto report of nothing drawable: figures that say why; dpareto plot: a one-line error") {
  const std::string dir = plot::test::temp_dir("report-empty");
  { study::RunDirectoryWriter empty(dir + "/empty", plot::test::svt_like_info("dpareto", 3)); }
  REQUIRE(run_cli("report " + dir + "/empty --out " + dir + "/report", dir) == 0);
  const auto image = plot::test::read_png(dir + "/report/front.png");
  CHECK(image.width == 1200);
  CHECK(plot::test::luminance_variance(image) > 1.0);  // the message is drawn
  CHECK(read_text(dir + "/err").find("no evaluations") != std::string::npos);

  CHECK(run_cli("plot front " + dir + "/empty --out " + dir + "/x.png", dir) != 0);
  const std::string err = read_text(dir + "/err");
  CHECK(err.find("the run has no evaluations") != std::string::npos);
  CHECK(std::count(err.begin(), err.end(), '\n') == 1);
}
