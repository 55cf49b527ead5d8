// `dpareto explore --study / --oracle-cmd / --workers` and `dpareto export` through the built CLI.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "../support/test_support.hpp"
#include "dpareto/study/study_database.hpp"

namespace fs = std::filesystem;
using namespace dpareto::study;

namespace {

const fs::path source = DPARETO_SOURCE_DIR;

const dpareto::test::TempRoot cli_root("dpareto_cli_test_");

using dpareto::test::read_text;

struct Result {
  int status;
  std::string err;
};

Result run(const fs::path& dir, const std::vector<std::string>& args) {
  int status = 0;
  ::waitpid(dpareto::test::spawn_cli(dir, args), &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(dir / "stderr.txt")};
}

std::vector<std::string> oracle_run(const std::string& study, int budget, double sleep,
                                    const std::string& workers = "1") {
  return {"explore",
          "--space",
          (source / "experiments/example_oracle_space.json").string(),
          "--oracle-cmd",
          "python3 " + (source / "experiments/example_oracle.py").string() + " --sleep " + std::to_string(sleep) +
              " --lr {lr} --epochs {epochs} --noise {noise} --seed {seed}",
          "--budget",
          std::to_string(budget),
          "--init",
          "4",
          "--seed",
          "3",
          "--workers",
          workers,
          "--study",
          study,
          "--out",
          "out",
          "--candidates",
          "200"};
}

void check_one_line_error(const Result& r, const std::string& fragment) {
  INFO(r.err);
  CHECK(r.status != 0);
  CHECK(r.err.find(fragment) != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

}  // namespace

TEST_CASE("CLI: --workers 3 keeps three distinct evaluations running; export regenerates the run directory") {
  const auto dir = cli_root.dir("workers");
  const auto r = run(dir, {"explore", "--problem", "svt", "--budget", "12", "--init", "3", "--workers", "3", "--seed",
                           "1", "--study", "svt.db", "--out", "out"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto db = StudyDatabase::open((dir / "svt.db").string(), StudyDatabase::Access::read_only);
  REQUIRE(db.completed().size() == 12);
  std::set<std::vector<double>> distinct;
  for (const auto& t : db.trials()) distinct.insert(t.record.params);
  CHECK(distinct.size() == 12);

  REQUIRE(run(dir, {"export", "svt.db", "--out", "exported"}).status == 0);
  for (const char* file : {"evaluations.csv", "front.csv", "summary.json"})
    CHECK(read_text(dir / "exported" / file) == read_text(dir / "out" / file));
}

TEST_CASE("CLI: an external-oracle study killed with SIGKILL resumes with its completed evaluations intact") {
  const auto dir = cli_root.dir("kill");
  const pid_t pid = dpareto::test::spawn_cli(dir, oracle_run("s.db", 12, 0.15, "2"));
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  std::vector<EvaluationRecord> before;
  {
    const auto db = StudyDatabase::open((dir / "s.db").string(), StudyDatabase::Access::read_only);
    before = db.completed();
  }
  CHECK(before.size() < 12);
  const auto r = run(dir, oracle_run("s.db", 12, 0.15, "2"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto after = StudyDatabase::open((dir / "s.db").string(), StudyDatabase::Access::read_only).completed();
  REQUIRE(after.size() == 12);
  for (std::size_t i = 0; i < before.size(); ++i) {
    CHECK(after[i].params == before[i].params);
    CHECK(after[i].utility == before[i].utility);
    CHECK(after[i].seed == before[i].seed);
  }
  // Extending the finished study.
  REQUIRE(run(dir, oracle_run("s.db", 14, 0.15)).status == 0);  // same command: same problem
  CHECK(StudyDatabase::open((dir / "s.db").string(), StudyDatabase::Access::read_only).completed().size() == 14);
}

TEST_CASE("CLI: bad input is one line naming the file and the problem, exit non-zero, database untouched") {
  const auto dir = cli_root.dir("bad");
  std::ofstream(dir / "notes.txt") << "not a database\n";
  check_one_line_error(run(dir, {"explore", "--problem", "svt", "--study", "notes.txt"}),
                       "notes.txt: not an SQLite database");
  CHECK(read_text(dir / "notes.txt") == "not a database\n");
  check_one_line_error(run(dir, {"export", "notes.txt", "--out", "x"}), "notes.txt: not an SQLite database");

  std::ofstream(dir / "kind.json") << R"({"parameters": [{"name": "lr", "kind": "real", "low": 0, "high": 1}]})";
  check_one_line_error(run(dir, {"explore", "--space", "kind.json", "--oracle-cmd", "true {lr}"}),
                       "kind.json: parameter 1 ('lr'): unknown kind");
  std::ofstream(dir / "inverted.json")
      << R"({"parameters": [{"name": "lr", "kind": "continuous", "low": 1, "high": 0}]})";
  check_one_line_error(run(dir, {"explore", "--space", "inverted.json", "--oracle-cmd", "true {lr}"}),
                       "inverted.json: space: parameter 'lr' has empty or inverted bounds");
  std::ofstream(dir / "ok.json") << R"({"parameters": [{"name": "lr", "kind": "continuous", "low": 0, "high": 1}]})";
  check_one_line_error(run(dir, {"explore", "--space", "ok.json", "--oracle-cmd", "true {lr} {momentum}"}),
                       "--oracle-cmd: placeholder {momentum} names no parameter");

  REQUIRE(run(dir, {"explore", "--problem", "svt", "--budget", "3", "--init", "2", "--seed", "1", "--study", "svt.db",
                    "--out", "o"})
              .status == 0);
  const std::string before = read_text(dir / "svt.db");
  check_one_line_error(run(dir, {"explore", "--space", "ok.json", "--oracle-cmd", "true {lr}", "--study", "svt.db"}),
                       "svt.db: refusing to continue: it was created for problem 'svt', not 'external'");
  check_one_line_error(run(dir, {"explore", "--problem", "svt", "--budget", "3", "--init", "2", "--seed", "2",
                                 "--study", "svt.db", "--out", "o"}),
                       "seeded with 1, not 2");
  CHECK(read_text(dir / "svt.db") == before);
}

TEST_CASE("CLI: export only reads: a study in a directory the user cannot write exports") {
  const auto dir = cli_root.dir("readonly");
  const auto studies = dir / "studies";
  fs::create_directories(studies);
  REQUIRE(run(dir, {"explore", "--problem", "svt", "--budget", "3", "--init", "2", "--seed", "1", "--study",
                    (studies / "svt.db").string(), "--out", "out"})
              .status == 0);
  const std::string before = read_text(studies / "svt.db");
  fs::permissions(studies, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                               fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  fs::permissions(dir, fs::perms::all);  // the export's --out is writable by everyone
  // root writes anywhere: run the export as `nobody` then (setpriv, util-linux).
  std::vector<std::string> args{"export", (studies / "svt.db").string(), "--out", (dir / "exported").string()};
  int status = 0;
  if (::geteuid() == 0) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1);
      std::vector<std::string> full{"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", DPARETO_CLI};
      full.insert(full.end(), args.begin(), args.end());
      std::vector<char*> argv;
      for (auto& a : full) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execvp("setpriv", argv.data());
      ::_exit(127);
    }
    ::waitpid(pid, &status, 0);
    status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  } else {
    status = run(dir, args).status;
  }
  CHECK(status == 0);
  CHECK(read_text(dir / "exported" / "evaluations.csv") == read_text(dir / "out" / "evaluations.csv"));
  CHECK(read_text(studies / "svt.db") == before);
  CHECK(!fs::exists(studies / "svt.db-shm"));
  fs::permissions(studies, fs::perms::owner_all, fs::perm_options::add);
}

TEST_CASE("CLI: a study in which every evaluation failed can be started afresh with corrected settings") {
  const auto dir = cli_root.dir("restart");
  std::ofstream(dir / "space.json") << R"({"parameters": [{"name": "x", "kind": "continuous", "low": 0, "high": 1}]})";
  std::ofstream(dir / "oracle.sh") << "#!/bin/sh\necho '{\"epsilon\": 1, \"utility\": 0.5}'\n";
  fs::permissions(dir / "oracle.sh", fs::perms::owner_all);
  auto args = [&](const std::string& command) {
    return std::vector<std::string>{"explore", "--space", "space.json", "--oracle-cmd", command, "--budget",
                                    "4",       "--init",  "4",          "--seed",       "1",     "--study",
                                    "s.db",    "--out",   "out"};
  };
  REQUIRE(run(dir, args("./oracel.sh {x}")).status == 1);  // a typo: every evaluation fails
  const auto refused = run(dir, args("./oracle.sh {x}"));
  check_one_line_error(refused, "all 3 of its evaluations failed: add --restart-failed-study to set it aside");
  auto restart = args("./oracle.sh {x}");
  restart.push_back("--restart-failed-study");
  const auto r = run(dir, restart);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("kept as s.db.failed-1") != std::string::npos);
  CHECK(StudyDatabase::open((dir / "s.db").string(), StudyDatabase::Access::read_only).completed().size() == 4);
  const auto kept = StudyDatabase::open((dir / "s.db.failed-1").string(), StudyDatabase::Access::read_only);
  CHECK(kept.completed().size() == 3);
  CHECK(kept.identity().settings.dump().find("oracel.sh") != std::string::npos);
  // A study with a success is never set aside.
  check_one_line_error(run(dir, restart), "refusing to start it afresh: it holds evaluations that succeeded");
}

TEST_CASE("CLI: a corrupt explorer state in a study is an error naming the study") {
  const auto dir = cli_root.dir("corruptstate");
  REQUIRE(run(dir, {"explore", "--problem", "svt", "--budget", "3", "--init", "2", "--seed", "1", "--study", "s.db",
                    "--out", "out"})
              .status == 0);
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((dir / "s.db").c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db,
                       "UPDATE study_meta SET value = '{\"asks\": 3, \"bo_asks\": 1, \"epsilon_theta\": [1, 2], "
                       "\"utility_theta\": []}' WHERE key = 'explorer_state'",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  const auto r = run(dir, {"explore", "--problem", "svt", "--budget", "5", "--init", "2", "--seed", "1", "--study",
                           "s.db", "--out", "out"});
  CHECK(r.status == 2);
  CHECK(r.err.find("\ndpareto explore: error: study s.db: corrupt explorer state (explorer state: epsilon_theta has 2 "
                   "entries, this space needs 4 (or 8 with input warping))\n") != std::string::npos);
}

TEST_CASE("CLI: processes on one host share an SQLite study: explore and two workers, every trial once") {
  const auto dir = cli_root.dir("shared");
  const std::string study = (dir / "s.db").string();
  REQUIRE(run(dir, oracle_run(study, 4, 0.1)).status == 0);
  // explore raises the budget to 24 (and evaluates); two workers join it.
  const pid_t explore = dpareto::test::spawn_cli(dir, oracle_run(study, 24, 0.1));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // it records the budget of 24 first
  std::vector<pid_t> workers;
  for (int w = 0; w < 2; ++w) {
    const auto wdir = cli_root.dir("shared-worker" + std::to_string(w));
    workers.push_back(dpareto::test::spawn_cli(wdir, {"worker", study, "--quiet", "--trust-study-command"}));
  }
  int status = 0;
  REQUIRE(::waitpid(explore, &status, 0) == explore);
  CHECK(WEXITSTATUS(status) == 0);
  for (const pid_t w : workers) {
    REQUIRE(::waitpid(w, &status, 0) == w);
    CHECK(WEXITSTATUS(status) == 0);
  }
  const auto db = StudyDatabase::open(study, StudyDatabase::Access::read_only);
  REQUIRE(db.trials().size() == 24);
  std::set<std::vector<double>> settings;
  for (const auto& t : db.trials()) {
    CHECK(t.record.status == EvaluationStatus::ok);
    settings.insert(t.record.params);
  }
  CHECK(settings.size() == 24);  // every process saw the others' running trials as pending
  const auto completed = db.completed();
  for (std::size_t i = 0; i < completed.size(); ++i) CHECK(completed[i].id == static_cast<int>(i) + 1);
}

TEST_CASE("CLI: a study's recorded oracle command runs only with --trust-study-command") {
  const auto dir = cli_root.dir("trust");
  const std::string study = (dir / "s.db").string();
  // A study made elsewhere whose command would create MARK.
  const std::string mark = (dir / "MARK").string();
  std::ofstream(dir / "space.json") << R"({"parameters": [{"name": "x", "kind": "continuous", "low": 0, "high": 1}]})";
  const std::string command = "sh -c 'touch " + mark + R"(; echo {\"epsilon\": 1, \"utility\": 0.5}' {x})";
  REQUIRE(run(dir, {"explore", "--space", "space.json", "--oracle-cmd", command, "--budget", "2", "--init", "2",
                    "--seed", "1", "--study", study, "--out", "first"})
              .status == 0);
  fs::remove(mark);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"explore", "--study", study, "--budget", "4", "--out", "second"}, {"worker", study, "--quiet"}}) {
    INFO(args[0]);
    const auto refused = run(dir, args);
    CHECK(refused.status == 2);
    CHECK(refused.err.find("would run the oracle command recorded in it, 'sh -c 'touch " + mark) != std::string::npos);
    CHECK(refused.err.find("pass --trust-study-command") != std::string::npos);
    CHECK_FALSE(fs::exists(mark));
  }
  CHECK(StudyDatabase::open(study, StudyDatabase::Access::read_only).trials().size() == 2);
  REQUIRE(run(dir, {"explore", "--study", study, "--budget", "4", "--out", "second", "--trust-study-command"}).status ==
          0);
  CHECK(fs::exists(mark));
  CHECK(StudyDatabase::open(study, StudyDatabase::Access::read_only).trials().size() == 4);
}
