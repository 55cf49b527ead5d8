#pragma once
// The record of one exploration run and its files (DESIGN.md §2 "Output of a run"):
//   evaluations.csv  id,phase,status,<params...>,<objective columns...>,seconds,message
//                    (two objectives: epsilon,delta,utility,utility_min,utility_max)
//   front.csv        the non-dominated ok rows, same columns, sorted by the first objective
//   summary.json     {"problem","method","seed","reference","hv_axis","evaluations","hypervolume",
//                     "hv_history" (after each evaluation, with its intermediate results),"front",...}
//                    (more than two objectives: "objectives", their names)
// The objective columns come from the run's pareto::Objectives; records carry plain names and numbers.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/core/file_lock.hpp"
#include "dpareto/pareto/objectives.hpp"
#include "dpareto/study/evaluation_status.hpp"

namespace dpareto::study {

// The phase of a result measured during another evaluation (issue 18 item 2: a training's earlier
// epochs). Such records cost no evaluation of their own: budgets and evaluation counts skip them.
inline constexpr const char* kIntermediatePhase = "epoch";

struct EvaluationRecord {
  int id = 0;                                          // 1-based, in order of completion
  std::string phase;                                   // init | bo | random | grid | epoch
  EvaluationStatus status = EvaluationStatus::failed;  // ok once an evaluation measured it
  std::vector<double> params;                          // in RunInfo::parameter_names order
  double epsilon = 0, delta = 0, utility = 0, utility_min = 0, utility_max = 0, seconds = 0;
  std::map<std::string, double> further;  // the columns of objectives after (epsilon, error), by name
  std::string message;
  std::uint64_t seed = 0;  // the seed the utility oracle received

  // From an evaluator, before it is stored: the results measured on the way (ok), which the storage
  // records as records of their own right after the evaluation, in the same transaction
  // (Storage::finish_trial; labelled by intermediate_of).
  std::vector<EvaluationRecord> intermediate;

  bool ok() const { return status == EvaluationStatus::ok; }
  bool is_intermediate() const { return phase == kIntermediatePhase; }
  double error() const { return 1.0 - utility; }
  // An objective column by name: a named field above, else `further` (a failed record that lacks
  // it reads 0, like its other measurements; an ok one: Error).
  double column(const std::string& name) const;
  double& column(const std::string& name);
};

// The record's value of each objective as its column holds it (epsilon, utility, ...), and the
// objective point itself (epsilon, 1 − utility, ...).
std::vector<double> column_values(const EvaluationRecord& record, const pareto::Objectives& objectives);
pareto::Point objective_point(const EvaluationRecord& record, const pareto::Objectives& objectives);

struct RunInfo {
  std::string problem;
  std::string method;                 // dpareto | random | grid
  std::optional<std::uint64_t> seed;  // absent: seeded from the OS CSPRNG
  std::vector<std::string> parameter_names;
  pareto::Objectives objectives = pareto::Objectives::privacy_utility();  // names, columns, reference
  std::string hv_axis = "linear";                                         // linear | log
  double log_floor = 1e-2;
  nlohmann::json extra = nlohmann::json::object();  // acquisition, init, budget, problem settings...
};

// An intermediate result as a study stores it: phase epoch, the seed of the evaluation whose training
// measured it, and a message naming that evaluation (its completion number).
EvaluationRecord intermediate_of(EvaluationRecord result, const EvaluationRecord& evaluation);

// The records that are evaluations of their own (not intermediate results).
int evaluation_count(const std::vector<EvaluationRecord>& records);
// Of them, the evaluations that failed (an intermediate result cut off by a crash is not one).
int failed_evaluation_count(const std::vector<EvaluationRecord>& records);
// The records in groups, one per evaluation: it and the intermediate results recorded after it (a
// study stores them right after their evaluation). Leading intermediate results form a group alone.
std::vector<std::vector<EvaluationRecord>> grouped_by_evaluation(const std::vector<EvaluationRecord>& records);

// Hypervolume of the ok records' objective points under RunInfo's reference and axis.
double run_hypervolume(const RunInfo& info, const std::vector<EvaluationRecord>& records);
// Indices (into records) of the non-dominated ok records, sorted by the first objective.
std::vector<std::size_t> run_front(const std::vector<EvaluationRecord>& records, const pareto::Objectives& objectives);

// The objectives as summary.json and a study's metadata hold them: "reference" (one number per
// objective) and, beyond the (epsilon, error) pair, "objectives" (every name); read back by
// objectives_from_json (InputError naming `source`).
void objectives_to_json(const pareto::Objectives& objectives, nlohmann::json& into);
pareto::Objectives objectives_from_json(const nlohmann::json& from, const std::string& source);

// Writes the three files of a run directory, rewriting them atomically (write + rename) after
// every evaluation so that a killed run leaves consistent files. The directory is locked while the
// writer lives: a second writer (another process) is refused with an InputError.
class RunDirectoryWriter {
 public:
  RunDirectoryWriter(std::string directory, RunInfo info);
  // Appends a record and rewrites evaluations.csv, front.csv and summary.json.
  void add(const EvaluationRecord& record);
  // Appends many records and rewrites the files once (hypervolume history updated incrementally).
  void add_many(const std::vector<EvaluationRecord>& records);
  const std::vector<EvaluationRecord>& records() const { return records_; }
  const RunInfo& info() const { return info_; }
  const std::vector<double>& hv_history() const { return hv_history_; }

 private:
  void flush() const;
  // hv_history holds one entry per evaluation: an intermediate result updates its evaluation's.
  void record_hypervolume(const EvaluationRecord& record, double hv);
  std::string directory_;
  RunInfo info_;
  FileLock lock_;
  std::vector<EvaluationRecord> records_;
  std::vector<double> hv_history_;
};

struct RunData {
  RunInfo info;
  std::vector<EvaluationRecord> records;
  std::vector<double> hv_history;
  nlohmann::json summary;  // summary.json as read
};

// Reads a run directory written by RunDirectoryWriter (or exported from a study). Throws
// InputError naming the file and line for a missing or corrupt evaluations.csv / summary.json.
RunData read_run_directory(const std::string& directory);

// CSV text helpers shared by writers and readers (RFC 4180 quoting).
std::string csv_escape(const std::string& field);
std::vector<std::string> csv_split(const std::string& line);

}  // namespace dpareto::study
