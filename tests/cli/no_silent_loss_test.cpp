// No silent loss, no false success (issue 21 item 2): explore refuses to replace another run in
// --out (another problem, seed or study) unless --overwrite, refuses a --budget below what its study
// already holds, and report refuses a missing run directory — each one line, exit 2, nothing written.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "../support/test_support.hpp"

namespace fs = std::filesystem;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot no_silent_loss_root("dpareto_no_silent_loss_test_");

void check_refused(const dpareto::test::CliRun& r, const std::string& needle) {
  CHECK(r.status == 2);
  CHECK_MESSAGE(r.output.find(needle) != std::string::npos, r.output);
  CHECK_MESSAGE(std::count(r.output.begin(), r.output.end(), '\n') == 1, r.output);
}

}  // namespace

TEST_CASE("explore keeps another run's directory unless --overwrite; the same run may be rewritten") {
  const auto dir = no_silent_loss_root.dir("out");
  const std::string run = (dir / "run").string();
  const std::string svt = "explore --problem svt --budget 10 --init 6 --out " + run;
  REQUIRE(run_cli(svt + " --seed 1").status == 0);
  CHECK(run_cli(svt + " --seed 1").status == 0);  // the same run again
  const std::string before = dpareto::test::read_text(dir / "run" / "evaluations.csv");
  check_refused(run_cli(svt + " --seed 2"), "--out " + run + " holds another run (seed 1, this run's 2)");
  check_refused(run_cli(svt), "holds another run (seed 1, this run's none)");
  check_refused(run_cli("explore --problem synthetic-logreg-sgd --set train_subset=500 --repeats 1 --budget 6 "
                        "--init 4 --seed 1 --out " +
                        run),
                "holds another run (problem svt)");
  CHECK(dpareto::test::read_text(dir / "run" / "evaluations.csv") == before);  // untouched
  // A new study into that directory is refused before the study file is created.
  check_refused(run_cli(svt + " --study " + (dir / "new.db").string()), "holds another run");
  CHECK(!fs::exists(dir / "new.db"));
  const auto replaced = run_cli(svt + " --seed 2 --overwrite");
  CHECK(replaced.status == 0);
  CHECK(dpareto::test::read_text(dir / "run" / "evaluations.csv") != before);
}

TEST_CASE("a study resumes into its own directory; a budget below its evaluations is an error") {
  const auto dir = no_silent_loss_root.dir("study");
  const std::string study = (dir / "s.db").string(), run = (dir / "run").string();
  const std::string svt = "explore --problem svt --init 6 --study " + study + " --out " + run;
  REQUIRE(run_cli(svt + " --budget 10 --seed 3").status == 0);
  check_refused(run_cli(svt + " --budget 8"),
                "--budget 8 is below the 10 evaluations study " + study + " already holds; give --budget 10 or more");
  CHECK(run_cli(svt + " --budget 12").status == 0);  // resumed into its own directory
  check_refused(run_cli("explore --problem svt --init 6 --budget 12 --study " + (dir / "other.db").string() +
                        " --seed 4 --out " + run),
                "holds another run (seed 3, this run's 4)");
}

TEST_CASE("report of a missing run directory fails and writes nothing") {
  const auto dir = no_silent_loss_root.dir("report");
  check_refused(run_cli("report " + (dir / "absent").string()), (dir / "absent").string() + ": not a run directory");
  CHECK(!fs::exists(dir / "absent"));
}
