#include "dpareto/explore/run_comparison.hpp"

#include <set>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/study/run_record.hpp"

namespace dpareto::explore {
namespace {

// The records of evaluations [begin, end) of `groups` (each with its intermediate results).
std::vector<study::EvaluationRecord> evaluations_between(
    const std::vector<std::vector<study::EvaluationRecord>>& groups, std::size_t begin, std::size_t end) {
  std::vector<study::EvaluationRecord> records;
  for (std::size_t g = begin; g < end; ++g) records.insert(records.end(), groups[g].begin(), groups[g].end());
  return records;
}

// The run's info on the comparison's common axis; InputError when its objectives do not fit it.
study::RunInfo on_common_axis(study::RunInfo info, const std::string& directory, const RunComparison& settings) {
  if (info.objectives.size() != settings.reference.size())
    throw InputError(directory + ": " + std::to_string(info.objectives.size()) + " objectives, but the reference has " +
                     std::to_string(settings.reference.size()) + " values");
  info.objectives.set_reference(settings.reference);
  info.hv_axis = settings.hv_axis;
  info.log_floor = settings.log_floor;
  return info;
}

ComparedRun measure(const std::string& directory, const RunComparison& settings) {
  auto run = study::read_run_directory(directory);
  const auto info = on_common_axis(run.info, directory, settings);
  const auto groups = study::grouped_by_evaluation(run.records);
  const std::size_t compared = settings.evaluations > 0 ? settings.evaluations : groups.size();
  if (settings.evaluations > 0) {
    if (groups.size() < settings.evaluations)
      throw InputError(directory + ": " + std::to_string(groups.size()) + " evaluations, fewer than the " +
                       std::to_string(settings.evaluations) + " compared (--evaluations)");
    run.records = evaluations_between(groups, 0, settings.evaluations);  // records are in order of completion
  }
  return {directory, info.problem, info.method, compared, study::run_hypervolume(info, run.records)};
}

// The consecutive parts of `size` evaluations of one run, each measured on its own.
std::vector<ComparedRun> measure_parts(const std::string& directory, std::size_t size, RunComparison& settings) {
  const auto run = study::read_run_directory(directory);
  const auto info = on_common_axis(run.info, directory, settings);
  const auto groups = study::grouped_by_evaluation(run.records);
  const std::size_t parts = groups.size() / size;
  if (parts == 0)
    throw InputError(directory + ": " + std::to_string(groups.size()) + " evaluations, fewer than one part of " +
                     std::to_string(size));
  if (groups.size() % size != 0)
    settings.warnings.push_back(directory + ": the last " + std::to_string(groups.size() % size) +
                                " evaluations do not fill a part of " + std::to_string(size) + " and are left out");
  std::vector<ComparedRun> measured;
  for (std::size_t p = 0; p < parts; ++p) {
    const auto part = evaluations_between(groups, p * size, (p + 1) * size);
    measured.push_back({directory + "[" + std::to_string(p * size + 1) + "-" + std::to_string((p + 1) * size) + "]",
                        info.problem, info.method, size, study::run_hypervolume(info, part)});
  }
  return measured;
}

std::vector<double> hypervolumes(const std::vector<ComparedRun>& runs) {
  std::vector<double> values;
  for (const auto& r : runs) values.push_back(r.hypervolume);
  return values;
}

}  // namespace

RunComparison compare_runs(const std::vector<std::string>& runs, const std::vector<std::string>& against,
                           const ComparisonAxis& axis, double level) {
  if (runs.empty() || against.empty()) throw InputError("compare: both sets of runs need at least one directory");
  const auto first = study::read_run_directory(runs.front()).info;
  RunComparison c;
  c.reference = axis.reference.value_or(first.objectives.reference());
  c.hv_axis = axis.hv_axis.value_or(first.hv_axis);
  if (c.hv_axis != "linear" && c.hv_axis != "log")
    throw InputError("hypervolume axis " + c.hv_axis + ": expected linear or log");
  c.log_floor = axis.log_floor.value_or(first.log_floor);
  if (!(c.log_floor > 0)) throw InputError("log floor " + format_number(c.log_floor) + ": expected a positive number");
  c.evaluations = axis.evaluations;
  for (const auto& d : runs) c.runs.push_back(measure(d, c));
  for (const auto& d : against) {
    if (axis.split_against == 0) {
      c.against.push_back(measure(d, c));
      continue;
    }
    for (auto& part : measure_parts(d, axis.split_against, c)) c.against.push_back(std::move(part));
  }

  std::set<std::string> problems;
  for (const auto* side : {&c.runs, &c.against})
    for (const auto& r : *side) problems.insert(r.problem);
  if (problems.size() > 1)
    c.warnings.emplace_back("the runs explore different problems; their hypervolumes measure different things");
  {
    std::set<std::size_t> counts;
    for (const auto* side : {&c.runs, &c.against})
      for (const auto& r : *side) counts.insert(r.evaluations);
    if (counts.size() > 1)
      c.warnings.emplace_back(
          "the runs have different numbers of evaluations; --evaluations N compares their first N"
          " (and --split-against N cuts the other runs into parts of N)");
  }

  const auto other = hypervolumes(c.against);
  if (other.size() >= 2)
    for (const auto& r : c.runs) c.per_run.push_back(difference_from_fixed(r.hypervolume, other, level));
  if (c.runs.size() >= 2 && other.size() >= 2) c.welch = welch_difference(hypervolumes(c.runs), other, level);
  return c;
}

}  // namespace dpareto::explore
