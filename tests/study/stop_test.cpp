// Issue 23 items 2 and 7: SIGTERM / SIGHUP / SIGINT stop `explore` cleanly (no new proposals, the
// oracle's whole process group killed, the study consistent and resumable, how to resume printed,
// exit 128 + signal); a run whose first evaluations all fail the same way stops and fails.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "../support/test_support.hpp"
#include "dpareto/study/study_database.hpp"

namespace fs = std::filesystem;
using dpareto::test::read_text;

namespace {

const dpareto::test::TempRoot stop_root("dpareto_stop_test_");

int wait_status(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool alive(pid_t pid) {
  return ::kill(pid, 0) == 0;
}

// An oracle that records its pid and a background child's, then sleeps: it never finishes alone.
void write_oracle(const fs::path& dir) {
  std::ofstream(dir / "space.json") << R"({"parameters": [{"name": "x", "kind": "continuous", "low": 0, "high": 1}]})";
  std::ofstream(dir / "slow.sh") << "#!/bin/sh\necho $$ > oracle.pid\nsleep 300 &\necho $! > child.pid\nwait\n";
  fs::permissions(dir / "slow.sh", fs::perms::owner_all);
}

// Waits until the oracle of a run in `dir` has started its background child; returns (oracle, child).
std::pair<pid_t, pid_t> wait_for_oracle(const fs::path& dir) {
  for (int i = 0; i < 400 && !fs::exists(dir / "child.pid"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  REQUIRE(fs::exists(dir / "child.pid"));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  return {std::stoi(read_text(dir / "oracle.pid")), std::stoi(read_text(dir / "child.pid"))};
}

// True once neither process is alive (waits up to 5 s).
bool both_gone(pid_t a, pid_t b) {
  for (int i = 0; i < 250 && (alive(a) || alive(b)); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  return !alive(a) && !alive(b);
}

}  // namespace

TEST_CASE("SIGTERM, SIGHUP and SIGINT stop explore cleanly and the study resumes") {
  for (int signal : {SIGTERM, SIGHUP, SIGINT}) {
    CAPTURE(signal);
    const auto dir = stop_root.dir("signal" + std::to_string(signal));
    write_oracle(dir);
    const pid_t pid = dpareto::test::spawn_cli(
        dir, {"explore", "--space", "space.json", "--oracle-cmd", (dir / "slow.sh").string(), "--budget", "4", "--init",
              "2", "--seed", "1", "--study", "s.db", "--out", "out"});
    const auto [oracle, child] = wait_for_oracle(dir);
    ::kill(pid, signal);
    CHECK(wait_status(pid) == 128 + signal);
    const std::string err = read_text(dir / "stderr.txt");
    INFO(err);
    CHECK(err.find("interrupted by SIG") != std::string::npos);
    CHECK(err.find("resume with the same command") != std::string::npos);
    // The oracle and the child it started in the background are gone.
    CHECK(both_gone(oracle, child));
    // The interrupted evaluation is still `running` in the study (not recorded as a failure), so a
    // resume evaluates it again.
    const auto db =
        dpareto::study::StudyDatabase::open((dir / "s.db").string(), dpareto::study::StudyDatabase::Access::read_only);
    CHECK(db.completed().empty());
    REQUIRE(db.trials().size() == 1);
    CHECK(db.trials().front().record.status == dpareto::study::EvaluationStatus::running);
  }
}

TEST_CASE("explore stops when its first evaluations all fail the same way, and never reports success then") {
  const auto dir = stop_root.dir("allfail");
  std::ofstream(dir / "space.json") << R"({"parameters": [{"name": "x", "kind": "continuous", "low": 0, "high": 1}]})";
  const std::vector<std::string> base{
      "explore", "--space", "space.json", "--oracle-cmd", "no-such-oracle-program {x}", "--budget", "12", "--init", "4",
      "--seed",  "1",       "--out",      "out"};
  CHECK(wait_status(dpareto::test::spawn_cli(dir, base)) == 1);
  std::string err = read_text(dir / "stderr.txt");
  CHECK(err.find("the first 3 evaluations all failed: cannot run 'no-such-oracle-program'") != std::string::npos);
  const std::string csv = read_text(dir / "out" / "evaluations.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 4);  // header + 3 rows
  auto keep = base;
  keep.push_back("--keep-going");
  CHECK(wait_status(dpareto::test::spawn_cli(dir, keep)) == 1);
  err = read_text(dir / "stderr.txt");
  CHECK(err.find("no evaluation succeeded (12 failed") != std::string::npos);
}

TEST_CASE("when dpareto is killed with SIGKILL, the oracle and the children it left in the background die too") {
  const auto dir = stop_root.dir("sigkill");
  write_oracle(dir);
  const pid_t pid =
      dpareto::test::spawn_cli(dir, {"explore", "--space", "space.json", "--oracle-cmd", (dir / "slow.sh").string(),
                                     "--budget", "4", "--init", "2", "--seed", "1", "--study", "s.db", "--out", "out"});
  const auto [oracle, child] = wait_for_oracle(dir);
  ::kill(pid, SIGKILL);
  CHECK(wait_status(pid) == -1);
  CHECK(both_gone(oracle, child));
}

TEST_CASE("an evaluation that was running when dpareto died twice is recorded as failed; a clean stop does not count") {
  const auto dir = stop_root.dir("crashtwice");
  write_oracle(dir);
  // slow.sh hangs while `hang` exists, and otherwise answers at once.
  std::ofstream(dir / "slow.sh")
      << "#!/bin/sh\nif [ -e hang ]; then echo $$ > oracle.pid; sleep 300 & echo $! > child.pid; "
         "wait; fi\necho '{\"epsilon\": 1, \"utility\": 0.5}'\n";
  std::ofstream(dir / "hang");
  const std::vector<std::string> args{"explore",
                                      "--space",
                                      "space.json",
                                      "--oracle-cmd",
                                      (dir / "slow.sh").string() + " {x}",
                                      "--budget",
                                      "3",
                                      "--init",
                                      "3",
                                      "--seed",
                                      "1",
                                      "--study",
                                      "s.db",
                                      "--out",
                                      "out"};
  const auto stop = [&](int signal) {
    fs::remove(dir / "child.pid");
    const pid_t pid = dpareto::test::spawn_cli(dir, args);
    const auto [oracle, child] = wait_for_oracle(dir);
    ::kill(pid, signal);
    wait_status(pid);
    CHECK(both_gone(oracle, child));
  };
  const auto starts = [&] {
    const auto db =
        dpareto::study::StudyDatabase::open((dir / "s.db").string(), dpareto::study::StudyDatabase::Access::read_only);
    REQUIRE(db.trials().size() == 1);
    CHECK(db.trials()[0].record.status == dpareto::study::EvaluationStatus::running);
    return db.trials()[0].unfinished_starts;
  };
  stop(SIGKILL);
  CHECK(starts() == 1);
  stop(SIGTERM);  // the resumed evaluation stopped on request: not a crash
  CHECK(starts() == 1);
  stop(SIGKILL);
  CHECK(starts() == 2);
  fs::remove(dir / "hang");
  CHECK(wait_status(dpareto::test::spawn_cli(dir, args)) == 0);
  const auto db =
      dpareto::study::StudyDatabase::open((dir / "s.db").string(), dpareto::study::StudyDatabase::Access::read_only);
  REQUIRE(db.completed().size() == 3);
  CHECK(db.trials()[0].record.status == dpareto::study::EvaluationStatus::failed);
  CHECK(db.trials()[0].record.message.find("ended abnormally (crashed or was killed) 2 times") != std::string::npos);
  CHECK(db.trials()[1].record.status == dpareto::study::EvaluationStatus::ok);
  CHECK(read_text(dir / "out" / "evaluations.csv").find("ended abnormally") != std::string::npos);
}

TEST_CASE("two runs never write the same run directory at once") {
  const auto dir = stop_root.dir("outlock");
  write_oracle(dir);
  const std::vector<std::string> args{
      "explore", "--space", "space.json", "--oracle-cmd", (dir / "slow.sh").string(), "--budget", "4", "--init", "2",
      "--seed",  "1",       "--out",      "out"};
  const pid_t first = dpareto::test::spawn_cli(dir, args);
  const auto [oracle, child] = wait_for_oracle(dir);
  const auto second_dir = stop_root.dir("outlock-second");
  auto second_args = args;
  second_args.back() = (dir / "out").string();
  second_args[2] = (dir / "space.json").string();
  CHECK(wait_status(dpareto::test::spawn_cli(second_dir, second_args)) == 2);
  const std::string err = read_text(second_dir / "stderr.txt");
  CHECK(err ==
        "dpareto explore: error: --out " + (dir / "out").string() + ": in use by another dpareto process (locked)\n");
  ::kill(first, SIGTERM);
  CHECK(wait_status(first) == 128 + SIGTERM);
  CHECK(both_gone(oracle, child));
}
