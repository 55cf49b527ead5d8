#pragma once
// A run directory as the figures see it: its data plus a legend label, and the checks every
// figure needs (has ok evaluations, which ones failed, which cannot go on a log-ε axis).
#include <string>
#include <vector>

#include "dpareto/study/run_record.hpp"

namespace dpareto::plot {

struct LabelledRun {
  std::string label;  // legend text: "<dir name> (<method>)"
  std::string directory;
  study::RunData data;
};

// Reads run directories (InputError naming the file for a missing or corrupt one). Labels use the
// directory's name, or its path where two names collide.
std::vector<LabelledRun> load_runs(const std::vector<std::string>& directories);
LabelledRun load_run(const std::string& directory);

// Throws InputError when the run has no evaluations, or only failed ones (naming the first
// failure's reason), or no ok evaluation with 0 < ε < inf (nothing to put on a log-ε axis).
void require_plottable(const LabelledRun& run);

// Whether an ok record can be drawn on a log-ε axis (0 < ε < inf).
bool plottable(const study::EvaluationRecord& record);
// "#5 (timeout), #9 (utility is NaN)" for the failed records, at most `limit` listed then "…".
std::string failed_list(const study::RunData& run, std::size_t limit = 6);
// How many ok records cannot be drawn on a log-ε axis (ε ≤ 0 or ε = inf).
std::size_t unplottable_count(const study::RunData& run);
// The δ shared by every ok record ("" when it differs or is 0).
std::string common_delta(const std::vector<const study::RunData*>& runs);

// Axis labels: ε with its δ (when one is shared), and the utility axis.
std::string epsilon_label(const std::string& delta);
// The utility axis, naming what the utility measures (`name`; see utility_name_of).
std::string utility_axis_label(bool accuracy, const std::string& name, bool brief = false);  // brief: small panels
// What the runs' utility measures (summary.json "utility_name"), when they agree; "utility" otherwise.
std::string utility_name_of(const std::vector<const study::RunData*>& runs);
// The plotted utility-axis value of an error: error itself, or 1 − error with `accuracy`.
inline double utility_axis_value(double error, bool accuracy) {
  return accuracy ? 1 - error : error;
}

}  // namespace dpareto::plot
