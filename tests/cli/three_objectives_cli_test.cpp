// Issue 13 item 2 end to end: an external oracle declaring a third objective in space.json, explored
// with three GPs and 3-D HVPoI; the files carry its column, `pick --max NAME=V` limits it, the front
// figure colours by it; a built-in problem with --objective train_seconds; bad declarations and
// limits refused with one line and exit 2. A fourth objective colours the front figure on request
// (`plot front --colour-by`) and in a report figure of its own.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../support/test_support.hpp"
#include "dpareto/core/json_number.hpp"

namespace fs = std::filesystem;
using dpareto::test::read_text;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot three_objectives_cli_root("dpareto_three_objectives_cli_");

// ε = 10 / noise, utility = 0.9 − 0.05 noise − 0.1 |log10 lr + 1|, latency_ms = 100 · lr^(-1/2):
// the most useful settings are the slow ones, so the third objective is in conflict.
// With `memory`, the oracle also prints memory_mb = 50 + 10 · noise (a fourth objective, in
// conflict with ε: less memory where the noise is small).
void write_objectives_oracle(const fs::path& dir, const std::string& objectives, bool memory = false) {
  std::ofstream(dir / "space.json")
      << R"({"parameters": [{"name": "lr", "kind": "continuous", "low": 0.001, "high": 1, "scale": "log"},)"
      << R"( {"name": "noise", "kind": "continuous", "low": 0.5, "high": 8, "scale": "linear"}],)"
      << R"( "objectives": )" << objectives << "}";
  std::ofstream(dir / "oracle.sh")
      << "#!/bin/sh\n"
      << R"(awk -v lr="$1" -v n="$2" 'BEGIN { l = log(lr) / log(10) + 1; if (l < 0) l = -l;)"
      << R"( printf "{\"epsilon\": %.17g, \"utility\": %.17g, \"latency_ms\": %.17g)"
      << (memory ? R"(, \"memory_mb\": %.17g}\n", 10 / n, 0.9 - 0.05 * n - 0.1 * l, 100 / sqrt(lr), 50 + 10 * n }')"
                 : R"(}\n", 10 / n, 0.9 - 0.05 * n - 0.1 * l, 100 / sqrt(lr) }')")
      << "\n";
  fs::permissions(dir / "oracle.sh", fs::perms::owner_all);
}

std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

TEST_CASE("three objectives: a declared one explored, written, limited by pick --max, coloured in the figure") {
  const auto dir = three_objectives_cli_root.dir("declared");
  write_objectives_oracle(dir, R"([{"name": "latency_ms", "transform": "log", "reference": 4000}])");
  const auto explored = run_cli(
      "explore --space space.json --oracle-cmd './oracle.sh {lr} {noise}' --budget 16 --init 6 --seed 3 "
      "--study run.db --out run --json",
      dir);
  REQUIRE_MESSAGE(explored.status == 0, explored.output);
  CHECK(first_line(dir / "run" / "front.csv") ==
        "id,phase,status,lr,noise,epsilon,delta,utility,utility_min,utility_max,latency_ms,seconds,message");
  const auto summary = nlohmann::json::parse(read_text(dir / "run" / "summary.json"));
  CHECK(summary.at("objectives") == nlohmann::json({"epsilon", "error", "latency_ms"}));
  CHECK(summary.at("transforms") == nlohmann::json({"log", "logit", "log"}));
  CHECK(summary.at("reference") == nlohmann::json({10, 1, 4000}));
  const auto& front = summary.at("front");
  REQUIRE(front.size() >= 2);
  double fastest = 1e300;
  for (const auto& p : front) fastest = std::min(fastest, p.at("latency_ms").get<double>());

  const auto status = run_cli("status --study run.db --json", dir);
  REQUIRE_MESSAGE(status.status == 0, status.output);
  CHECK(nlohmann::json::parse(status.output).at("objectives") == summary.at("objectives"));

  // The limit is met by the pick, and a limit below every front point leaves the target unreachable.
  const auto picked = run_cli(
      "pick run --max-epsilon 10 --max latency_ms=" + std::to_string(fastest * 1.5) + " --by observed --json", dir);
  REQUIRE_MESSAGE(picked.status == 0, picked.output);
  const auto p = nlohmann::json::parse(picked.output);
  CHECK(p.at("further_objectives").at("latency_ms").get<double>() <= fastest * 1.5);
  CHECK(p.at("target") == "epsilon <= 10, latency_ms <= " + dpareto::format_number(fastest * 1.5));
  const auto unreachable = run_cli("pick run --max-epsilon 10 --max latency_ms=1 --by observed", dir);
  CHECK(unreachable.status == 1);
  CHECK(unreachable.output.find("unreachable") != std::string::npos);

  const auto figure = run_cli("plot front run --out front.png", dir);
  REQUIRE_MESSAGE(figure.status == 0, figure.output);
  CHECK(fs::file_size(dir / "front.png") > 1000);

  // Limits on an objective the run does not have, or on the target's own, are refused.
  const auto unknown = run_cli("pick run --max-epsilon 10 --max memory=3", dir);
  CHECK(unknown.status == 2);
  CHECK(unknown.output.find("--max memory=3 (run run): no objective 'memory' (this run has epsilon, error, "
                            "latency_ms)") != std::string::npos);
  CHECK(run_cli("pick run --max-epsilon 10 --max epsilon=3", dir).status == 2);
  CHECK(run_cli("pick run --max-epsilon 10 --max latency_ms", dir).status == 2);

  // On the surrogates: the latency GP's 95% upper predictive bound meets the limit, and so does the
  // oracle's measurement (latency is smooth in lr, so the GP is accurate).
  const double limit = fastest * 1.5;
  const auto modelled =
      run_cli("pick run --max-epsilon 10 --max latency_ms=" + std::to_string(limit) + " --from model --json", dir);
  REQUIRE_MESSAGE(modelled.status == 0, modelled.output);
  const auto m = nlohmann::json::parse(modelled.output);
  CHECK(m.at("reached") == true);
  CHECK(m.at("further_objectives").at("latency_ms").get<double>() <= limit);
  const double lr = m.at("params").at("lr").get<double>();
  CHECK(100 / std::sqrt(lr) <= limit);
}

TEST_CASE("three objectives: bad declarations and an unknown --objective are one line, exit 2") {
  const auto dir = three_objectives_cli_root.dir("bad");
  write_objectives_oracle(dir, R"([{"name": "latency_ms", "transform": "cube", "reference": 4000}])");
  const auto bad_transform =
      run_cli("explore --space space.json --oracle-cmd './oracle.sh {lr} {noise}' --budget 4", dir);
  CHECK(bad_transform.status == 2);
  CHECK(bad_transform.output.find("space.json: \"objectives\"[0]: unknown transform 'cube' (expected identity, log, "
                                  "logit or arcsine)") != std::string::npos);
  const auto unknown = run_cli("explore --problem svt --objective memory --budget 4", dir);
  CHECK(unknown.status == 2);
  CHECK(unknown.output.find("--objective memory: expected train_seconds") != std::string::npos);
  const auto short_reference =
      run_cli("explore --problem svt --objective train_seconds --reference 10,1,2,3 --budget 4", dir);
  CHECK(short_reference.status == 2);
  CHECK(short_reference.output.find("expected EPSILON,ERROR,train_seconds (or EPSILON,ERROR)") != std::string::npos);
  // An oracle that does not print a declared key: every evaluation fails, naming it.
  write_objectives_oracle(dir, R"([{"name": "memory_mb", "reference": 100}])");
  const auto silent = run_cli(
      "explore --space space.json --oracle-cmd './oracle.sh {lr} {noise}' --budget 4 --init 2 --out silent", dir);
  CHECK(silent.status != 0);
  CHECK(silent.output.find("the oracle reported no 'memory_mb' (a declared objective)") != std::string::npos);
}

TEST_CASE("three objectives: a built-in problem's training seconds") {
  const auto dir = three_objectives_cli_root.dir("svt");
  const auto explored = run_cli(
      "explore --problem svt --objective train_seconds --reference 100,1,5 --budget 10 --init 5 --seed 2 --out run "
      "--json",
      dir);
  REQUIRE_MESSAGE(explored.status == 0, explored.output);
  const auto summary = nlohmann::json::parse(read_text(dir / "run" / "summary.json"));
  CHECK(summary.at("objectives") == nlohmann::json({"epsilon", "error", "train_seconds"}));
  for (const auto& p : summary.at("front")) CHECK(p.at("train_seconds").get<double>() > 0);
}

TEST_CASE("four objectives: plot front --colour-by a further one, and a report figure for each beyond the third") {
  const auto dir = three_objectives_cli_root.dir("four");
  write_objectives_oracle(
      dir, R"([{"name": "latency_ms", "transform": "log", "reference": 4000}, {"name": "memory_mb", "reference": 200}])",
      true);
  const auto explored = run_cli(
      "explore --space space.json --oracle-cmd './oracle.sh {lr} {noise}' --budget 12 --init 6 --seed 4 --out run",
      dir);
  REQUIRE_MESSAGE(explored.status == 0, explored.output);
  const auto summary = nlohmann::json::parse(read_text(dir / "run" / "summary.json"));
  REQUIRE(summary.at("objectives") == nlohmann::json({"epsilon", "error", "latency_ms", "memory_mb"}));

  // The front points carry the chosen objective's values as the colour column.
  const auto by_memory = run_cli("plot front run --colour-by memory_mb --keep-script --out memory.png", dir);
  REQUIRE_MESSAGE(by_memory.status == 0, by_memory.output);
  CHECK(fs::file_size(dir / "memory.png") > 1000);
  const std::string memory_script = read_text(dir / "memory.png.gp");
  CHECK(memory_script.find("set cblabel 'memory_mb'") != std::string::npos);
  CHECK(memory_script.find("coloured by memory_mb") != std::string::npos);
  double lowest_memory = 1e300;
  for (const auto& p : summary.at("front")) lowest_memory = std::min(lowest_memory, p.at("memory_mb").get<double>());
  CHECK(memory_script.find(" " + dpareto::format_number(lowest_memory) + "\n") != std::string::npos);
  const auto by_default = run_cli("plot front run --keep-script --out default.png", dir);
  REQUIRE_MESSAGE(by_default.status == 0, by_default.output);
  CHECK(read_text(dir / "default.png.gp").find("set cblabel 'latency_ms'") != std::string::npos);

  // An objective the run does not have, or an axis, is one line and exit 2; nothing is written.
  const auto unknown = run_cli("plot front run --colour-by memory --out unknown.png", dir);
  CHECK(unknown.status == 2);
  CHECK(unknown.output.find("--colour-by memory (run run): no objective 'memory' (this run has epsilon, error, "
                            "latency_ms, memory_mb)") != std::string::npos);
  const auto axis = run_cli("plot front run --colour-by epsilon --out axis.png", dir);
  CHECK(axis.status == 2);
  CHECK(axis.output.find("'epsilon' is an axis of the figure, not a colour") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "unknown.png"));
  CHECK_FALSE(fs::exists(dir / "axis.png"));

  // The report draws the front coloured by latency (the third) and a second figure by memory.
  const auto report = run_cli("report run", dir);
  REQUIRE_MESSAGE(report.status == 0, report.output);
  CHECK(fs::file_size(dir / "run" / "report" / "front-memory_mb.png") > 1000);
  CHECK_FALSE(fs::exists(dir / "run" / "report" / "front-latency_ms.png"));
  CHECK(read_text(dir / "run" / "report" / "report.md").find("Pareto fronts coloured by memory\\_mb") !=
        std::string::npos);
}
