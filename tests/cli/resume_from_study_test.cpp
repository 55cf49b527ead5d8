// Resume without repeating yourself (issue 21 item 3): `explore --study FILE` with no problem flags
// continues the study as it was set up (problem, its options, explorer configuration, seed, budget);
// flags given explicitly must agree with the study, and a refusal lists every difference.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "../support/test_support.hpp"

using dpareto::test::read_text;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot resume_from_study_root("dpareto_resume_from_study_test_");

}  // namespace

TEST_CASE("explore --study FILE resumes with no other flags, as the full command line would") {
  const auto dir = resume_from_study_root.dir("resume");
  const std::string study = (dir / "s.db").string();
  const std::string full = "explore --problem svt --repeats 7 --init 5 --acquisition ehvi --seed 3 ";
  REQUIRE(run_cli(full + "--budget 9 --study " + study + " --out a", dir).status == 0);
  // Extended by flags-free resumes: its own budget first (nothing to do), then a larger one.
  const auto same = run_cli("explore --study " + study + " --out a", dir);
  REQUIRE_MESSAGE(same.status == 0, same.output);
  // Without --out it writes where the study wrote before (a relative path below the current directory).
  const auto more = run_cli("explore --study " + study + " --budget 13", dir);
  REQUIRE_MESSAGE(more.status == 0, more.output);
  // The same 13 evaluations as one uninterrupted run given every flag.
  REQUIRE(run_cli(full + "--budget 13 --out " + (dir / "b").string()).status == 0);
  const std::string resumed = read_text(dir / "a" / "evaluations.csv");
  CHECK(std::count(resumed.begin(), resumed.end(), '\n') == 14);
  CHECK(dpareto::test::without_timings(resumed) ==
        dpareto::test::without_timings(read_text(dir / "b" / "evaluations.csv")));
  CHECK(read_text(dir / "a" / "summary.json").find("\"repeats\": \"7\"") != std::string::npos);
}

TEST_CASE("a study from elsewhere does not choose where a resume writes: only a relative path below here") {
  const auto dir = resume_from_study_root.dir("elsewhere");
  const std::string study = (dir / "s.db").string();
  const std::string absolute = (dir / "abs").string();
  REQUIRE(
      run_cli("explore --problem svt --init 3 --seed 3 --budget 4 --study " + study + " --out " + absolute).status ==
      0);
  const auto here = resume_from_study_root.dir("elsewhere_cwd");
  const auto resumed = run_cli("explore --study " + study + " --budget 5", here);
  REQUIRE_MESSAGE(resumed.status == 0, resumed.output);
  CHECK(resumed.output.find("note: the study wrote to '" + absolute +
                            "', which is not a relative path below this directory; writing to runs/svt-dpareto") !=
        std::string::npos);
  CHECK(std::filesystem::exists(here / "runs" / "svt-dpareto" / "summary.json"));
  const std::string untouched = read_text(dir / "abs" / "evaluations.csv");
  CHECK(std::count(untouched.begin(), untouched.end(), '\n') == 5);  // its 4 evaluations, as before
}

TEST_CASE("a resume refuses flags that differ from the study, listing each difference on its own line") {
  const auto dir = resume_from_study_root.dir("refuse");
  const std::string study = (dir / "s.db").string();
  REQUIRE(
      run_cli("explore --problem svt --init 4 --seed 3 --budget 6 --study " + study + " --out " + (dir / "a").string())
          .status == 0);
  const auto r =
      run_cli("explore --study " + study + " --init 5 --method random --seed 9 --out " + (dir / "a").string());
  CHECK(r.status == 2);
  CHECK(r.output.find("3 settings differ") != std::string::npos);
  CHECK(r.output.find("\n  it was run with initial_points=4, not 5\n") != std::string::npos);
  CHECK(r.output.find("\n  it was run with method=\"dpareto\", not \"random\"\n") != std::string::npos);
  CHECK(r.output.find("\n  it was seeded with 3, not 9") != std::string::npos);
  const auto missing = run_cli("explore --study " + (dir / "none.db").string());
  CHECK(missing.status == 2);
  CHECK(missing.output.find("no such study; a new study needs --problem NAME") != std::string::npos);
}

TEST_CASE("a study from before the posterior improvement front resumes on the observed one; a bad name is refused") {
  const auto dir = resume_from_study_root.dir("front");
  const std::string study = (dir / "s.db").string();
  // --improvement-front observed records no setting: the study is as one made before the choice.
  REQUIRE(run_cli("explore --problem svt --init 4 --seed 3 --budget 6 --improvement-front observed --study " + study +
                      " --out a",
                  dir)
              .status == 0);
  const auto resumed = run_cli("explore --study " + study + " --budget 8", dir);
  REQUIRE_MESSAGE(resumed.status == 0, resumed.output);
  CHECK(read_text(dir / "a" / "summary.json").find("\"improvement_front\": \"observed\"") != std::string::npos);
  // The same 8 evaluations as one run on the observed front; another on the posterior one differs.
  REQUIRE(
      run_cli("explore --problem svt --init 4 --seed 3 --budget 8 --improvement-front observed --out b", dir).status ==
      0);
  const std::string observed = dpareto::test::without_timings(read_text(dir / "a" / "evaluations.csv"));
  CHECK(observed == dpareto::test::without_timings(read_text(dir / "b" / "evaluations.csv")));
  REQUIRE(run_cli("explore --problem svt --init 4 --seed 3 --budget 24 --improvement-front observed --out b24", dir)
              .status == 0);
  REQUIRE(run_cli("explore --problem svt --init 4 --seed 3 --budget 24 --out c", dir).status == 0);
  CHECK(dpareto::test::without_timings(read_text(dir / "b24" / "evaluations.csv")) !=
        dpareto::test::without_timings(read_text(dir / "c" / "evaluations.csv")));
  CHECK(read_text(dir / "c" / "summary.json").find("\"improvement_front\": \"posterior\"") != std::string::npos);
  const auto switched = run_cli("explore --study " + study + " --budget 9 --improvement-front posterior", dir);
  CHECK(switched.status == 2);
  CHECK(switched.output.find("improvement_front") != std::string::npos);
  const auto bad = run_cli("explore --problem svt --improvement-front mean --out d", dir);
  CHECK(bad.status == 2);
  CHECK(bad.output.find("--improvement-front 'mean': expected observed or posterior") != std::string::npos);
  CHECK(std::count(bad.output.begin(), bad.output.end(), '\n') == 1);
}

TEST_CASE("svt models its F1 on an arcsine GP; a study from before (logit) resumes on the logit; bad names refused") {
  const auto dir = resume_from_study_root.dir("utility_transform");
  const std::string study = (dir / "s.db").string();
  // --utility-transform logit records no setting: the study is as one made before the choice.
  REQUIRE(run_cli("explore --problem svt --init 4 --seed 3 --budget 6 --utility-transform logit --study " + study +
                      " --out a",
                  dir)
              .status == 0);
  CHECK(read_text(dir / "a" / "summary.json").find("utility_transform") == std::string::npos);
  const auto resumed = run_cli("explore --study " + study + " --budget 8", dir);
  REQUIRE_MESSAGE(resumed.status == 0, resumed.output);
  REQUIRE(run_cli("explore --problem svt --init 4 --seed 3 --budget 8 --utility-transform logit --out b", dir).status ==
          0);
  CHECK(dpareto::test::without_timings(read_text(dir / "a" / "evaluations.csv")) ==
        dpareto::test::without_timings(read_text(dir / "b" / "evaluations.csv")));
  // The default for svt is the arcsine, recorded; it explores differently from the logit.
  REQUIRE(
      run_cli("explore --problem svt --init 4 --seed 3 --budget 24 --utility-transform logit --out b24", dir).status ==
      0);
  REQUIRE(run_cli("explore --problem svt --init 4 --seed 3 --budget 24 --out c", dir).status == 0);
  CHECK(read_text(dir / "c" / "summary.json").find("\"utility_transform\": \"arcsine\"") != std::string::npos);
  CHECK(dpareto::test::without_timings(read_text(dir / "b24" / "evaluations.csv")) !=
        dpareto::test::without_timings(read_text(dir / "c" / "evaluations.csv")));
  // pick --from model reads the run's transform back (its interval is on the utility scale).
  const auto picked = run_cli("pick c --max-epsilon 100 --from model", dir);
  REQUIRE_MESSAGE(picked.status == 0, picked.output);
  const auto switched = run_cli("explore --study " + study + " --budget 9 --utility-transform arcsine", dir);
  CHECK(switched.status == 2);
  CHECK(switched.output.find("utility_transform") != std::string::npos);
  for (const std::string bad : {"probit", "log"}) {
    const auto refused = run_cli("explore --problem svt --utility-transform " + bad + " --out d", dir);
    CHECK(refused.status == 2);
    CHECK(refused.output.find("--utility-transform") != std::string::npos);
    CHECK(refused.output.find(bad) != std::string::npos);
    CHECK(std::count(refused.output.begin(), refused.output.end(), '\n') == 1);
  }
}

TEST_CASE("an svt study on the linear C resumes on it; the log scale is refused with the option to give") {
  const auto dir = resume_from_study_root.dir("bound_scale");
  const std::string linear = (dir / "linear.db").string();
  REQUIRE(run_cli("explore --problem svt --init 4 --seed 3 --budget 5 --set bound_scale=linear --study " + linear +
                      " --out a",
                  dir)
              .status == 0);
  const auto resumed = run_cli("explore --study " + linear + " --budget 6", dir);
  REQUIRE_MESSAGE(resumed.status == 0, resumed.output);
  // As a study from before the log scale resumed without its option: the space differs.
  const auto refused = run_cli("explore --study " + linear + " --budget 7 --set bound_scale=log", dir);
  CHECK(refused.status == 2);
  CHECK(refused.output.find("its parameter bound is ") != std::string::npos);
  CHECK(refused.output.find("--set bound_scale=linear") != std::string::npos);
  CHECK(std::count(refused.output.begin(), refused.output.end(), '\n') == 1);
  // An option a resume gives is recorded: the next resume needs no flag for it.
  const std::string log_study = (dir / "log.db").string();
  REQUIRE(run_cli("explore --problem svt --init 4 --seed 3 --budget 5 --study " + log_study + " --out b", dir).status ==
          0);
  CHECK(read_text(dir / "b" / "summary.json").find("bound_scale") == std::string::npos);
  REQUIRE(run_cli("explore --study " + log_study + " --budget 6 --set bound_scale=log", dir).status == 0);
  REQUIRE(run_cli("explore --study " + log_study + " --budget 7", dir).status == 0);
  CHECK(read_text(dir / "b" / "summary.json").find("\"bound_scale\": \"log\"") != std::string::npos);
}
