// dpareto report RUN_DIR... [--out DIR]: every applicable figure plus report.md.
#include <filesystem>
#include <iostream>

#include "cli_options.hpp"
#include "command.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/explore/report.hpp"

namespace dpareto::apps {
namespace {

int run_report(int argc, char** argv) {
  po::options_description options("report options");
  options.add_options()("runs", po::value<std::vector<std::string>>()->required(), "run directories")(
      "out", po::value<std::string>(), "output directory (default: <first RUN_DIR>/report)")(
      "exact", po::value<std::string>(), "a `dpareto exact` run directory: exact front, its hypervolume, oracle maps")(
      "width", po::value<int>()->default_value(1200), "figure width in pixels")(
      "height", po::value<int>()->default_value(800), "figure height in pixels")(
      "format", po::value<std::string>()->default_value("png"), "png | svg | pdf")(
      "accuracy", po::bool_switch(), "plot utility (higher is better) instead of error")(
      "keep-scripts", po::bool_switch(), "also write each figure's gnuplot script (FIGURE.gp)");
  const auto parsed =
      parse_command_line("dpareto report RUN_DIR... [--out DIR] [options]",
                         "dpareto report runs/svt --exact runs/svt-exact", options, argc, argv, {"runs"});
  if (!parsed) return 0;
  const auto& vm = *parsed;
  const auto dirs = vm["runs"].as<std::vector<std::string>>();
  // A missing run is an error before anything is written, not a report of nothing (issue 21).
  std::vector<std::string> given = dirs;
  if (vm.count("exact")) given.push_back(vm["exact"].as<std::string>());
  for (const auto& dir : given) {
    if (!std::filesystem::is_directory(dir)) throw InputError(dir + ": not a run directory (no such directory)");
    if (!std::filesystem::exists(std::filesystem::path(dir) / "summary.json"))
      throw InputError(dir + ": not a run directory (no summary.json)");
  }
  plot::ReportOptions ro;
  ro.out_dir = vm.count("out") ? vm["out"].as<std::string>() : dirs.front() + "/report";
  // A run directory may come from someone else: its report/ must not lead the figures elsewhere.
  if (!vm.count("out") && std::filesystem::is_symlink(ro.out_dir))
    throw InputError(ro.out_dir + ": is a symbolic link; pass --out to choose where the report goes");
  if (vm.count("exact")) ro.exact_dir = vm["exact"].as<std::string>();
  ro.canvas = {vm["width"].as<int>(), vm["height"].as<int>()};
  ro.accuracy = vm["accuracy"].as<bool>();
  ro.keep_scripts = vm["keep-scripts"].as<bool>();
  const std::string format = vm["format"].as<std::string>();
  if (format != "png" && format != "svg" && format != "pdf")
    throw InputError("--format " + format + ": expected png, svg or pdf");
  ro.extension = "." + format;
  const auto result = explore::write_report(dirs, ro);
  for (const auto& p : result.problems) std::cerr << "dpareto report: warning: " << p << "\n";
  std::cout << "wrote " << result.markdown << " and " << result.figures.size() << " figure(s) in " << ro.out_dir
            << "\n";
  return 0;
}

const CommandRegistration report_registration("report", "all figures of run directories plus report.md", run_report);

}  // namespace
}  // namespace dpareto::apps
