#include <doctest/doctest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "dpareto/core/error.hpp"
#include "dpareto/study/run_record.hpp"

using namespace dpareto;
namespace fs = std::filesystem;

namespace {
study::EvaluationRecord record(int id, double eps, double util, bool ok = true) {
  study::EvaluationRecord r;
  r.id = id;
  r.phase = id <= 2 ? "init" : "bo";
  r.status = ok ? study::EvaluationStatus::ok : study::EvaluationStatus::failed;
  r.params = {double(id), 0.5 * id};
  r.epsilon = eps;
  r.utility = util;
  r.utility_min = util;
  r.utility_max = util;
  r.message = ok ? "" : "diverged, \"NaN\" loss";
  return r;
}

fs::path fresh_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("dpareto-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

std::string first_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

study::RunInfo toy_info() {
  study::RunInfo info;
  info.problem = "toy";
  info.method = "dpareto";
  info.parameter_names = {"a", "b"};
  return info;
}

study::EvaluationRecord timed_record(int id, double eps, double util, double seconds) {
  auto r = record(id, eps, util);
  r.further["train_seconds"] = seconds;
  return r;
}
}  // namespace

TEST_CASE("run directory: written after every evaluation, read back identically, front and HV right") {
  const auto dir = fresh_dir("run");
  study::RunInfo info;
  info.problem = "toy";
  info.method = "dpareto";
  info.seed = 7;
  info.parameter_names = {"a", "b"};
  info.objectives.set_reference({10, 1});
  study::RunDirectoryWriter writer(dir.string(), info);
  writer.add(record(1, 2.0, 0.5));
  writer.add(record(2, 1.0, 0.4));
  writer.add(record(3, 0.5, 0.9, false));  // failed: never on the front
  writer.add(record(4, 4.0, 0.8));
  writer.add(record(5, 3.0, 0.5));  // dominated by record 1
  // front (epsilon, error): (1, 0.6), (2, 0.5), (4, 0.2) with r = (10, 1), by columns:
  // [1,2] height 0.4, [2,4] height 0.5, [4,10] height 0.8: 0.4 + 1.0 + 4.8 = 6.2
  CHECK(writer.hv_history().back() == doctest::Approx(6.2));
  CHECK(writer.hv_history().size() == 5);
  const auto data = study::read_run_directory(dir.string());
  CHECK(data.records.size() == 5);
  CHECK(data.records[2].message == "diverged, \"NaN\" loss");
  CHECK(data.records[2].status == study::EvaluationStatus::failed);
  CHECK(data.info.seed == 7u);
  CHECK(data.hv_history == writer.hv_history());
  const auto front = study::run_front(data.records, data.info.objectives);
  REQUIRE(front.size() == 3);
  CHECK(data.records[front[0]].id == 2);
  CHECK(data.records[front[2]].id == 4);
  std::ifstream front_csv(dir / "front.csv");
  int lines = 0;
  for (std::string line; std::getline(front_csv, line);) ++lines;
  CHECK(lines == 4);  // header + 3

  study::RunDirectoryWriter batch((dir / "batch").string(), info);
  batch.add_many(
      {record(1, 2.0, 0.5), record(2, 1.0, 0.4), record(3, 0.5, 0.9, false), record(4, 4.0, 0.8), record(5, 3.0, 0.5)});
  for (std::size_t i = 0; i < 5; ++i) CHECK(batch.hv_history()[i] == doctest::Approx(writer.hv_history()[i]));
  fs::remove_all(dir);
}

TEST_CASE("run directory: missing or corrupt files give one-line errors naming the file") {
  const auto dir = fresh_dir("corrupt");
  CHECK_THROWS_AS(study::read_run_directory(dir.string()), InputError);
  fs::create_directories(dir);
  std::ofstream(dir / "summary.json") << "{ not json";
  CHECK_THROWS_WITH_AS(study::read_run_directory(dir.string()), doctest::Contains("summary.json"), InputError);
  study::RunInfo info;
  info.problem = "toy";
  info.method = "random";
  info.parameter_names = {"a", "b"};
  { study::RunDirectoryWriter writer(dir.string(), info); }
  std::ofstream(dir / "evaluations.csv", std::ios::app) << "1,init,ok,1,2,3\n";
  CHECK_THROWS_WITH_AS(study::read_run_directory(dir.string()), doctest::Contains("evaluations.csv:2"), InputError);
  // A row of the right width with a status no writer gives.
  const std::string header = first_line(dir / "evaluations.csv");
  std::ofstream(dir / "evaluations.csv") << header << "\n1,init,bogus,1,2,0.5,0,0.5,0.5,0.5,1,\n";
  const std::string bogus = (dir / "evaluations.csv").string() + ":2: status 'bogus' is not ok, failed or running";
  CHECK_THROWS_WITH_AS(study::read_run_directory(dir.string()), bogus.c_str(), InputError);
  fs::remove_all(dir);
}

TEST_CASE("run directory: a seed that is no 64-bit integer, a deep summary, a raw field: one line, no crash") {
  // Fuzz findings (fuzz/run_directory.cpp): a float seed (1.8e20) was converted to uint64_t unchecked
  // (undefined behaviour); a carriage return of a CSV field reached the message raw.
  const auto dir = fresh_dir("fuzzed");
  study::RunInfo info;
  info.problem = "toy";
  info.method = "random";
  info.seed = 7;
  info.parameter_names = {"a", "b"};
  { study::RunDirectoryWriter writer(dir.string(), info); }
  std::ifstream in(dir / "summary.json");
  const auto summary = nlohmann::json::parse(in);
  const auto summary_path = (dir / "summary.json").string();
  for (const auto& [seed, shown] : std::vector<std::pair<nlohmann::json, std::string>>{
           {1.8446744073709552e20, "1.844674407370955e+20"}, {-1, "-1"}, {0.5, "0.5"}, {"7", "\"7\""}}) {
    auto edited = summary;
    edited["seed"] = seed;
    std::ofstream(dir / "summary.json") << edited.dump();
    CHECK_THROWS_WITH_AS(study::read_run_directory(dir.string()),
                         (summary_path + ": seed " + shown + " is not an integer in [0, 2^64)").c_str(), InputError);
  }
  std::ofstream(dir / "summary.json") << std::string(100000, '[') << std::string(100000, ']');
  CHECK_THROWS_WITH_AS(study::read_run_directory(dir.string()), doctest::Contains("nests deeper than 64 levels"),
                       InputError);
  std::ofstream(dir / "summary.json") << summary.dump();
  const std::string header = first_line(dir / "evaluations.csv");
  std::ofstream(dir / "evaluations.csv") << header << "\n1,init,ok,\"1\r\",2,0.5,0,0.5,0.5,0.5,1,\n";
  const std::string raw = (dir / "evaluations.csv").string() + ":2 (a): '1?' is not a number";
  CHECK_THROWS_WITH_AS(study::read_run_directory(dir.string()), raw.c_str(), InputError);
  fs::remove_all(dir);
}

TEST_CASE("CSV quoting round-trips") {
  const std::string field = "a, \"quoted\" value";
  const auto line = "1," + study::csv_escape(field) + ",x";
  const auto parts = study::csv_split(line);
  REQUIRE(parts.size() == 3);
  CHECK(parts[1] == field);
}

TEST_CASE("objectives descriptor: the CSV header of two objectives is today's, column for column") {
  const auto dir = fresh_dir("header");
  study::RunDirectoryWriter writer(dir.string(), toy_info());
  const std::string today = "id,phase,status,a,b,epsilon,delta,utility,utility_min,utility_max,seconds,message";
  CHECK(first_line(dir / "evaluations.csv") == today);
  CHECK(first_line(dir / "front.csv") == today);
  std::ifstream summary(dir / "summary.json");
  const auto s = nlohmann::json::parse(summary);
  CHECK(s.at("reference") == nlohmann::json::array({10, 1}));
  CHECK_FALSE(s.contains("objectives"));  // two objectives: the summary of today
  fs::remove_all(dir);
}

TEST_CASE("objectives descriptor: a third objective gets its column, its summary entry and a 3-D front") {
  const auto dir = fresh_dir("three");
  auto info = toy_info();
  info.objectives = pareto::Objectives::with({"train_seconds"}, {10, 1, 100});
  study::RunDirectoryWriter writer(dir.string(), info);
  writer.add(timed_record(1, 1.0, 0.5, 50));
  writer.add(timed_record(2, 2.0, 0.4, 10));  // dominated in (ε, error), not with the time
  writer.add(timed_record(3, 2.0, 0.4, 60));  // dominated by record 2
  CHECK(first_line(dir / "evaluations.csv") ==
        "id,phase,status,a,b,epsilon,delta,utility,utility_min,utility_max,train_seconds,seconds,message");
  // Boxes of [1,10]×[0.5,1]×[50,100] and [2,10]×[0.6,1]×[10,100], overlapping in [2,10]×[0.6,1]×[50,100].
  CHECK(writer.hv_history().back() == doctest::Approx(9 * 0.5 * 50 + 8 * 0.4 * 90 - 8 * 0.4 * 50));
  const auto data = study::read_run_directory(dir.string());
  CHECK(data.info.objectives.names() == info.objectives.names());
  CHECK(data.info.objectives.reference() == pareto::Point{10, 1, 100});
  REQUIRE(data.records.size() == 3);
  CHECK(data.records[1].column("train_seconds") == 10);
  CHECK(study::run_front(data.records, data.info.objectives) == std::vector<std::size_t>{0, 1});
  CHECK(study::run_hypervolume(data.info, data.records) == doctest::Approx(writer.hv_history().back()));
  fs::remove_all(dir);
}
