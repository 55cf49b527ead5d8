#include "dpareto/plot/report.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>

#include "dpareto/core/atomic_file.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/plot/figure_style.hpp"
#include "dpareto/plot/front_figure.hpp"
#include "dpareto/plot/hv_figure.hpp"
#include "dpareto/plot/oracle_figure.hpp"
#include "dpareto/plot/surrogate_figure.hpp"
#include "dpareto/plot/variability_figure.hpp"

namespace dpareto::plot {
namespace fs = std::filesystem;

namespace {

std::string file_safe(const std::string& text) {
  std::string out;
  for (const char c : text) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return out;
}

// Text from a file, shown as plain text by any Markdown viewer: no HTML (< > & as entities), no
// link, image, emphasis, code span or table cell boundary (those characters backslash-escaped,
// CommonMark §2.4), one line, valid UTF-8.
std::string markdown_text(const std::string& text) {
  static const std::string escaped = "\\`*_[](){}!|~$#";
  std::string out;
  for (const char c : clean_utf8(text)) {
    if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '\n') {
      out += ' ';
    } else {
      if (escaped.find(c) != std::string::npos) out += '\\';
      out += c;
    }
  }
  return out;
}

// The further objectives (after ε and error) that every run has, in the first run's order, less
// the one the front figure already colours by: the third, when it is every run's third.
std::vector<std::string> further_colour_objectives(const std::vector<LabelledRun>& runs) {
  std::vector<std::vector<std::string>> names;  // each run's further objectives
  for (const auto& run : runs) names.push_back(run.data.info.objectives.further_names());
  std::vector<std::string> common;
  if (names.empty()) return common;
  for (std::size_t i = 0; i < names.front().size(); ++i) {
    const std::string& name = names.front()[i];
    const bool everywhere = std::all_of(names.begin(), names.end(), [&](const auto& n) {
      return std::find(n.begin(), n.end(), name) != n.end();
    });
    // Every run has it, so every list is non-empty.
    const bool coloured_already =
        i == 0 && everywhere && std::all_of(names.begin(), names.end(), [&](const auto& n) { return n.front() == name; });
    if (everywhere && !coloured_already) common.push_back(name);
  }
  return common;
}

std::string front_table(const LabelledRun& run) {
  const auto& records = run.data.records;
  const auto front = study::run_front(records, run.data.info.objectives);
  if (front.empty()) return "_No successful evaluation: no front._\n";
  std::string md = "| id | phase |";
  std::string rule = "|---:|---|";
  for (const auto& name : run.data.info.parameter_names) {
    md += " " + markdown_text(name) + " |";
    rule += "---:|";
  }
  md += " ε | utility (mean) | utility min | utility max |\n";
  rule += "---:|---:|---:|---:|\n";
  md += rule;
  for (const std::size_t i : front) {
    const auto& r = records[i];
    md += "| " + std::to_string(r.id) + " | " + markdown_text(r.phase) + " |";
    for (const double v : r.params) md += " " + readable_number(v) + " |";
    md += " " + readable_rounded_up(r.epsilon) + " | " + readable_number(r.utility) + " | " +
          readable_number(r.utility_min) + " | " + readable_number(r.utility_max) + " |\n";
  }
  return md;
}

}  // namespace

GnuplotScript message_figure(const std::string& title, const std::string& message) {
  GnuplotScript script;
  script.command("unset border\nunset tics\nunset key\nset xrange [0:1]\nset yrange [0:1]");
  script.command("set title " + literal(title) + " noenhanced");
  script.command("set label 1 " + literal(message) + " at graph 0.5, graph 0.5 center noenhanced");
  script.command("plot NaN notitle");
  return script;
}

ReportResult write_report(const std::vector<std::string>& run_dirs, const ReportOptions& options) {
  if (run_dirs.empty()) throw InputError("report: no run directory given");
  std::error_code ec;
  fs::create_directories(options.out_dir, ec);
  if (ec) throw InputError("--out " + options.out_dir + ": cannot create directory (" + ec.message() + ")");
  format_from_path("figure" + options.extension);

  ReportResult result;
  std::vector<LabelledRun> runs;
  std::vector<std::string> unreadable;
  // Runs that cannot be read or have nothing to draw are left out of every figure and listed.
  for (const auto& dir : run_dirs) {
    try {
      auto run = load_run(dir);
      require_plottable(run);
      runs.push_back(std::move(run));
    } catch (const InputError& e) {
      unreadable.push_back(e.what());
      result.problems.push_back(std::string("left out: ") + e.what());
    }
  }
  std::optional<LabelledRun> exact;
  if (!options.exact_dir.empty()) {
    try {
      exact = load_run(options.exact_dir);
      require_plottable(*exact);
    } catch (const InputError& e) {
      unreadable.push_back(std::string("--exact: ") + e.what());
      exact.reset();
    }
  }

  std::vector<RenderJob> jobs;
  std::vector<std::pair<std::string, std::string>> sections;  // (heading, file name)
  // Builds one figure; a figure that cannot be drawn becomes a message figure saying why.
  auto add = [&](const std::string& name, const std::string& heading, const std::function<GnuplotScript()>& build) {
    const std::string file = name + options.extension;
    const std::string path = (fs::path(options.out_dir) / file).string();
    try {
      if (runs.empty()) throw InputError(unreadable.empty() ? "no readable run directory" : unreadable.front());
      jobs.push_back({build(), path});
    } catch (const Error& e) {  // input or numerical trouble: say so in the figure
      result.problems.push_back(heading + ": " + e.what());
      jobs.push_back({message_figure(heading + " — not drawn", e.what()), path});
    }
    sections.push_back({heading, file});
  };
  const LabelledRun* exact_ptr = exact ? &*exact : nullptr;
  // Each run's robust front (drawn dotted, its hypervolume tabled), where one can be fitted.
  std::vector<std::optional<study::RunData>> robust(runs.size());
  std::vector<std::string> no_robust(runs.size());
  FrontFigureOptions front{options.accuracy, exact_ptr, {}, {}, {}, {}, {}};
  for (std::size_t k = 0; k < runs.size(); ++k) {
    if (options.robust_run) robust[k] = options.robust_run(runs[k], no_robust[k]);
    front.robust.push_back(robust[k] ? &*robust[k] : nullptr);
  }
  add("front", "Pareto fronts", [&] { return front_figure(runs, front); });
  // The front figure colours by the third objective; each other further one gets a figure of its own.
  for (const std::string& name : further_colour_objectives(runs)) {
    FrontFigureOptions coloured = front;
    coloured.colour_by = name;
    add("front-" + file_safe(name), "Pareto fronts coloured by " + name,
        [&] { return front_figure(runs, coloured); });
  }
  add("hv", "Hypervolume vs evaluations", [&] { return hv_figure(runs, {exact_ptr}); });
  std::vector<LabelledRun> spread;
  for (const auto& run : runs)
    if (has_repeat_spread(run.data)) spread.push_back(run);
  if (!spread.empty())
    add("variability", "Variability across repeats", [&] { return variability_figure(spread, {options.accuracy}); });
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const auto& run = runs[k];
    if (!options.surrogate_maps || run.data.info.method != "dpareto" || run.data.info.parameter_names.size() < 2)
      continue;
    add("surrogate-" + file_safe(fs::path(run.directory).filename().string().empty()
                                     ? std::to_string(k + 1)
                                     : fs::path(run.directory).filename().string()),
        "Surrogates of " + run.label, [&] {
          return surrogate_figure(run, options.surrogate_maps(run), {options.accuracy, exact_ptr});
        });
  }
  std::vector<const LabelledRun*> oracles;
  if (exact_ptr != nullptr) oracles.push_back(exact_ptr);
  for (const auto& run : runs)
    if (run.data.info.method == "exact") oracles.push_back(&run);
  for (std::size_t k = 0; k < oracles.size(); ++k)
    if (oracles[k]->data.info.parameter_names.size() == 2)
      add(oracles.size() == 1 ? "oracle" : "oracle-" + std::to_string(k + 1), "Oracles of " + oracles[k]->label,
          [&] { return oracle_figure(*oracles[k], {options.accuracy}); });

  render_all(jobs, options.canvas, options.keep_scripts, 2);
  for (const auto& job : jobs) result.figures.push_back(job.output_path);

  std::string md = "# dpareto report\n\n";
  if (!unreadable.empty()) {
    md += "## Inputs left out\n\n";
    for (const auto& u : unreadable) md += "- " + markdown_text(u) + "\n";
    md += "\n";
  }
  md +=
      "## Runs\n\n| run | problem | method | seed | evaluations | failed | hypervolume | robust hypervolume | "
      "reference "
      "(ε, error) | ε axis |\n"
      "|---|---|---|---:|---:|---:|---:|---:|---|---|\n";
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const auto& run = runs[k];
    const auto& info = run.data.info;
    std::size_t failed = 0;
    for (const auto& r : run.data.records) failed += !r.ok();
    md += "| " + markdown_text(run.directory) + " | " + markdown_text(info.problem) + " | " +
          markdown_text(info.method) + " | " + (info.seed ? std::to_string(*info.seed) : "os") + " | " +
          std::to_string(run.data.records.size()) + " | " + std::to_string(failed) + " | " +
          (run.data.hv_history.empty() ? "–" : readable_number(run.data.hv_history.back())) + " | " +
          (robust[k] ? readable_number(study::run_hypervolume(robust[k]->info, robust[k]->records))
                     : "– (" + markdown_text(no_robust[k].empty() ? "not computed" : no_robust[k]) + ")") +
          " | (" + readable_number(info.objectives[0].reference) + ", " +
          readable_number(info.objectives[1].reference) + ") | " + markdown_text(info.hv_axis) + " |\n";
  }
  md += "\n## Figures\n\n";
  for (const auto& [heading, file] : sections)
    md += "### " + markdown_text(heading) + "\n\n![" + markdown_text(heading) + "](" + file + ")\n\n";
  if (!result.problems.empty()) {
    md += "Figures replaced by a message:\n\n";
    for (const auto& p : result.problems) md += "- " + markdown_text(p) + "\n";
    md += "\n";
  }
  md += "## Fronts\n\n";
  for (const auto& run : runs) md += "### " + markdown_text(run.label) + "\n\n" + front_table(run) + "\n";
  result.markdown = (fs::path(options.out_dir) / "report.md").string();
  write_file_atomically(result.markdown, md);
  return result;
}

}  // namespace dpareto::plot
