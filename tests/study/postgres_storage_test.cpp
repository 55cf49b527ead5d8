// The PostgreSQL study back-end against a real server: scripts/test starts a throwaway one
// (scripts/pg-test-cluster) and passes its URIs in DPARETO_TEST_PG*. Every test uses study names
// of its own, so suites may run at once against one database.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/study/postgres_storage.hpp"
#include "dpareto/study/storage_registry.hpp"
#include "dpareto/study/study_runner.hpp"
#include "toy_study.hpp"

using namespace dpareto;
namespace fs = std::filesystem;
using namespace dpareto::study;
using dpareto::test::CliRun;
using dpareto::test::one_parameter;
using dpareto::test::read_text;
using dpareto::test::run_cli;
using dpareto::test::spawn_cli;
using dpareto::test::TempRoot;
using dpareto::test::without_timings;

namespace {

std::string server() {
  const char* uri = std::getenv("DPARETO_TEST_PG");
  if (!uri || !*uri)
    FAIL(
        "DPARETO_TEST_PG is not set: run the suite through scripts/test, or eval \"$(scripts/pg-test-cluster start)\"");
  return uri;
}

// A study name no other test (or earlier run) uses.
std::string fresh_name(const std::string& prefix) {
  return prefix + "-" + std::to_string(::getpid()) + "-" + std::to_string(os_random_u64() % 1000000000);
}

StorageOptions named(const std::string& name, double heartbeat = 30, double grace = 0) {
  StorageOptions o;
  o.study_name = name;
  o.heartbeat_seconds = heartbeat;
  o.grace_seconds = grace;
  o.reconnect_seconds = 5;
  o.spool_directory = (std::filesystem::temp_directory_path() / ("dpareto-spool-test-" + name)).string();
  return o;
}

StudyIdentity toy() {
  return dpareto::test::identity_of("toy");
}

EvaluationRecord measured(double epsilon, double utility) {
  EvaluationRecord r;
  r.status = EvaluationStatus::ok;
  r.epsilon = epsilon;
  r.utility = utility;
  r.seconds = 0.5;
  return r;
}

// Runs SQL as the test server's superuser.
void superuser_sql(const std::string& sql) {
  REQUIRE(std::system(("psql -q -v ON_ERROR_STOP=1 '" + server() + "' -c \"" + sql + "\" >/dev/null 2>&1").c_str()) ==
          0);
}

// A fresh PostgreSQL schema (owned by `owner`), so that a test's tables are its own.
std::string fresh_schema(const std::string& owner) {
  const std::string schema = "s" + std::to_string(::getpid()) + "_" + std::to_string(os_random_u64() % 1000000);
  superuser_sql("CREATE SCHEMA " + schema + " AUTHORIZATION " + owner);
  return schema;
}

std::string in_schema(const std::string& uri, const std::string& schema) {
  return uri + "?options=-csearch_path%3D" + schema;
}

}  // namespace

TEST_CASE(
    "postgres: every epoch as an observation, as on SQLite; with two workers each result follows its evaluation") {
  const std::string uri = server();
  TempRoot root("dpareto-pg-epochs-");
  const auto dir = root.dir("runs");
  const std::string name = fresh_name("epochs");
  const std::string common =
      "explore --problem synthetic-logreg-sgd --set observe=every-epoch --set repeats=1 --set max_epochs=6 "
      "--set train_subset=400 --seed 5 --init 4 --budget 7 ";
  const CliRun sqlite = run_cli(common + "--study " + (dir / "s.db").string() + " --out " + (dir / "sqlite").string());
  REQUIRE_MESSAGE(sqlite.status == 0, sqlite.output);
  const CliRun pg = run_cli(common + "--study " + uri + " --study-name " + name + " --out " + (dir / "pg").string());
  REQUIRE_MESSAGE(pg.status == 0, pg.output);
  CHECK(without_timings(read_text(dir / "sqlite" / "evaluations.csv")) ==
        without_timings(read_text(dir / "pg" / "evaluations.csv")));
  const CliRun two =
      run_cli(common + "--workers 2 --study " + uri + " --study-name " + name + "-2 --out " + (dir / "two").string());
  REQUIRE_MESSAGE(two.status == 0, two.output);
  const auto run = read_run_directory((dir / "two").string());
  CHECK(evaluation_count(run.records) == 7);
  int results = 0;
  for (const auto& group : grouped_by_evaluation(run.records)) {
    REQUIRE_FALSE(group.front().is_intermediate());
    for (std::size_t k = 1; k < group.size(); ++k) {
      ++results;
      CHECK(group[k].message == "measured during evaluation " + std::to_string(group.front().id));
      CHECK(group[k].params[0] == static_cast<double>(k));  // epochs 1, 2, ... of that training
      CHECK(std::vector<double>(group[k].params.begin() + 1, group[k].params.end()) ==
            std::vector<double>(group.front().params.begin() + 1, group.front().params.end()));
      CHECK(group[k].epsilon < group.front().epsilon);
    }
  }
  CHECK(results > 0);
  CHECK(static_cast<int>(run.records.size()) == 7 + results);
}

TEST_CASE("postgres: one process on PostgreSQL makes exactly the evaluations of one process on SQLite") {
  const std::string uri = server();
  TempRoot root("dpareto-pg-same-");
  const auto dir = root.dir("runs");
  const std::string name = fresh_name("same");
  const std::string common = "explore --problem svt --seed 5 --init 8 ";
  const CliRun sqlite =
      run_cli(common + "--budget 24 --study " + (dir / "s.db").string() + " --out " + (dir / "sqlite").string());
  REQUIRE(sqlite.status == 0);
  const CliRun pg =
      run_cli(common + "--budget 24 --study " + uri + " --study-name " + name + " --out " + (dir / "pg").string());
  REQUIRE_MESSAGE(pg.status == 0, pg.output);
  CHECK(without_timings(read_text(dir / "sqlite" / "evaluations.csv")) ==
        without_timings(read_text(dir / "pg" / "evaluations.csv")));
  // Exported from the database, the same again.
  const CliRun exported = run_cli("export " + uri + " --study-name " + name + " --out " + (dir / "export").string());
  REQUIRE_MESSAGE(exported.status == 0, exported.output);
  CHECK(without_timings(read_text(dir / "export" / "evaluations.csv")) ==
        without_timings(read_text(dir / "sqlite" / "evaluations.csv")));
  // Resumed with a larger budget, it goes on as the SQLite study does.
  REQUIRE(run_cli(common + "--budget 30 --study " + (dir / "s.db").string() + " --out " + (dir / "sqlite").string())
              .status == 0);
  REQUIRE(run_cli(common + "--budget 30 --study " + uri + " --study-name " + name + " --out " + (dir / "pg").string())
              .status == 0);
  CHECK(without_timings(read_text(dir / "sqlite" / "evaluations.csv")) ==
        without_timings(read_text(dir / "pg" / "evaluations.csv")));
}

TEST_CASE("postgres: workers in several processes share one budget; every trial is evaluated and recorded once") {
  const std::string uri = server();
  TempRoot root("dpareto-pg-workers-");
  const auto dir = root.dir("runs");
  const std::string name = fresh_name("workers");
  // An oracle slow enough (0.1 s) for the workers' evaluations to interleave.
  const auto script = dir / "oracle.sh";
  const auto space = dir / "space.json";
  {
    std::ofstream(script) << "sleep 0.1; printf '{\"epsilon\": %s, \"utility\": 0.5}\\n' \"$1\"\n";
    std::ofstream(space) << R"({"parameters": [{"name": "x", "kind": "continuous", "low": 0.1, "high": 10}]})";
  }
  const std::string oracle = "sh " + script.string() + " {x}";
  const std::vector<std::string> explore = {"explore",
                                            "--oracle-cmd",
                                            oracle,
                                            "--space",
                                            space.string(),
                                            "--method",
                                            "random",
                                            "--budget",
                                            "4",
                                            "--seed",
                                            "9",
                                            "--study",
                                            uri,
                                            "--study-name",
                                            name,
                                            "--out",
                                            (dir / "first").string()};
  pid_t first = spawn_cli(dir, explore);
  int status = 0;
  REQUIRE(::waitpid(first, &status, 0) == first);
  REQUIRE_MESSAGE(WEXITSTATUS(status) == 0, read_text(dir / "stderr.txt"));
  // Raise the budget to 30 while three workers (one of them running two evaluations at once) join.
  auto extended = explore;
  extended[8] = "30";
  extended.back() = (dir / "second").string();
  const auto edir = root.dir("explore");
  std::vector<pid_t> pids{spawn_cli(edir, extended)};
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // it records the budget of 30 first
  for (int w = 0; w < 3; ++w) {
    const auto wdir = root.dir("worker" + std::to_string(w));
    pids.push_back(spawn_cli(wdir, {"worker", uri, "--study-name", name, "--workers", w == 0 ? "2" : "1", "--heartbeat",
                                    "1", "--quiet", "--trust-study-command"}));
  }
  for (const pid_t pid : pids) {
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  auto storage = open_storage(uri, StorageAccess::read_only, named(name));
  REQUIRE(storage->trials().size() == 30);
  std::set<double> settings;
  for (const auto& t : storage->trials()) {
    CHECK(t.record.status == EvaluationStatus::ok);
    CHECK(t.record.epsilon == doctest::Approx(t.record.params[0]));
    settings.insert(t.record.params[0]);
  }
  CHECK(settings.size() == 30);  // pending points are never proposed twice
  const auto completed = storage->completed();
  for (std::size_t i = 0; i < completed.size(); ++i) CHECK(completed[i].id == static_cast<int>(i) + 1);
  CHECK(storage->workers().size() == 5);  // two explore runs and three workers joined
  for (const auto& w : storage->workers()) CHECK(w.left);
}

TEST_CASE("postgres: a trial whose worker stopped heartbeating is taken over once, with its parameters and seed") {
  const std::string uri = server();
  const std::string name = fresh_name("stale");
  create_storage(uri, toy(), one_parameter(), {}, named(name));
  int trial = -1;
  {
    auto lost = open_storage(uri, StorageAccess::read_write, named(name, 0.2, 0.6));
    trial = lost->begin_trial("random", {2.5}, 77, {{"asks", 1}});
    // `lost` ends without finishing: its heartbeat stops with it.
  }
  auto a = open_storage(uri, StorageAccess::read_write, named(name, 0.2, 0.6));
  auto b = open_storage(uri, StorageAccess::read_write, named(name, 0.2, 0.6));
  CHECK(a->abandoned_trials().empty());  // within the grace period
  std::this_thread::sleep_for(std::chrono::milliseconds(900));
  a->refresh();
  REQUIRE(a->abandoned_trials() == std::vector<int>{trial});
  CHECK(a->claim_trial(trial));
  std::this_thread::sleep_for(std::chrono::milliseconds(700));  // a's heartbeats keep it
  b->refresh();
  CHECK(b->abandoned_trials().empty());
  CHECK_FALSE(b->claim_trial(trial));
  a->restart_trial(trial);
  CHECK(a->trials()[0].unfinished_starts == 2);
  CHECK(a->trials()[0].record.seed == 77);
  CHECK(a->trials()[0].record.params == std::vector<double>{2.5});
  const auto& done = a->finish_trial(trial, measured(1.5, 0.75), nullptr);
  CHECK(done.id == 1);
  CHECK(done.epsilon == 1.5);
  // A late completion of the same trial (the lost worker came back) records nothing.
  b->finish_trial(trial, measured(9, 0.1), nullptr);
  auto reader = open_storage(uri, StorageAccess::read_only, named(name));
  REQUIRE(reader->completed().size() == 1);
  CHECK(reader->completed()[0].epsilon == 1.5);
  CHECK(reader->completed()[0].utility == 0.75);
}

TEST_CASE("postgres: a runner takes over a lost worker's trial and evaluates it with the stored seed") {
  const std::string uri = server();
  const std::string name = fresh_name("takeover");
  create_storage(uri, toy(), one_parameter(), {}, named(name));
  {
    auto lost = open_storage(uri, StorageAccess::read_write, named(name, 0.2, 0.5));
    lost->begin_trial("random", {4}, 1234, {{"asks", 1}});
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  auto storage = open_storage(uri, StorageAccess::read_write, named(name, 0.2, 0.5));
  struct Counter : Proposer {
    std::optional<Proposal> ask(const std::vector<std::vector<double>>& pending) override {
      pendings.push_back(pending.size());
      return Proposal{{static_cast<double>(10 + asks++)}, "random"};
    }
    void tell(const EvaluationRecord&) override {}
    nlohmann::json state() const override { return {{"asks", asks}}; }
    void restore_state(const nlohmann::json& s) override { asks = s.at("asks").get<int>(); }
    int asks = 0;
    std::vector<std::size_t> pendings;
  } proposer;
  std::vector<std::uint64_t> seeds;
  StudyRunner runner(
      *storage, proposer,
      [&](const std::vector<double>& p, std::uint64_t seed, const GoOn&) {
        seeds.push_back(seed);
        return measured(p[0], 0.5);
      },
      RunnerSettings{3, 1, 3, true, 2});
  runner.run([](std::span<const EvaluationRecord>) {});
  REQUIRE(storage->completed().size() == 3);
  CHECK(storage->trials()[0].record.params == std::vector<double>{4});
  CHECK(seeds.at(0) == 1234);
  CHECK(proposer.asks == 3);  // the ask counter continued from the study's state (1)
}

TEST_CASE("postgres: bad locations, credentials and studies are one-line errors that never show a password") {
  const std::string uri = server();
  const auto refused = [](const std::string& location, const StorageOptions& options, const std::string& expected) {
    try {
      open_storage(location, StorageAccess::read_only, options);
      FAIL("opened " << location);
    } catch (const InputError& e) {
      const std::string message = e.what();
      CHECK_MESSAGE(message.find(expected) != std::string::npos, message);
      CHECK(message.find('\n') == std::string::npos);
      return message;
    }
    return std::string();
  };
  refused("postgresql://127.0.0.1:1/nothing", named("x"), "cannot connect");  // nothing listens on port 1
  refused("postgresql://[::1/x", named("x"), "cannot connect");
  refused(uri, named("no-such-study-name"), "holds no study 'no-such-study-name'");

  const char* password_uri = std::getenv("DPARETO_TEST_PG_PASSWORD_URI");
  const char* password = std::getenv("DPARETO_TEST_PG_PASSWORD");
  REQUIRE(password_uri);
  REQUIRE(password);
  std::string wrong = password_uri;
  wrong.insert(wrong.find('@'), ":Wr0ngSecret");
  const auto message = refused(wrong, named("x"), "password authentication failed");
  CHECK(message.find("Wr0ngSecret") == std::string::npos);
  // With the right password in the URI, the location shown has none.
  std::string right = password_uri;
  right.insert(right.find('@'), std::string(":") + password);
  const std::string schema = fresh_schema("dpareto_pw");
  right = in_schema(right, schema);
  const std::string name = fresh_name("password");
  auto created = create_storage(right, toy(), one_parameter(), {}, named(name));
  CHECK(created->location().find(password) == std::string::npos);
  CHECK(created->location().find("dpareto_pw@") != std::string::npos);
  try {
    create_storage(right, toy(), one_parameter(), {}, named(name));
    FAIL("created twice");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("already exists") != std::string::npos);
    CHECK(std::string(e.what()).find(password) == std::string::npos);
  }
  // Nor does what the CLI prints about it, in success or refusal.
  TempRoot root("dpareto-pg-password-");
  const std::string out = (root.dir("runs") / "a").string();
  const std::string explore =
      "explore --problem svt --seed 1 --init 4 --study '" + right + "' --study-name cli-" + name + " --out " + out;
  const CliRun ran = run_cli(explore + " --budget 5");
  REQUIRE_MESSAGE(ran.status == 0, ran.output);
  const CliRun below = run_cli(explore + " --budget 3");
  CHECK(below.status == 2);
  const CliRun status = run_cli("status '" + right + "' --study-name cli-" + name);
  CHECK(status.status == 0);
  for (const auto& output : {ran.output, below.output, status.output, read_text(fs::path(out) / "summary.json")})
    CHECK(output.find(password) == std::string::npos);
  created.reset();
  superuser_sql("DROP SCHEMA " + schema + " CASCADE");
}

TEST_CASE("postgres: a database whose schema is newer than this dpareto's is refused, naming both versions") {
  const std::string uri = server();
  const std::string schema = fresh_schema("CURRENT_USER");
  const std::string scoped = in_schema(uri, schema);
  create_storage(scoped, toy(), one_parameter(), {}, named("v"));
  superuser_sql("UPDATE " + schema + ".dpareto_schema SET version = " + std::to_string(kPostgresSchemaVersion + 1));
  try {
    open_storage(scoped, StorageAccess::read_only, named("v"));
    FAIL("opened a newer schema");
  } catch (const InputError& e) {
    const std::string message = e.what();
    CHECK(message.find("schema version " + std::to_string(kPostgresSchemaVersion + 1) +
                       " is newer than this dpareto's " + std::to_string(kPostgresSchemaVersion)) != std::string::npos);
  }
  superuser_sql("DROP SCHEMA " + schema + " CASCADE");
}

TEST_CASE("postgres: study copy moves a study from SQLite to PostgreSQL and back, refusing to overwrite") {
  const std::string uri = server();
  TempRoot root("dpareto-pg-copy-");
  const auto dir = root.dir("runs");
  const std::string name = fresh_name("copy");
  const auto file = (dir / "s.db").string();
  REQUIRE(
      run_cli("explore --problem svt --seed 4 --init 6 --budget 12 --study " + file + " --out " + (dir / "a").string())
          .status == 0);
  const CliRun to_pg = run_cli("study copy " + file + " " + uri + " --to-name " + name);
  REQUIRE_MESSAGE(to_pg.status == 0, to_pg.output);
  CHECK(to_pg.output.find("12 trials, 12 completed") != std::string::npos);
  const CliRun again = run_cli("study copy " + file + " " + uri + " --to-name " + name);
  CHECK(again.status == 2);
  CHECK(again.output.find("a study exists there already") != std::string::npos);
  const auto back = (dir / "back.db").string();
  REQUIRE(run_cli("study copy " + uri + " " + back + " --from-name " + name).status == 0);
  for (const auto& [source, extra] :
       std::vector<std::pair<std::string, std::string>>{{file, ""}, {uri, " --study-name " + name}, {back, ""}}) {
    const auto out = root.dir("export");
    REQUIRE(run_cli("export " + source + extra + " --out " + out.string()).status == 0);
    CHECK(without_timings(read_text(out / "evaluations.csv")) ==
          without_timings(read_text(dir / "a" / "evaluations.csv")));
  }
  // The copy on PostgreSQL goes on exactly as the SQLite study does.
  REQUIRE(
      run_cli("explore --problem svt --seed 4 --init 6 --budget 18 --study " + file + " --out " + (dir / "a").string())
          .status == 0);
  REQUIRE(run_cli("explore --problem svt --seed 4 --init 6 --budget 18 --study " + uri + " --study-name " + name +
                  " --out " + (dir / "b").string())
              .status == 0);
  CHECK(without_timings(read_text(dir / "a" / "evaluations.csv")) ==
        without_timings(read_text(dir / "b" / "evaluations.csv")));
}

TEST_CASE("postgres: a study is refused to runs of another problem, space or configuration; nothing is written") {
  const std::string uri = server();
  TempRoot root("dpareto-pg-refuse-");
  const auto dir = root.dir("runs");
  const std::string name = fresh_name("refuse");
  const std::string study = " --study " + uri + " --study-name " + name + " --out " + (dir / "a").string();
  REQUIRE(run_cli("explore --problem svt --seed 2 --init 4 --budget 6" + study).status == 0);
  for (const auto& [flags, expected] : std::vector<std::pair<std::string, std::string>>{
           {"--problem synthetic-logreg-sgd --seed 2 --init 4 --budget 8", "created for problem 'svt'"},
           {"--problem svt --seed 2 --init 5 --budget 8", "initial_points"},
           {"--problem svt --seed 3 --init 4 --budget 8", "seeded with 2"}}) {
    const CliRun r = run_cli("explore " + flags + study + " --overwrite");
    CHECK(r.status == 2);
    CHECK_MESSAGE(r.output.find(expected) != std::string::npos, r.output);
  }
  auto storage = open_storage(uri, StorageAccess::read_only, named(name));
  CHECK(storage->trials().size() == 6);
  CHECK(storage->run_info().extra.at("budget") == 6);
  CHECK(storage->workers().size() == 1);  // the refused runs did not even join the study
  const CliRun file_name = run_cli("status " + (dir / "x.db").string() + " --study-name other");
  CHECK(file_name.status == 2);
  CHECK(file_name.output.find("is an SQLite file, which holds one study") != std::string::npos);
}

TEST_CASE(
    "postgres: an evaluation and its intermediate results are one transaction, numbered in a row across workers; a "
    "spooled one is replayed whole") {
  const std::string uri = server();
  const std::string schema = fresh_schema("CURRENT_USER");
  const std::string scoped = in_schema(uri, schema);
  const std::string name = fresh_name("together");
  create_storage(scoped, toy(), one_parameter(), {}, named(name));
  auto a = open_storage(scoped, StorageAccess::read_write, named(name));
  auto b = open_storage(scoped, StorageAccess::read_write, named(name));
  const int ta = a->begin_trial("random", {3}, 31, {{"asks", 1}});
  b->refresh();
  const int tb = b->begin_trial("random", {4}, 32, {{"asks", 2}});
  // b completes first, with two earlier epochs; then a, with three.
  b->finish_trial(tb, dpareto::test::with_earlier_results(measured(4, 0.6), {{1}, {2}}), nullptr);
  a->finish_trial(ta, dpareto::test::with_earlier_results(measured(3, 0.7), {{1}, {2}, {3}}), nullptr);
  auto reader = open_storage(scoped, StorageAccess::read_only, named(name));
  const auto groups = grouped_by_evaluation(reader->completed());
  REQUIRE(groups.size() == 2);
  REQUIRE(groups[0].size() == 3);
  REQUIRE(groups[1].size() == 4);
  for (const auto& group : groups) {
    const auto& evaluation = group.front();
    CHECK_FALSE(evaluation.is_intermediate());
    for (std::size_t k = 1; k < group.size(); ++k) {
      CHECK(group[k].is_intermediate());
      CHECK(group[k].id == evaluation.id + static_cast<int>(k));
      CHECK(group[k].seed == evaluation.seed);
      CHECK(group[k].params == std::vector<double>{static_cast<double>(k)});
      CHECK(group[k].epsilon == doctest::Approx(evaluation.epsilon * static_cast<double>(k) / group.size()));
      CHECK(group[k].message == "measured during evaluation " + std::to_string(evaluation.id));
    }
  }
  CHECK(groups[0].front().seed == 32);
  CHECK(groups[1].front().seed == 31);

  // A completion refused half way (a trigger rejects its second result) records nothing: the trial
  // stays running, its result in the spool; the next worker to join replays it, results and all.
  const int tc = a->begin_trial("random", {5}, 33, {{"asks", 3}});
  superuser_sql("CREATE FUNCTION " + schema +
                ".refuse() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RAISE EXCEPTION ''refused by the test''; END'");
  superuser_sql("CREATE TRIGGER refuse BEFORE INSERT ON " + schema + ".dpareto_trials FOR EACH ROW WHEN (NEW.trial = " +
                std::to_string(tc + 2) + ") EXECUTE FUNCTION " + schema + ".refuse()");
  CHECK_THROWS_WITH(a->finish_trial(tc, dpareto::test::with_earlier_results(measured(5, 0.8), {{1}, {2}, {3}}), nullptr),
                    doctest::Contains("refused by the test"));
  reader->refresh();
  CHECK(reader->completed().size() == 7);
  CHECK(reader->trials().at(static_cast<std::size_t>(tc)).record.status == EvaluationStatus::running);
  superuser_sql("DROP TRIGGER refuse ON " + schema + ".dpareto_trials");
  auto c = open_storage(scoped, StorageAccess::read_write, named(name));
  c->begin_trial("random", {6}, 34, {{"asks", 4}});  // joins: replays the spool first
  reader->refresh();
  const auto all = reader->completed();
  REQUIRE(all.size() == 11);
  CHECK(all[7].params == std::vector<double>{5});
  CHECK(all[7].epsilon == 5);
  for (std::size_t k = 8; k < 11; ++k) {
    CHECK(all[k].is_intermediate());
    CHECK(all[k].seed == 33);
    CHECK(all[k].params == std::vector<double>{static_cast<double>(k - 7)});
    CHECK(all[k].message == "measured during evaluation 8");
  }
  a.reset();
  b.reset();
  c.reset();
  reader.reset();
  superuser_sql("DROP SCHEMA " + schema + " CASCADE");
}
