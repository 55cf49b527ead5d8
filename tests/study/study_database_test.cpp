#include <doctest/doctest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/study/storage_registry.hpp"
#include "dpareto/study/study_database.hpp"
#include "dpareto/study/study_runner.hpp"
#include "toy_study.hpp"

namespace fs = std::filesystem;
using namespace dpareto;
using namespace dpareto::study;

namespace {

const dpareto::test::TempRoot study_database_root("dpareto_study_test_");

StudyIdentity identity() {
  return {"toy",
          {{"repeats", "1"}},
          {{"parameters",
            {{{"name", "x"}, {"kind", "continuous"}, {"low", 0}, {"high", 1}, {"scale", "linear"}},
             {{"name", "y"}, {"kind", "continuous"}, {"low", 0}, {"high", 1}, {"scale", "linear"}}}}}};
}

RunInfo info() {
  RunInfo i;
  i.problem = "toy";
  i.method = "random";
  i.seed = 7;
  i.parameter_names = {"x", "y"};
  return i;
}

// A proposer whose ask k draws from a generator derived from (seed, k), like bo::Explorer.
class CountingProposer : public Proposer {
 public:
  explicit CountingProposer(std::uint64_t seed) : seed_(seed) {}
  std::optional<Proposal> ask(const std::vector<std::vector<double>>& pending) override {
    Rng rng(derive_seed(seed_, static_cast<std::uint64_t>(asks_++)));
    std::uniform_real_distribution<double> u(0, 1);
    Proposal p{{u(rng), u(rng)}, asks_ <= 2 ? "init" : "random"};
    for (const auto& q : pending) CHECK(q != p.params);
    return p;
  }
  void tell(const EvaluationRecord& record) override { told.push_back(record); }
  nlohmann::json state() const override { return {{"asks", asks_}}; }
  void restore_state(const nlohmann::json& state) override { asks_ = state.at("asks").get<int>(); }
  std::vector<EvaluationRecord> told;

 private:
  std::uint64_t seed_;
  int asks_ = 0;
};

EvaluationRecord toy_evaluation(const std::vector<double>& p, std::uint64_t seed) {
  EvaluationRecord r;
  r.status = p[0] < 0.1 ? EvaluationStatus::failed : EvaluationStatus::ok;
  r.epsilon = 10 * p[0];
  r.utility = p[1] * (0.9 + 0.1 * double(seed % 7) / 7);
  r.utility_min = r.utility_max = r.utility;
  r.message = r.ok() ? "" : "x too small";
  return r;
}

std::vector<EvaluationRecord> run_study(const std::string& path, int budget, int workers = 1, bool retry = true,
                                        int sleep_ms = 0) {
  auto db = StudyDatabase::exists(path) ? StudyDatabase::open(path, StudyDatabase::Access::read_write)
                                        : StudyDatabase::create(path, identity(), info(), {{"method", "random"}});
  CountingProposer proposer(7);
  Evaluator evaluate = [sleep_ms](const std::vector<double>& p, std::uint64_t seed, const GoOn&) {
    if (sleep_ms) std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
    return toy_evaluation(p, seed);
  };
  StudyRunner runner(db, proposer, evaluate, {budget, workers, 7, retry});
  std::vector<EvaluationRecord> seen;
  runner.run([&](std::span<const EvaluationRecord> rs) { seen.insert(seen.end(), rs.begin(), rs.end()); });
  return seen;
}

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void sql(const fs::path& path, const std::string& statement) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, statement.c_str(), nullptr, nullptr, &err);
  const std::string message = err ? err : "";
  sqlite3_free(err);
  INFO(statement << ": " << message);
  sqlite3_close(db);
  REQUIRE(rc == SQLITE_OK);
}

std::string integrity(const fs::path& path) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, nullptr);
  std::string result = sqlite3_step(st) == SQLITE_ROW ? reinterpret_cast<const char*>(sqlite3_column_text(st, 0)) : "";
  sqlite3_finalize(st);
  sqlite3_close(db);
  return result;
}

bool same(const EvaluationRecord& a, const EvaluationRecord& b) {
  return a.id == b.id && a.phase == b.phase && a.status == b.status && a.params == b.params && a.epsilon == b.epsilon &&
         a.utility == b.utility && a.seed == b.seed && a.message == b.message;
}

}  // namespace

TEST_CASE("a study written, closed, reopened and continued ends as an uninterrupted one") {
  const auto dir = study_database_root.dir("resume");
  const auto whole = run_study((dir / "whole.db").string(), 12);
  REQUIRE(whole.size() == 12);
  CHECK(run_study((dir / "parts.db").string(), 5).size() == 5);
  CHECK(run_study((dir / "parts.db").string(), 9).size() == 9);  // 5 replayed + 4 new
  const auto parts = run_study((dir / "parts.db").string(), 12);
  REQUIRE(parts.size() == 12);
  for (std::size_t i = 0; i < whole.size(); ++i) CHECK(same(whole[i], parts[i]));
  CHECK(std::count_if(whole.begin(), whole.end(), [](const auto& r) { return !r.ok(); }) >= 0);

  const auto db = StudyDatabase::open((dir / "parts.db").string(), StudyDatabase::Access::read_only);
  CHECK(db.trials().size() == 12);
  CHECK(db.run_info().seed == info().seed);
  CHECK(db.run_info().parameter_names == info().parameter_names);
  CHECK(db.config() == nlohmann::json{{"method", "random"}});
  CHECK(db.explorer_state() == nlohmann::json{{"asks", 12}});
  for (const auto& t : db.trials()) CHECK(t.finished_at >= t.started_at);
  CHECK(integrity(dir / "parts.db") == "ok");
}

TEST_CASE("evaluations left running are re-queued with their seed, or failed with --no-retry") {
  const auto dir = study_database_root.dir("running");
  const auto path = (dir / "s.db").string();
  run_study(path, 3);
  {
    auto db = StudyDatabase::open(path, StudyDatabase::Access::read_write);
    CountingProposer p(7);
    p.restore_state(db.explorer_state());
    const auto proposal = *p.ask({});
    db.begin_trial(proposal.phase, proposal.params, evaluation_seed(7, 4), p.state());  // then "crash"
  }
  const auto whole = run_study((dir / "whole.db").string(), 5);
  const auto copy = (dir / "copy.db").string();
  fs::copy_file(path, copy);
  const auto resumed = run_study(path, 5);
  for (std::size_t i = 0; i < 5; ++i) CHECK(same(whole[i], resumed[i]));

  const auto no_retry = run_study(copy, 5, 1, false);
  REQUIRE(no_retry.size() == 5);
  CHECK(no_retry[3].status == EvaluationStatus::failed);
  CHECK(no_retry[3].message.find("interrupted") != std::string::npos);
  CHECK(no_retry[3].params == whole[3].params);
}

TEST_CASE("parallel workers: proposals are distinct and every result is recorded") {
  const auto dir = study_database_root.dir("workers");
  const auto path = (dir / "s.db").string();
  const auto records = run_study(path, 9, 3, true, 20);
  REQUIRE(records.size() == 9);
  for (std::size_t i = 0; i < records.size(); ++i) {
    CHECK(records[i].id == static_cast<int>(i) + 1);
    for (std::size_t j = 0; j < i; ++j) CHECK(records[i].params != records[j].params);
  }
}

TEST_CASE("a study killed with SIGKILL mid-run keeps every completed evaluation") {
  const auto dir = study_database_root.dir("crash");
  const auto path = (dir / "s.db").string();
  run_study(path, 1);  // created by the parent, so the child only continues it
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    try {
      run_study(path, 1000, 2, true, 15);
    } catch (...) {
    }
    ::_exit(0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFSIGNALED(status));

  CHECK(integrity(path) == "ok");
  std::size_t completed_before = 0;
  std::vector<EvaluationRecord> before;
  {
    const auto db = StudyDatabase::open(path, StudyDatabase::Access::read_only);
    before = db.completed();
    completed_before = before.size();
    CHECK(completed_before > 5);
    CHECK(completed_before < 1000);
  }
  const auto after = run_study(path, static_cast<int>(completed_before) + 4);
  REQUIRE(after.size() == completed_before + 4);
  for (std::size_t i = 0; i < completed_before; ++i) CHECK(same(before[i], after[i]));
  CHECK(integrity(path) == "ok");
}

TEST_CASE("bad study files are refused with one line naming the file, and left untouched") {
  const auto dir = study_database_root.dir("bad");
  using Access = StudyDatabase::Access;
  auto expect_refused = [](const fs::path& path, const std::string& fragment) {
    const std::string before = file_bytes(path);
    try {
      StudyDatabase::open(path.string(), Access::read_write);
      FAIL("opened " << path);
    } catch (const InputError& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(what.find(path.string()) != std::string::npos);
      CHECK(what.find(fragment) != std::string::npos);
      CHECK(what.find('\n') == std::string::npos);
    }
    CHECK(file_bytes(path) == before);
    CHECK(!fs::exists(path.string() + "-wal"));
  };

  const auto text = dir / "notes.txt";
  std::ofstream(text) << "this is not a database\n";
  expect_refused(text, "not an SQLite database");

  const auto other = dir / "other.db";
  sql(other, "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
  expect_refused(other, "not a dpareto study");

  CHECK_THROWS_AS(StudyDatabase::open((dir / "missing.db").string(), Access::read_only), InputError);

  const auto corrupt = dir / "corrupt.db";
  run_study(corrupt.string(), 3);
  sql(corrupt, "PRAGMA journal_mode=DELETE; UPDATE evaluations SET params = '[0.5' WHERE trial = 1;");
  expect_refused(corrupt, "corrupt row (trial 1)");
  sql(corrupt, "UPDATE evaluations SET params = '[0.5, 0.5]', status = 'running' WHERE trial = 1;");
  expect_refused(corrupt, "does not match its completion number");
  // The schema's CHECK keeps unknown statuses out of a study dpareto wrote; a hostile file need not have it.
  sql(corrupt, "PRAGMA ignore_check_constraints = ON; UPDATE evaluations SET status = 'bogus' WHERE trial = 1;");
  expect_refused(corrupt, "corrupt row (trial 1): status 'bogus' is not ok, failed or running");
  sql(corrupt, "UPDATE evaluations SET status = 'ok', epsilon = 'abc' WHERE trial = 1;");
  expect_refused(corrupt, "not a number");
  sql(corrupt, "UPDATE evaluations SET epsilon = 1, unfinished_starts = -1 WHERE trial = 1;");
  expect_refused(corrupt, "corrupt row (trial 1): unfinished_starts '-1' is not a start count");
  // Fuzz findings (fuzz/study_rows.cpp): a cell's text reached the message raw, a carriage return or
  // newline in it splitting the line.
  sql(corrupt,
      "UPDATE evaluations SET unfinished_starts = 0, epsilon = 'r:1.24' || char(13) || 'r:0.0' WHERE trial = 1;");
  expect_refused(corrupt, "corrupt row (trial 1): column 6 holds 'r:1.24?r:0.0', not a number");
  sql(corrupt, "UPDATE evaluations SET epsilon = 1, params = '[0.5,' || char(10) || ' 0.5, 1]' WHERE trial = 1;");
  expect_refused(corrupt, "corrupt row (trial 1): params [0.5,? 0.5, 1] is not an array of 2 numbers");
  // A number beyond double's range: the JSON reader's overflow error is the row's, not an escape.
  sql(corrupt, "UPDATE evaluations SET params = '[0.5, 1e999]' WHERE trial = 1;");
  expect_refused(corrupt, "corrupt row (trial 1): params: not valid JSON");
  sql(corrupt, "UPDATE evaluations SET params = '[0.5, 0.5]', seed = '12' || char(10) WHERE trial = 1;");
  expect_refused(corrupt, "corrupt row (trial 1): seed '12?' is not a 64-bit unsigned integer");
  sql(corrupt,
      "UPDATE evaluations SET seed = '12' WHERE trial = 1;"
      "UPDATE study_meta SET value = 'dpareto' || char(13) || '-study' WHERE key = 'format';");
  expect_refused(corrupt, "not a dpareto study (format 'dpareto?-study')");
  sql(corrupt,
      "UPDATE study_meta SET value = 'dpareto-study' WHERE key = 'format';"
      "UPDATE study_meta SET value = '3' || char(10) WHERE key = 'version';");
  expect_refused(corrupt, "study format version 3? is not supported");

  const auto busy = dir / "busy.db";
  run_study(busy.string(), 2);
  {
    // Processes share a study (each proposes under the study's lock); nothing renames it under them.
    auto holder = StudyDatabase::open(busy.string(), Access::read_write);
    auto second = StudyDatabase::open(busy.string(), Access::read_write);
    CHECK(second.begin_trial("random", {0.25, 0.75}, 7, nullptr) == 2);
    holder.refresh();
    CHECK(holder.trials().size() == 3);
    CHECK(holder.abandoned_trials().empty());  // its process (this one) is alive
    CHECK_THROWS_WITH_AS(storage_backend(busy.string()).set_aside(busy.string()),
                         doctest::Contains("in use by another dpareto process"), InputError);
    CHECK(StudyDatabase::open(busy.string(), Access::read_only).trials().size() == 3);  // export still reads
  }
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open(busy.c_str(), &raw) == SQLITE_OK);
  REQUIRE(sqlite3_exec(raw, "PRAGMA journal_mode=DELETE; BEGIN EXCLUSIVE; UPDATE study_meta SET value = value;",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  CHECK_THROWS_WITH_AS(StudyDatabase::open(busy.string(), Access::read_only), doctest::Contains("locked"), InputError);
  sqlite3_exec(raw, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(raw);
}

TEST_CASE("a study opened with a different problem or space is refused") {
  const auto dir = study_database_root.dir("identity");
  const auto path = (dir / "s.db").string();
  run_study(path, 2);
  const auto db = StudyDatabase::open(path, StudyDatabase::Access::read_only);
  CHECK_NOTHROW(db.check_identity(identity()));
  auto other = identity();
  other.problem = "svt";
  CHECK_THROWS_WITH_AS(db.check_identity(other), doctest::Contains("created for problem 'toy', not 'svt'"), InputError);
  other = identity();
  other.space["parameters"][0]["high"] = 2;
  CHECK_THROWS_WITH_AS(db.check_identity(other), doctest::Contains("its parameter x is "), InputError);
  other = identity();
  other.settings["repeats"] = "5";
  CHECK_THROWS_WITH_AS(db.check_identity(other), doctest::Contains("its problem setting repeats is 1, not 5"),
                       InputError);
}

TEST_CASE("open_or_create_study: a resume must keep the configuration and the seed") {
  const auto dir = study_database_root.dir("reopen");
  const auto path = (dir / "s.db").string();
  const nlohmann::json config = {{"method", "random"}, {"initial_points", 8}};
  { auto created = open_or_create_study(path, identity(), info(), config, true); }
  CHECK(open_or_create_study(path, identity(), info(), config, true)->run_info().seed == info().seed);
  auto unseeded = info();
  unseeded.seed = 99;  // what a run without --seed would draw; the stored seed wins
  CHECK(open_or_create_study(path, identity(), unseeded, config, false)->run_info().seed == info().seed);
  CHECK_THROWS_WITH_AS(open_or_create_study(path, identity(), unseeded, config, true),
                       doctest::Contains("seeded with 7, not 99"), InputError);
  CHECK_THROWS_WITH_AS(
      open_or_create_study(path, identity(), info(), {{"method", "grid"}, {"initial_points", 8}}, true),
      doctest::Contains("it was run with method=\"random\", not \"grid\""), InputError);
}

TEST_CASE("a study of three objectives: a column for the third, written, reopened and read back") {
  const auto dir = study_database_root.dir("three");
  const auto path = (dir / "three.db").string();
  auto three = info();
  three.objectives = pareto::Objectives::with({"train_seconds"}, {10, 1, 100});
  {
    auto db = StudyDatabase::create(path, identity(), three, {{"method", "random"}});
    const int trial = db.begin_trial("init", {0.5, 0.5}, 3, nlohmann::json::object());
    auto r = toy_evaluation({0.5, 0.5}, 3);
    r.further["train_seconds"] = 42;
    db.finish_trial(trial, r, nlohmann::json::object());
  }
  const auto db = StudyDatabase::open(path, StudyDatabase::Access::read_only);
  CHECK(db.run_info().objectives.names() == three.objectives.names());
  CHECK(db.run_info().objectives.reference() == pareto::Point{10, 1, 100});
  REQUIRE(db.trials().size() == 1);
  CHECK(db.trials()[0].record.column("train_seconds") == 42);
  CHECK(db.trials()[0].record.epsilon == 5);
  CHECK(integrity(dir / "three.db") == "ok");
}

TEST_CASE("a study of a declared objective named like an SQL keyword keeps its column and its transform") {
  const auto dir = study_database_root.dir("declared");
  const auto path = (dir / "declared.db").string();
  auto declared = info();
  declared.objectives = pareto::Objectives::with_further(
      {pareto::declared_objective("order", pareto::Transform::logit, 0.5, "t")}, {10, 1, 0.5});
  {
    auto db = StudyDatabase::create(path, identity(), declared, {{"method", "random"}});
    const int trial = db.begin_trial("init", {0.5, 0.5}, 3, nlohmann::json::object());
    auto r = toy_evaluation({0.5, 0.5}, 3);
    r.further["order"] = 0.25;
    db.finish_trial(trial, r, nlohmann::json::object());
  }
  const auto db = StudyDatabase::open(path, StudyDatabase::Access::read_only);
  CHECK(db.run_info().objectives.names() == declared.objectives.names());
  CHECK(db.run_info().objectives[2].surrogate == pareto::Transform::logit);
  REQUIRE(db.trials().size() == 1);
  CHECK(db.trials()[0].record.column("order") == 0.25);
  CHECK(integrity(dir / "declared.db") == "ok");
}

TEST_CASE("a study of format version 1 is refused until `study upgrade` migrates it; newer versions are refused") {
  const auto dir = study_database_root.dir("upgrade");
  const auto path = dir / "old.db";
  run_study(path.string(), 2);
  {
    auto db = StudyDatabase::open(path.string(), StudyDatabase::Access::read_write);
    db.begin_trial("random", {0.5, 0.5}, 99, nullptr);
    db.release_trial(2);  // as if its process had stopped: running, free to take
  }
  // Version 1 had no worker and unfinished_starts columns, and kept the start counts in study_meta.
  sql(path,
      "PRAGMA journal_mode=DELETE; ALTER TABLE evaluations DROP COLUMN worker;"
      "ALTER TABLE evaluations DROP COLUMN unfinished_starts; UPDATE study_meta SET value = '1' WHERE key = 'version';"
      "INSERT INTO study_meta VALUES ('unfinished_starts', '{\"2\": 1}');");
  const std::string expected =
      "study format version 1 was written by an older dpareto (this one writes version 2); "
      "migrate it with: dpareto study upgrade " +
      path.string();
  CHECK_THROWS_WITH_AS(StudyDatabase::open(path.string(), StudyDatabase::Access::read_only),
                       doctest::Contains(expected.c_str()), InputError);
  const auto bad = dir / "bad.db";
  fs::copy_file(path, bad);
  sql(bad, "UPDATE study_meta SET value = '{\"0\": 1}' WHERE key = 'unfinished_starts';");  // trial 0 is not running
  const std::string before = file_bytes(bad);
  CHECK_THROWS_WITH_AS(StudyDatabase::upgrade(bad.string()), doctest::Contains("not a start count of a running trial"),
                       InputError);
  CHECK(file_bytes(bad) == before);  // rolled back

  CHECK(StudyDatabase::upgrade(path.string()) == 1);
  CHECK(StudyDatabase::upgrade(path.string()) == 2);  // nothing more to do
  auto db = StudyDatabase::open(path.string(), StudyDatabase::Access::read_write);
  REQUIRE(db.trials().size() == 3);
  CHECK(db.trials()[2].unfinished_starts == 1);
  CHECK(db.trials()[2].record.seed == 99);
  CHECK(db.abandoned_trials() == std::vector<int>{2});
  CHECK(db.completed().size() == 2);

  sql(bad, "UPDATE study_meta SET value = '3' WHERE key = 'version';");
  CHECK_THROWS_WITH_AS(StudyDatabase::open(bad.string(), StudyDatabase::Access::read_only),
                       doctest::Contains("study format version 3 is not supported (this dpareto reads version 2)"),
                       InputError);
}

TEST_CASE("an evaluation and its intermediate results are one transaction: stored together, numbered in a row, or not at all") {
  const auto path = (study_database_root.dir("intermediate") / "s.db").string();
  {
    auto db = StudyDatabase::create(path, identity(), info(), {{"method", "random"}});
    const int first = db.begin_trial("random", {0.05, 0.5}, 21, {{"asks", 1}});
    const int second = db.begin_trial("random", {0.7, 0.2}, 22, {{"asks", 2}});
    // The later trial completes first, with three earlier epochs of its training.
    const auto measured = dpareto::test::with_earlier_results(toy_evaluation({0.7, 0.2}, 22),
                                                              {{0.1, 0.2}, {0.3, 0.2}, {0.5, 0.2}});
    CHECK(db.finish_trial(second, measured, nullptr).id == 1);
    // A failed evaluation's results are not stored.
    const auto failed = dpareto::test::with_earlier_results(toy_evaluation({0.05, 0.5}, 21), {{0.01, 0.5}});
    REQUIRE_FALSE(failed.ok());
    CHECK(db.finish_trial(first, failed, nullptr).id == 5);
    const auto records = db.completed();
    REQUIRE(records.size() == 5);
    for (int k = 1; k <= 3; ++k) {
      const auto& r = records[static_cast<std::size_t>(k)];
      CHECK(r.id == 1 + k);
      CHECK(r.is_intermediate());
      CHECK(r.ok());
      CHECK(r.seed == 22);
      CHECK(r.params == measured.intermediate[static_cast<std::size_t>(k - 1)].params);
      CHECK(r.epsilon == doctest::Approx(7.0 * k / 4));
      CHECK(r.message == "measured during evaluation 1");
      CHECK(db.trials().at(static_cast<std::size_t>(1 + k)).record.id == r.id);  // trials 2, 3, 4
    }
    CHECK(records[4].status == EvaluationStatus::failed);
    const auto groups = grouped_by_evaluation(records);
    REQUIRE(groups.size() == 2);
    CHECK(groups[0].size() == 4);
    CHECK(groups[1].size() == 1);
    // A write that fails half way (a trigger refuses the third result) records nothing of it: the
    // evaluation stays running for a resume, as after a crash.
    const int third = db.begin_trial("random", {0.9, 0.9}, 23, {{"asks", 3}});
    sql(path,
        "CREATE TRIGGER refuse_third AFTER INSERT ON evaluations WHEN NEW.trial = 8 "
        "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
    CHECK_THROWS_WITH_AS(db.finish_trial(third, dpareto::test::with_earlier_results(
                                                    toy_evaluation({0.9, 0.9}, 23), {{0.1, 0.9}, {0.2, 0.9}, {0.3, 0.9}}),
                                         nullptr),
                         doctest::Contains("refused by the test"), Error);
  }
  auto reopened = StudyDatabase::open(path, StudyDatabase::Access::read_only);
  CHECK(reopened.completed().size() == 5);
  CHECK(reopened.trials().size() == 6);
  CHECK(reopened.trials().back().record.status == EvaluationStatus::running);
}

TEST_CASE("runner: an evaluation gets the proposer's GoOn and a stopped one is stored as the setting it measured") {
  // A proposer that hands out a GoOn (a DPareto explorer with --early-stop), and an evaluator that
  // "stops" a setting with x > 0.5 at x − 0.25 (a training stopped at fewer epochs), with one result
  // measured on the way.
  class StoppingProposer : public CountingProposer {
   public:
    using CountingProposer::CountingProposer;
    GoOn go_on() const override {
      return [](int count, int, double, double) { return count < 2; };
    }
  };
  const std::string path = (study_database_root.dir("stopped") / "s.db").string();
  std::vector<std::vector<double>> proposed;
  {
    auto db = StudyDatabase::create(path, identity(), info(), {{"method", "random"}});
    StoppingProposer proposer(7);
    const Evaluator evaluate = [&](const std::vector<double>& p, std::uint64_t seed, const GoOn& go_on) {
      REQUIRE(go_on);
      CHECK(go_on(1, 4, 0.5, 1));
      CHECK_FALSE(go_on(2, 4, 0.5, 1));
      proposed.push_back(p);
      EvaluationRecord r = toy_evaluation(p, seed);
      if (p[0] > 0.5) {
        r.params = {p[0] - 0.25, p[1]};
        r.epsilon = 10 * r.params[0];
        r = dpareto::test::with_earlier_results(r, {{p[0] - 0.3, p[1]}});
      }
      return r;
    };
    StudyRunner runner(db, proposer, evaluate, {8, 1, 7, true});
    std::vector<EvaluationRecord> seen;
    runner.run([&](std::span<const EvaluationRecord> rs) { seen.insert(seen.end(), rs.begin(), rs.end()); });
    // The proposer is told the setting measured.
    std::size_t k = 0;
    for (const auto& r : proposer.told) {
      if (r.is_intermediate()) continue;
      const auto& p = proposed.at(k++);
      CHECK(r.params == (p[0] > 0.5 && r.ok() ? std::vector<double>{p[0] - 0.25, p[1]} : p));
    }
    CHECK(k == 8);
  }
  const auto reopened = StudyDatabase::open(path, StudyDatabase::Access::read_only);
  int stopped = 0;
  std::size_t k = 0;
  for (const auto& t : reopened.trials()) {
    if (t.record.is_intermediate()) continue;
    const auto& p = proposed.at(k++);
    if (p[0] > 0.5 && t.record.ok()) {
      ++stopped;
      CHECK(t.record.params == std::vector<double>{p[0] - 0.25, p[1]});
      CHECK(t.record.epsilon == doctest::Approx(10 * (p[0] - 0.25)));
    } else {
      CHECK(t.record.params == p);
    }
  }
  CHECK(stopped >= 2);
}
