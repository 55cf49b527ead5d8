// `explore --early-stop` from the command line (issue 18): refused in one line where it cannot take
// effect; otherwise recorded in the run and the study, kept by a resume, and each stopped training
// stored as the evaluation of the epochs it reached, its earlier epochs after it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "../support/test_support.hpp"
#include "dpareto/study/run_record.hpp"

using dpareto::test::read_text;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot early_stop_cli_root("dpareto_early_stop_cli_");
}  // namespace

TEST_CASE("explore --early-stop: refused in one line without every-epoch results or the DPareto loop") {
  const auto dir = early_stop_cli_root.dir("refused");
  const std::string problem = "explore --problem synthetic-logreg-sgd --set train_subset=300 --init 2 --budget 3 ";
  check_one_line_exit_2(run_cli(problem + "--early-stop --out a", dir),
                        "--early-stop: problem synthetic-logreg-sgd: it observes the final epoch only; add --set "
                        "observe=every-epoch");
  check_one_line_exit_2(run_cli(problem + "--set observe=every-epoch --method random --early-stop --out b", dir),
                        "--early-stop: problem synthetic-logreg-sgd: it is for the DPareto loop, not --method random");
  check_one_line_exit_2(
      run_cli(problem + "--set observe=every-epoch --objective train_seconds --early-stop --out c", dir),
      "its rule weighs epsilon and utility only");
  CHECK_FALSE(std::filesystem::exists(dir / "a"));
}

TEST_CASE("explore --early-stop: stopped trainings are the evaluations of the epochs they reached") {
  // How many trainings stop depends on each run's path (about 1 in 10 BO trainings here, and the
  // sanitizer build's arithmetic takes other paths than the native one): three seeds, stops counted
  // over all of them.
  int stopped = 0;
  for (const int seed : {1, 2, 3}) {
    CAPTURE(seed);
    const auto dir = early_stop_cli_root.dir("stopped-" + std::to_string(seed));
    const std::string command =
        "explore --problem synthetic-logreg-sgd --set train_subset=500 --set observe=every-epoch --repeats 2 "
        "--max-epochs 12 --threads 2 --early-stop --init 10 --seed " +
        std::to_string(seed) + " --study s.db --out run ";
    const auto explored = run_cli(command + "--budget 24", dir);
    REQUIRE_MESSAGE(explored.status == 0, explored.output);
    const auto resumed = run_cli("explore --study s.db --budget 26", dir);
    REQUIRE_MESSAGE(resumed.status == 0, resumed.output);
    const auto summary = nlohmann::json::parse(read_text(dir / "run" / "summary.json"));
    CHECK(summary.value("early_stop", false));
    CHECK(summary.at("evaluations").get<int>() == 26);
    const auto run = dpareto::study::read_run_directory((dir / "run").string());
    int evaluations = 0;
    for (const auto& group : dpareto::study::grouped_by_evaluation(run.records)) {
      const auto& evaluation = group.front();
      REQUIRE_FALSE(evaluation.is_intermediate());
      ++evaluations;
      // Its earlier epochs after it, 1 .. E − 1 of the E it trained (and stored).
      REQUIRE(group.size() == static_cast<std::size_t>(evaluation.params[0]));
      for (std::size_t k = 1; k < group.size(); ++k) CHECK(group[k].params[0] == static_cast<double>(k));
      const auto at = evaluation.message.find("stopped after epoch ");
      if (at == std::string::npos) continue;
      ++stopped;
      CHECK(evaluations > 10);  // never an initial setting
      int reached = 0, proposed = 0;
      REQUIRE(std::sscanf(evaluation.message.c_str() + at, "stopped after epoch %d of %d", &reached, &proposed) == 2);
      CHECK(reached == static_cast<int>(evaluation.params[0]));
      CHECK(2 * reached <= proposed);  // in the first half of its epochs
    }
    CHECK(evaluations == 26);
  }
  CHECK(stopped >= 3);  // 6 in the native build, 9 in the sanitizer build (2026-12-07)
}
