// Every epoch as an observation (issue 18 item 2) from the command line: an external oracle that
// declares its DP-SGD prints its earlier epochs' utilities; dpareto stores each as an `epoch` row with
// the ε it accounts, counts none against the budget, builds the front from all, and resumes.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../support/test_support.hpp"
#include "dpareto/study/run_record.hpp"

namespace fs = std::filesystem;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot intermediate_results_cli_root("dpareto_intermediate_cli_");

// utility after e epochs = 0.9 − 0.3 / e − 0.02 sigma; the oracle prints every epoch before the last.
void write_intermediate_oracle(const fs::path& dir) {
  std::ofstream(dir / "space.json")
      << R"({"parameters": [{"name": "epochs", "kind": "integer", "low": 1, "high": 6},)"
      << R"( {"name": "sigma", "kind": "continuous", "low": 0.5, "high": 8, "scale": "log"}],)"
      << R"( "known_epsilon": {"mechanism": "dp-sgd", "examples": 10000, "delta": 1e-5,)"
      << R"( "epochs": "epochs", "lot_size": 100, "noise_multiplier": "sigma"}})";
  std::ofstream(dir / "oracle.sh")
      << "#!/bin/sh\n"
      << R"(awk -v E="$1" -v s="$2" 'BEGIN { printf "{\"utility\": %.17g, \"intermediate\": [", 0.9 - 0.3 / E - 0.02 * s;)"
      << R"( for (e = 1; e < E; e++) printf "%s{\"epochs\": %d, \"utility\": %.17g}", (e > 1 ? ", " : ""), e, 0.9 - 0.3 / e - 0.02 * s;)"
      << R"( print "]}" }')"
      << "\n";
  fs::permissions(dir / "oracle.sh", fs::perms::owner_all);
}

}  // namespace

TEST_CASE("explore: an oracle's intermediate results are epoch rows, outside the budget, inside the front") {
  const auto dir = intermediate_results_cli_root.dir("oracle");
  write_intermediate_oracle(dir);
  const std::string command =
      "explore --space space.json --oracle-cmd './oracle.sh {epochs} {sigma}' --init 4 --seed 3 --study s.db --out "
      "run ";
  const auto first = run_cli(command + "--budget 6", dir);
  REQUIRE_MESSAGE(first.status == 0, first.output);
  auto run = dpareto::study::read_run_directory((dir / "run").string());
  CHECK(dpareto::study::evaluation_count(run.records) == 6);
  const auto summary = nlohmann::json::parse(dpareto::test::read_text(dir / "run" / "summary.json"));
  CHECK(summary.at("evaluations") == 6);
  CHECK(summary.at("intermediate_results").get<std::size_t>() == run.records.size() - 6);
  int results = 0;
  for (const auto& group : dpareto::study::grouped_by_evaluation(run.records)) {
    const auto& evaluation = group.front();
    REQUIRE_FALSE(evaluation.is_intermediate());
    REQUIRE(group.size() == static_cast<std::size_t>(evaluation.params[0]));  // epochs 1 .. E−1 after it
    for (std::size_t k = 1; k < group.size(); ++k, ++results) {
      CHECK(group[k].params == std::vector<double>{static_cast<double>(k), evaluation.params[1]});
      CHECK(group[k].utility == doctest::Approx(0.9 - 0.3 / k - 0.02 * evaluation.params[1]));
      CHECK(group[k].epsilon > 0);  // accounted by dpareto from the declaration
      CHECK(group[k].epsilon < evaluation.epsilon);
      CHECK(group[k].seconds == 0);
    }
  }
  CHECK(results == static_cast<int>(run.records.size()) - 6);
  CHECK(first.output.find("6 evaluations (0 failed, " + std::to_string(results) + " intermediate results)") !=
        std::string::npos);
  // One hypervolume per evaluation (with its results), the last that of every row.
  CHECK(summary.at("hv_history").size() == 6);
  CHECK(summary.at("hv_history").back().get<double>() == summary.at("hypervolume").get<double>());
  // The hypervolume counts every row: it is that of all of them.
  CHECK(summary.at("hypervolume").get<double>() ==
        doctest::Approx(dpareto::study::run_hypervolume(run.info, run.records)));
  // A resume to a larger budget adds evaluations (with their results), never re-runs one.
  const auto more = run_cli(command + "--budget 8", dir);
  REQUIRE_MESSAGE(more.status == 0, more.output);
  run = dpareto::study::read_run_directory((dir / "run").string());
  CHECK(dpareto::study::evaluation_count(run.records) == 8);
}

TEST_CASE("explore: an oracle whose intermediate results go backwards in epsilon fails those evaluations") {
  const auto dir = intermediate_results_cli_root.dir("backwards");
  std::ofstream(dir / "space.json") << R"({"parameters": [{"name": "epochs", "kind": "integer", "low": 2, "high": 6},)"
                                    << R"( {"name": "x", "kind": "continuous", "low": 0, "high": 1}]})";
  std::ofstream(dir / "oracle.sh")
      << "#!/bin/sh\n"
      << R"(echo '{"epsilon": 1, "utility": 0.8, "intermediate": [{"x": 0.5, "epsilon": 2, "utility": 0.7}]}')"
      << "\n";
  fs::permissions(dir / "oracle.sh", fs::perms::owner_all);
  const auto r = run_cli(
      "explore --space space.json --oracle-cmd './oracle.sh' --init 2 --budget 3 --seed 1 --keep-going --out run", dir);
  CHECK(r.status != 0);  // no evaluation succeeded
  CHECK(r.output.find("epsilon 2 above the final result's 1") != std::string::npos);
  const auto run = dpareto::study::read_run_directory((dir / "run").string());
  CHECK(run.records.size() == 3);
  for (const auto& record : run.records) CHECK_FALSE(record.ok());
}
