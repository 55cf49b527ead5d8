#pragma once
// `dpareto report`: every applicable figure of one or more runs plus a report.md that embeds them
// and tables each run's front. A run that cannot be read or drawn gives a figure stating why
// instead of stopping the report.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/plot/gnuplot.hpp"
#include "dpareto/plot/surrogate_figure.hpp"

namespace dpareto::plot {

struct ReportOptions {
  std::string out_dir;    // created if missing
  std::string exact_dir;  // optional `dpareto exact` run: exact front / hypervolume / oracle maps
  Canvas canvas;
  bool accuracy = false;
  bool keep_scripts = false;
  std::string extension = ".png";
  // The surrogate maps of a DPareto run (explore::write_report supplies them from the rebuilt
  // run); unset: the report has no surrogate figures.
  std::function<SurrogateMaps(const LabelledRun&)> surrogate_maps;
  // The run with its robust utilities (explore::robust_run_of), or nullopt with the reason in the
  // string; unset: the report draws and tables no robust fronts.
  std::function<std::optional<study::RunData>(const LabelledRun&, std::string&)> robust_run;
};

struct ReportResult {
  std::vector<std::string> figures;   // paths written
  std::string markdown;               // path of report.md
  std::vector<std::string> problems;  // one line per run left out or figure replaced by a message, and why
};

ReportResult write_report(const std::vector<std::string>& run_dirs, const ReportOptions& options);

// A figure with no data that states why (title + message, centred).
GnuplotScript message_figure(const std::string& title, const std::string& message);

}  // namespace dpareto::plot
