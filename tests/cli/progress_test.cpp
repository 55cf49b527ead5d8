// Long work is visible (issue 21 item 4): outside a terminal explore logs one line per evaluation,
// exact one line per interval and a warning when its grid is long, and keeps the finished points
// when stopped; tune shows elapsed time only (how many trainings it ran is private).
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "../support/test_support.hpp"

namespace fs = std::filesystem;
using dpareto::test::read_text;
using dpareto::test::run_cli;
using dpareto::test::spawn_cli;

namespace {

const dpareto::test::TempRoot progress_root("dpareto_progress_test_");

int count_lines(const std::string& text, const std::regex& pattern) {
  int n = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) n += std::regex_match(line, pattern);
  return n;
}

}  // namespace

TEST_CASE("explore logs one line per evaluation when stderr is not a terminal") {
  const auto dir = progress_root.dir("explore");
  const auto r = run_cli("explore --problem svt --budget 12 --init 4 --seed 2 --out run", dir);
  REQUIRE_MESSAGE(r.status == 0, r.output);
  for (int k = 1; k <= 12; ++k) {
    CAPTURE(k);
    const std::regex line("explore svt: " + std::to_string(k) + "/12 evaluations, [0-9]+ s elapsed.*, HV [0-9.e+-]+");
    CHECK(count_lines(r.output, line) == 1);
  }
  CHECK(r.output.find('\r') == std::string::npos);  // no terminal bar in a log
}

TEST_CASE("exact warns when its grid is long and keeps the finished points when stopped") {
  const auto dir = progress_root.dir("exact");
  // --warn-after 0: any grid is "long"; the warning names the time and how to stop.
  // (210 points, every C = 1..30 by 7 noises, at R = 5000 on one thread: slow enough that the pace
  // is measured before the end, also under the sanitizers.)
  const auto warned =
      run_cli("exact --problem svt --points 30,7 --repeats 5000 --workers 1 --warn-after 0 --out small", dir);
  REQUIRE_MESSAGE(warned.status == 0, warned.output);
  CHECK(count_lines(warned.output, std::regex("dpareto exact: warning: 210 grid points will take about [0-9]+ s at the "
                                              "current pace; Ctrl-C keeps the finished points in small.*")) == 1);
  CHECK(count_lines(warned.output, std::regex("exact svt: 210/210 grid points, [0-9]+ s elapsed")) == 1);
  const auto quiet = run_cli("exact --problem svt --points 5,8 --repeats 50 --out small2", dir);
  CHECK(quiet.output.find("warning") == std::string::npos);

  // Stopped mid-grid: exit 130, the finished points written, marked partial.
  const pid_t pid = spawn_cli(
      dir, {"exact", "--problem", "svt", "--points", "30,400", "--repeats", "4000", "--workers", "1", "--out", "big"});
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  CHECK(read_text(dir / "stderr.txt").find("grid points; wrote them to big") != std::string::npos);
  const auto summary = nlohmann::json::parse(read_text(dir / "big" / "summary.json"));
  const int kept = summary["partial"]["evaluated"].get<int>();
  CHECK(summary["partial"]["of"].get<int>() == 12000);
  CHECK(kept > 0);
  CHECK(kept < 12000);
  CHECK(summary["evaluations"].get<int>() == kept);
  const auto csv = read_text(dir / "big" / "evaluations.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == kept + 1);
}

TEST_CASE("tune shows elapsed time only, never how many trainings it ran") {
  const auto dir = progress_root.dir("tune");
  std::ofstream(dir / "cands.json") << R"({"problem": "synthetic-logreg-sgd", "candidates": [
      {"epochs": 2, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1},
      {"epochs": 1, "lot_size": 32, "learning_rate": 0.02, "clip_norm": 1}]})";
  ::setenv("DPARETO_LOG_INTERVAL", "0.01", 1);  // a line every 10 ms instead of every minute
  const auto r = run_cli(
      "tune --problem synthetic-logreg-sgd --set split=private --candidates cands.json "
      "--method random-stopping --target-epsilon 1 --delta 1e-5 --out tuned",
      dir);
  ::unsetenv("DPARETO_LOG_INTERVAL");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  const std::regex notice("tune synthetic-logreg-sgd: selecting and training privately, [0-9]+ s elapsed");
  const int notices = count_lines(r.output, notice);
  CHECK(notices >= 1);
  // Every progress line is the label and the time, nothing that counts trainings.
  CHECK(count_lines(r.output, std::regex(".*selecting and training privately.*")) == notices);
}

TEST_CASE("a resumed explore's ETA comes from the pace since it resumed, not from the evaluations it found") {
  const auto dir = progress_root.dir("resumed");
  std::ofstream(dir / "space.json") << R"({"parameters": [{"name": "x", "kind": "continuous", "low": 0, "high": 1}]})";
  // One second an evaluation: ε = 1 + x, utility = 0.5 x.
  std::ofstream(dir / "oracle.sh")
      << "#!/bin/sh\nsleep 1\n"
      << R"(awk -v x="$1" 'BEGIN { printf "{\"epsilon\": %.17g, \"utility\": %.17g}\n", 1 + x, 0.5 * x }')"
      << "\n";
  fs::permissions(dir / "oracle.sh", fs::perms::owner_all);
  const std::string explore =
      "explore --space space.json --oracle-cmd './oracle.sh {x}' --init 2 --seed 4 --study s.db --out run --budget ";
  const auto first = run_cli(explore + "2", dir);
  REQUIRE_MESSAGE(first.status == 0, first.output);
  const auto resumed = run_cli(explore + "4", dir);
  REQUIRE_MESSAGE(resumed.status == 0, resumed.output);
  // 2 of 4 were done before; after the third (about 1 s in), one more at that pace is about 1 s away
  // (a pace taken over all three would say 1/3 s, printed as 0 s).
  std::smatch eta;
  const std::string text = resumed.output;
  REQUIRE_MESSAGE(
      std::regex_search(text, eta, std::regex("explore external: 3/4 evaluations, [0-9]+ s elapsed, ETA ([0-9]+) s")),
      text);
  CHECK(std::stoi(eta[1]) >= 1);
  CHECK(count_lines(text, std::regex("explore external: 2/4 evaluations.*ETA.*")) == 0);  // no pace yet
}
