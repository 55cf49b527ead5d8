#include "dpareto/plot/labelled_run.hpp"

#include <cmath>
#include <filesystem>
#include <map>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/core/readable_number.hpp"

namespace dpareto::plot {
namespace fs = std::filesystem;

namespace {

std::string directory_name(const std::string& directory) {
  fs::path p(directory);
  if (p.filename().empty()) p = p.parent_path();
  return p.filename().string();
}

}  // namespace

LabelledRun load_run(const std::string& directory) {
  LabelledRun run{directory_name(directory), directory, study::read_run_directory(directory)};
  if (!run.data.info.method.empty()) run.label += " (" + run.data.info.method + ")";
  return run;
}

std::vector<LabelledRun> load_runs(const std::vector<std::string>& directories) {
  std::vector<LabelledRun> runs;
  std::map<std::string, int> names;
  for (const auto& d : directories) {
    runs.push_back(load_run(d));
    ++names[directory_name(d)];
  }
  for (auto& run : runs)
    if (names[directory_name(run.directory)] > 1)
      run.label = run.directory + (run.data.info.method.empty() ? "" : " (" + run.data.info.method + ")");
  return runs;
}

bool plottable(const study::EvaluationRecord& record) {
  return record.ok() && record.epsilon > 0 && std::isfinite(record.epsilon) && std::isfinite(record.utility);
}

void require_plottable(const LabelledRun& run) {
  const auto& records = run.data.records;
  if (records.empty()) throw InputError(run.directory + ": the run has no evaluations");
  std::size_t ok = 0, drawable = 0;
  for (const auto& r : records) {
    ok += r.ok();
    drawable += plottable(r);
  }
  if (ok == 0)
    throw InputError(run.directory + ": all " + std::to_string(records.size()) + " evaluations failed (" +
                     failed_list(run.data, 1) + ")");
  if (drawable == 0) throw InputError(run.directory + ": no ok evaluation has 0 < epsilon < inf, nothing to draw");
}

std::string failed_list(const study::RunData& run, std::size_t limit) {
  std::string out;
  std::size_t listed = 0, failed = 0;
  for (const auto& r : run.records) {
    if (r.status != study::EvaluationStatus::failed) continue;
    ++failed;
    if (listed == limit) continue;
    ++listed;
    out += (out.empty() ? "#" : ", #") + std::to_string(r.id) + (r.message.empty() ? "" : " (" + r.message + ")");
  }
  if (failed > listed) out += ", … " + std::to_string(failed - listed) + " more";
  return out;
}

std::size_t unplottable_count(const study::RunData& run) {
  std::size_t n = 0;
  for (const auto& r : run.records) n += r.ok() && !plottable(r);
  return n;
}

std::string common_delta(const std::vector<const study::RunData*>& runs) {
  double delta = std::nan("");
  for (const auto* run : runs)
    for (const auto& r : run->records) {
      if (!r.ok()) continue;
      if (std::isnan(delta))
        delta = r.delta;
      else if (r.delta != delta)
        return "";
    }
  return std::isnan(delta) || delta == 0 ? "" : readable_rounded_up(delta);
}

std::string epsilon_label(const std::string& delta) {
  return "privacy loss ε" + (delta.empty() ? std::string() : " at δ = " + delta) + " (log scale)";
}

std::string utility_axis_label(bool accuracy, const std::string& name, bool brief) {
  const std::string axis = accuracy ? name : "error = 1 − " + name;
  return brief ? axis : axis + (accuracy ? " (higher is better)" : " (lower is better)");
}

std::string utility_name_of(const std::vector<const study::RunData*>& runs) {
  std::string common;
  for (const auto* run : runs) {
    const auto it = run->info.extra.find("utility_name");
    if (it == run->info.extra.end() || !it->is_string()) return "utility";
    const std::string name = printable(it->get<std::string>(), 60);
    if (!common.empty() && name != common) return "utility";
    common = name;
  }
  return common.empty() ? "utility" : common;
}

}  // namespace dpareto::plot
