#include "dpareto/study/run_record.hpp"

#include <fcntl.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "dpareto/core/atomic_file.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/file_lock.hpp"
#include "dpareto/core/json_file.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/pareto/dominance.hpp"
#include "dpareto/pareto/hypervolume.hpp"
#include "dpareto/pareto/objective_axis.hpp"

namespace dpareto::study {
namespace fs = std::filesystem;
namespace {

const std::vector<std::string> kLeadingColumns = {"id", "phase", "status"};
const std::vector<std::string> kTrailingColumns = {"seconds", "message"};  // after the objectives' columns

pareto::EpsilonAxis axis_of(const RunInfo& info) {
  pareto::EpsilonAxis axis;
  axis.kind = info.hv_axis == "log" ? pareto::EpsilonAxis::Kind::log10 : pareto::EpsilonAxis::Kind::linear;
  axis.floor = info.log_floor;
  return axis;
}

std::string header_line(const RunInfo& info) {
  std::string line;
  auto add = [&](const std::string& c) { line += (line.empty() ? "" : ",") + csv_escape(c); };
  for (const auto& c : kLeadingColumns) add(c);
  for (const auto& c : info.parameter_names) add(c);
  for (const auto& c : info.objectives.columns()) add(c);
  for (const auto& c : kTrailingColumns) add(c);
  return line;
}

std::string record_line(const RunInfo& info, const EvaluationRecord& r) {
  std::string line = std::to_string(r.id) + "," + csv_escape(r.phase) + "," + to_string(r.status);
  for (double p : r.params) line += "," + format_number(p);
  for (const auto& c : info.objectives.columns()) line += "," + format_number(r.column(c));
  return line + "," + format_number(r.seconds) + "," + csv_escape(r.message);
}

nlohmann::json record_json(const RunInfo& info, const EvaluationRecord& r) {
  nlohmann::json params = nlohmann::json::object();
  for (std::size_t i = 0; i < info.parameter_names.size(); ++i)
    params[info.parameter_names[i]] = json_number(r.params.at(i));
  nlohmann::json j = {{"id", r.id}, {"phase", r.phase}, {"params", params}};
  for (const auto& c : info.objectives.columns()) j[c] = json_number(r.column(c));
  return j;
}

double parse_double(const std::string& text, const std::string& where) {
  if (text == "inf") return INFINITY;
  if (text == "-inf") return -INFINITY;
  if (text == "nan") return NAN;
  double v = 0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size())
    throw InputError(where + ": '" + printable(text) + "' is not a number");
  return v;
}

}  // namespace

std::string csv_escape(const std::string& field) {
  if (field.find_first_of(",\"\n\r") == std::string::npos) return field;
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

namespace {

// A record's column by name (const: a column it does not have is an Error; else it is added).
template <typename Record>
auto column_of(Record& r, const std::string& name) -> decltype((r.epsilon)) {
  if (name == "epsilon") return r.epsilon;
  if (name == "delta") return r.delta;
  if (name == "utility") return r.utility;
  if (name == "utility_min") return r.utility_min;
  if (name == "utility_max") return r.utility_max;
  if constexpr (std::is_const_v<Record>) {
    static constexpr double kUnmeasured = 0;  // what a failed record holds, as in its other columns
    const auto it = r.further.find(name);
    if (it != r.further.end()) return it->second;
    if (!r.ok()) return kUnmeasured;
    throw Error("run record " + std::to_string(r.id) + " has no column '" + name + "'");
  } else {
    return r.further[name];
  }
}

}  // namespace

double EvaluationRecord::column(const std::string& name) const {
  return column_of(*this, name);
}
double& EvaluationRecord::column(const std::string& name) {
  return column_of(*this, name);
}

EvaluationRecord intermediate_of(EvaluationRecord result, const EvaluationRecord& evaluation) {
  result.phase = kIntermediatePhase;
  result.seed = evaluation.seed;
  result.message = "measured during evaluation " + std::to_string(evaluation.id);
  result.intermediate.clear();
  return result;
}

int evaluation_count(const std::vector<EvaluationRecord>& records) {
  return static_cast<int>(
      std::count_if(records.begin(), records.end(), [](const EvaluationRecord& r) { return !r.is_intermediate(); }));
}

int failed_evaluation_count(const std::vector<EvaluationRecord>& records) {
  return static_cast<int>(std::count_if(records.begin(), records.end(),
                                        [](const EvaluationRecord& r) { return !r.ok() && !r.is_intermediate(); }));
}

std::vector<std::vector<EvaluationRecord>> grouped_by_evaluation(const std::vector<EvaluationRecord>& records) {
  std::vector<std::vector<EvaluationRecord>> groups;
  for (const auto& r : records) {
    if (groups.empty() || !r.is_intermediate()) groups.emplace_back();
    groups.back().push_back(r);
  }
  return groups;
}

std::vector<double> column_values(const EvaluationRecord& record, const pareto::Objectives& objectives) {
  std::vector<double> values;
  for (const auto& o : objectives.list) values.push_back(record.column(o.column()));
  return values;
}

pareto::Point objective_point(const EvaluationRecord& record, const pareto::Objectives& objectives) {
  return objectives.point(column_values(record, objectives));
}

std::vector<std::size_t> run_front(const std::vector<EvaluationRecord>& records, const pareto::Objectives& objectives) {
  std::vector<pareto::Point> points;
  std::vector<std::size_t> ok_index;
  for (std::size_t i = 0; i < records.size(); ++i)
    if (records[i].ok()) {
      points.push_back(objective_point(records[i], objectives));
      ok_index.push_back(i);
    }
  std::vector<std::size_t> front;
  for (std::size_t k : pareto::non_dominated_indices(points)) front.push_back(ok_index[k]);
  return front;
}

double run_hypervolume(const RunInfo& info, const std::vector<EvaluationRecord>& records) {
  const auto axis = axis_of(info);
  std::vector<pareto::Point> points;
  for (const auto& r : records)
    if (r.ok()) points.push_back(axis.map(objective_point(r, info.objectives)));
  return pareto::hypervolume(points, axis.map(info.objectives.reference()));
}

void objectives_to_json(const pareto::Objectives& objectives, nlohmann::json& into) {
  nlohmann::json reference = nlohmann::json::array();
  for (double r : objectives.reference()) reference.push_back(json_number(r));
  into["reference"] = reference;
  // Absent in runs and studies from before the choice, which all modelled a logit.
  if (objectives.utility_transform() != pareto::Transform::logit)
    into["utility_transform"] = pareto::transform_name(objectives.utility_transform());
  if (objectives.size() <= 2) return;
  into["objectives"] = objectives.names();
  nlohmann::json transforms = nlohmann::json::array();
  for (const auto& o : objectives.list) transforms.push_back(pareto::transform_name(o.surrogate));
  into["transforms"] = transforms;
}

pareto::Objectives objectives_from_json(const nlohmann::json& from, const std::string& source) {
  pareto::Point reference;
  for (const auto& r : from.at("reference")) reference.push_back(number_from_json(r, source + " reference"));
  std::vector<std::string> names = {"epsilon", "error"};
  if (from.contains("objectives")) {
    names = from.at("objectives").get<std::vector<std::string>>();
    if (names.size() < 2 || names[0] != "epsilon" || names[1] != "error")
      throw InputError(source + ": objectives must begin with epsilon, error");
  }
  if (reference.size() != names.size())
    throw InputError(source + ": reference has " + std::to_string(reference.size()) + " numbers for " +
                     std::to_string(names.size()) + " objectives");
  // A declared objective (not known by name) comes with its transform.
  const auto transforms = from.value("transforms", std::vector<std::string>(names.size(), ""));
  if (transforms.size() != names.size())
    throw InputError(source + ": " + std::to_string(transforms.size()) + " transforms for " +
                     std::to_string(names.size()) + " objectives");
  std::vector<pareto::Objective> further;
  for (std::size_t i = 2; i < names.size(); ++i)
    further.push_back(pareto::is_known_objective(names[i])
                          ? pareto::known_objective(names[i])
                          : pareto::declared_objective(names[i], pareto::parse_transform(transforms[i], source),
                                                       reference[i], source));
  auto objectives = pareto::Objectives::with_further(further, reference);
  if (from.contains("utility_transform")) {
    const auto& t = from.at("utility_transform");
    if (!t.is_string()) throw InputError(source + ": utility_transform must be a string");
    objectives.set_utility_transform(pareto::parse_transform(t.get<std::string>(), source + " utility_transform"),
                                     source);
  }
  return objectives;
}

namespace {

// Creates the run directory and locks it (flock on the directory itself): two runs writing the same
// directory at once would silently replace each other's evaluations.
FileLock lock_run_directory(const std::string& directory) {
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec) throw InputError("--out " + directory + ": cannot create directory (" + ec.message() + ")");
  return FileLock(directory, O_RDONLY | O_DIRECTORY, FileLock::Wait::no, "--out " + directory);
}

}  // namespace

RunDirectoryWriter::RunDirectoryWriter(std::string directory, RunInfo info)
    : directory_(std::move(directory)), info_(std::move(info)), lock_(lock_run_directory(directory_)) {
  flush();
}

void RunDirectoryWriter::add(const EvaluationRecord& record) {
  if (record.params.size() != info_.parameter_names.size())
    throw Error("run record " + std::to_string(record.id) + " has " + std::to_string(record.params.size()) +
                " parameters, expected " + std::to_string(info_.parameter_names.size()));
  records_.push_back(record);
  record_hypervolume(record, run_hypervolume(info_, records_));
  flush();
}

void RunDirectoryWriter::record_hypervolume(const EvaluationRecord& record, double hv) {
  if (record.is_intermediate() && !hv_history_.empty())
    hv_history_.back() = hv;  // the evaluation's entry, with its intermediate results
  else
    hv_history_.push_back(hv);
}

void RunDirectoryWriter::add_many(const std::vector<EvaluationRecord>& records) {
  const auto axis = axis_of(info_);
  const pareto::Point reference = axis.map(info_.objectives.reference());
  std::vector<pareto::Point> front;
  for (const auto& r : records_)
    if (r.ok()) front.push_back(axis.map(objective_point(r, info_.objectives)));
  front = pareto::pareto_front(front);
  double hv = hv_history_.empty() ? 0.0 : hv_history_.back();
  for (const auto& r : records) {
    if (r.params.size() != info_.parameter_names.size())
      throw Error("run record " + std::to_string(r.id) + " has the wrong number of parameters");
    records_.push_back(r);
    if (r.ok()) {
      const auto point = axis.map(objective_point(r, info_.objectives));
      const double gain = pareto::hypervolume_improvement(front, point, reference);
      if (gain > 0) {
        hv += gain;
        front.push_back(point);
        front = pareto::pareto_front(front);
      }
    }
    record_hypervolume(r, hv);
  }
  flush();
}

void RunDirectoryWriter::flush() const {
  const fs::path dir(directory_);
  std::string evaluations = header_line(info_) + "\n";
  for (const auto& r : records_) evaluations += record_line(info_, r) + "\n";
  write_file_atomically(dir / "evaluations.csv", evaluations);

  const auto front = run_front(records_, info_.objectives);
  std::string front_csv = header_line(info_) + "\n";
  nlohmann::json front_json = nlohmann::json::array();
  for (std::size_t i : front) {
    front_csv += record_line(info_, records_[i]) + "\n";
    front_json.push_back(record_json(info_, records_[i]));
  }
  write_file_atomically(dir / "front.csv", front_csv);

  nlohmann::json hv = nlohmann::json::array();
  for (double h : hv_history_) hv.push_back(json_number(h));
  nlohmann::json summary = {
      {"problem", info_.problem},
      {"method", info_.method},
      {"seed", info_.seed ? nlohmann::json(*info_.seed) : nlohmann::json(nullptr)},
      {"parameters", info_.parameter_names},
      {"hv_axis", info_.hv_axis},
      {"log_floor", info_.log_floor},
      {"evaluations", evaluation_count(records_)},
      {"failed", failed_evaluation_count(records_)},
      {"intermediate_results", records_.size() - static_cast<std::size_t>(evaluation_count(records_))},
      {"hypervolume", json_number(hv_history_.empty() ? 0.0 : hv_history_.back())},
      {"hv_history", hv},
      {"front", front_json}};
  objectives_to_json(info_.objectives, summary);
  for (const auto& [key, value] : info_.extra.items()) summary[key] = value;
  write_file_atomically(dir / "summary.json", summary.dump(2) + "\n");
}

RunData read_run_directory(const std::string& directory) {
  const fs::path dir(directory);
  const fs::path summary_path = dir / "summary.json";
  const fs::path csv_path = dir / "evaluations.csv";
  if (!fs::is_directory(dir)) throw InputError(directory + ": not a run directory (no such directory)");
  RunData data;
  {
    if (!fs::exists(summary_path)) throw InputError(summary_path.string() + ": missing (not a run directory?)");
    // A regular file of bounded size and nesting (json_file.hpp), as every JSON someone else wrote.
    data.summary = read_json_file(summary_path, "run summary");
    try {
      auto& s = data.summary;
      data.info.problem = s.at("problem").get<std::string>();
      data.info.method = s.at("method").get<std::string>();
      if (!s.at("seed").is_null()) {
        // Checked before the conversion: nlohmann converts a float such as 1e20 to uint64_t unchecked.
        if (!s["seed"].is_number_unsigned())
          throw InputError(summary_path.string() + ": seed " + printable(s["seed"].dump()) +
                           " is not an integer in [0, 2^64)");
        data.info.seed = s["seed"].get<std::uint64_t>();
      }
      data.info.parameter_names = s.at("parameters").get<std::vector<std::string>>();
      data.info.objectives = objectives_from_json(s, summary_path.string());
      data.info.hv_axis = s.at("hv_axis").get<std::string>();
      data.info.log_floor = s.value("log_floor", 1e-2);
      for (const auto& h : s.at("hv_history")) data.hv_history.push_back(number_from_json(h, "hv_history"));
      static const std::vector<std::string> own = {
          "problem",   "method",      "seed",   "parameters",  "reference",  "objectives", "hv_axis",
          "log_floor", "evaluations", "failed", "hypervolume", "hv_history", "front",      "intermediate_results"};
      for (const auto& [key, value] : s.items())
        if (std::find(own.begin(), own.end(), key) == own.end()) data.info.extra[key] = value;
    } catch (const nlohmann::json::exception& e) {
      throw InputError(summary_path.string() + ": corrupt summary (" + e.what() + ")");
    }
  }
  std::ifstream in(csv_path);
  if (!in) throw InputError(csv_path.string() + ": missing (not a run directory?)");
  std::string line;
  if (!std::getline(in, line)) throw InputError(csv_path.string() + ": empty file (no header)");
  const auto header = csv_split(line);
  const std::size_t np = data.info.parameter_names.size();
  const auto objective_columns = data.info.objectives.columns();
  if (header.size() != kLeadingColumns.size() + np + objective_columns.size() + kTrailingColumns.size())
    throw InputError(csv_path.string() + ":1: header has " + std::to_string(header.size()) +
                     " columns, summary.json lists " + std::to_string(np) + " parameters");
  int line_number = 1;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    const std::string where = csv_path.string() + ":" + std::to_string(line_number);
    const auto f = csv_split(line);
    if (f.size() != header.size())
      throw InputError(where + ": " + std::to_string(f.size()) + " fields, expected " + std::to_string(header.size()));
    EvaluationRecord r;
    const double id = parse_double(f[0], where + " (id)");
    if (!(id >= 1 && id <= 2147483647 && id == std::floor(id)))  // checked before the conversion
      throw InputError(where + ": id " + printable(f[0]) + " is not a whole number in [1, 2147483647]");
    r.id = static_cast<int>(id);
    r.phase = f[1];
    r.status = parse_evaluation_status(f[2], where);
    for (std::size_t i = 0; i < np; ++i)
      r.params.push_back(parse_double(f[3 + i], where + " (" + printable(header[3 + i]) + ")"));
    std::size_t k = 3 + np;
    for (const auto& c : objective_columns) r.column(c) = parse_double(f[k++], where + " (" + c + ")");
    r.seconds = parse_double(f[k++], where + " (seconds)");
    r.message = f[k];
    // An edited or foreign file must not slip impossible values into fronts, plots and pick.
    if (r.ok() && (!(r.epsilon >= 0) || !(r.utility >= 0 && r.utility <= 1) ||
                   !(r.utility_min <= r.utility && r.utility <= r.utility_max)))
      throw InputError(where +
                       ": an ok row needs epsilon >= 0 and 0 <= utility_min <= utility <= utility_max <= 1, "
                       "got epsilon " +
                       format_number(r.epsilon) + ", utility " + format_number(r.utility) + " [" +
                       format_number(r.utility_min) + ", " + format_number(r.utility_max) + "]");
    data.records.push_back(std::move(r));
  }
  return data;
}

}  // namespace dpareto::study
