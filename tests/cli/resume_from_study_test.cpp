// Resume without repeating yourself (issue 21 item 3): `explore --study FILE` with no problem flags
// continues the study as it was set up (problem, its options, explorer configuration, seed, budget);
// flags given explicitly must agree with the study, and a refusal lists every difference.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "../support/test_support.hpp"

using dpareto::test::read_text;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot temp_root("dpareto_resume_from_study_test_");

}  // namespace

TEST_CASE("explore --study FILE resumes with no other flags, as the full command line would") {
  const auto dir = temp_root.dir("resume");
  const std::string study = (dir / "s.db").string();
  const std::string full = "explore --problem svt --repeats 7 --init 5 --acquisition ehvi --seed 3 ";
  REQUIRE(run_cli(full + "--budget 9 --study " + study + " --out " + (dir / "a").string()).status == 0);
  // Extended by flags-free resumes: its own budget first (nothing to do), then a larger one.
  const auto same = run_cli("explore --study " + study + " --out " + (dir / "a").string());
  REQUIRE_MESSAGE(same.status == 0, same.output);
  // Without --out it writes where the study wrote before.
  const auto more = run_cli("explore --study " + study + " --budget 13");
  REQUIRE_MESSAGE(more.status == 0, more.output);
  // The same 13 evaluations as one uninterrupted run given every flag.
  REQUIRE(run_cli(full + "--budget 13 --out " + (dir / "b").string()).status == 0);
  const std::string resumed = read_text(dir / "a" / "evaluations.csv");
  CHECK(std::count(resumed.begin(), resumed.end(), '\n') == 14);
  CHECK(dpareto::test::without_timings(resumed) ==
        dpareto::test::without_timings(read_text(dir / "b" / "evaluations.csv")));
  CHECK(read_text(dir / "a" / "summary.json").find("\"repeats\": \"7\"") != std::string::npos);
}

TEST_CASE("a resume refuses flags that differ from the study, listing each difference on its own line") {
  const auto dir = temp_root.dir("refuse");
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
