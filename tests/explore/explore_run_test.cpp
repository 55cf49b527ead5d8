#include <doctest/doctest.h>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/explore/explore_run.hpp"
#include "dpareto/explore/run_description.hpp"
#include "dpareto/explore/run_study.hpp"
#include "dpareto/problems/registry.hpp"
#include "dpareto/study/run_record.hpp"

using namespace dpareto;

namespace {

const dpareto::test::TempRoot explore_run_root("dpareto_explore_run_test_");

explore::ExploreSettings svt_settings(const std::string& out) {
  explore::ExploreSettings s;
  s.explorer.initial_points = 6;
  s.explorer.dense_candidates = 200;
  s.explorer.objectives.set_reference({1000, 1});
  s.explorer.axis = {pareto::EpsilonAxis::Kind::log10, 1e-2};
  s.budget = 10;
  s.seed = 3;
  s.out = out;
  s.problem_options = {{"repeats", "5"}};
  return s;
}

std::vector<study::EvaluationRecord> explore_svt(const explore::ExploreSettings& settings) {
  const auto problem = problems::make_problem("svt", settings.problem_options);
  explore::ExploreRun run(*problem, settings, explore::open_run_study(*problem, settings));
  std::size_t seen = 0;  // records: one call per arrival (a resumed study's records arrive at once)
  const auto outcome = run.run([&](const study::RunDirectoryWriter& writer) {
    CHECK(writer.records().size() > seen);
    seen = writer.records().size();
    CHECK(writer.hv_history().size() == seen);  // one entry per evaluation (SVT has no intermediate results)
  });
  CHECK(outcome.interrupted_signal == 0);
  CHECK_FALSE(outcome.stopped);
  return run.writer().records();
}

bool same_evaluations(const std::vector<study::EvaluationRecord>& a, const std::vector<study::EvaluationRecord>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].params != b[i].params || a[i].phase != b[i].phase || a[i].epsilon != b[i].epsilon ||
        a[i].utility != b[i].utility || a[i].seed != b[i].seed)
      return false;
  return true;
}

}  // namespace

TEST_CASE("explore run: a seeded run is reproducible, in memory or in a study file resumed half-way") {
  const auto settings = svt_settings(explore_run_root.dir("memory").string());
  const auto first = explore_svt(settings);
  REQUIRE(first.size() == 10);
  CHECK(std::count_if(first.begin(), first.end(), [](const auto& r) { return r.phase == "init"; }) == 6);
  CHECK(same_evaluations(first, explore_svt(svt_settings(explore_run_root.dir("memory-again").string()))));

  auto stored = svt_settings(explore_run_root.dir("stored").string());
  stored.study = (explore_run_root.dir("study") / "svt.db").string();
  stored.budget = 7;
  CHECK(explore_svt(stored).size() == 7);
  stored.budget = 10;
  stored.seed.reset();  // a resumed study keeps its seed
  CHECK(same_evaluations(first, explore_svt(stored)));
  const auto read = study::read_run_directory(stored.out);
  CHECK(read.info.extra.at("budget") == 10);
  CHECK(read.info.extra.at("seed_source") == "user");
}

TEST_CASE("explore run: run information and the configuration a resume must share") {
  auto settings = svt_settings("unused");
  settings.explorer.acquisition = "ehvi";
  settings.explorer.reference_mode = bo::ReferenceMode::estimated;
  settings.workers = 2;
  const auto problem = problems::make_problem("svt", settings.problem_options);
  const auto info = explore::run_info(*problem, settings, 42, false);
  CHECK(info.problem == "svt");
  CHECK(info.method == "dpareto");
  CHECK(info.seed == 42u);
  CHECK(info.parameter_names == std::vector<std::string>{"bound", "noise"});
  CHECK(info.hv_axis == "log");
  CHECK(info.extra.at("seed_source") == "os");
  CHECK(info.extra.at("acquisition") == "ehvi");
  CHECK(info.extra.at("reference_mode") == "estimated");
  CHECK(info.extra.at("workers") == 2);
  CHECK(info.extra.at("problem_options").at("repeats") == "5");
  const auto config = explore::study_config(settings);
  CHECK(config.at("method") == "dpareto");
  CHECK(config.at("candidates") == 200);
  CHECK_FALSE(config.contains("workers"));  // may change between runs of one study
  CHECK(explore::study_identity(*problem).problem == "svt");
}

TEST_CASE("explore run: bad explorer options and workers are input errors") {
  const auto problem = problems::make_problem("svt", {{"repeats", "5"}});
  auto settings = svt_settings(explore_run_root.dir("bad").string());
  settings.workers = 0;
  CHECK_THROWS_WITH_AS(explore::ExploreRun(*problem, settings, explore::open_run_study(*problem, settings)),
                       "--workers must be at least 1, got 0", InputError);
  settings.workers = 1;
  settings.explorer.initial_points = 0;
  CHECK_THROWS_WITH_AS(explore::ExploreRun(*problem, settings, explore::open_run_study(*problem, settings)),
                       "--init must be at least 1, got 0", InputError);
}

TEST_CASE("explore run: identical failures from the start stop a run") {
  std::vector<study::EvaluationRecord> records(2);
  for (auto& r : records) r.status = study::EvaluationStatus::failed, r.message = "no such program";
  CHECK_FALSE(explore::same_failure_from_the_start(records));
  records.push_back(records.back());
  CHECK(explore::same_failure_from_the_start(records));
  records.back().message = "another reason";
  CHECK_FALSE(explore::same_failure_from_the_start(records));
}
