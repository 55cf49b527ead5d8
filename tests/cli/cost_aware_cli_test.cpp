// `explore --cost-aware` from the command line: recorded in the run and the study, kept by a resume
// that does not repeat it, and refused in one line on a study explored without it.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "../support/test_support.hpp"

using dpareto::test::read_text;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot cost_aware_cli_root("dpareto_cost_aware_cli_");

}  // namespace

TEST_CASE("explore --cost-aware: recorded, resumed with it, refused on a study explored without it") {
  const auto dir = cost_aware_cli_root.dir("svt");
  const auto explored =
      run_cli("explore --problem svt --cost-aware --init 4 --budget 8 --seed 2 --study costed.db --out run", dir);
  REQUIRE_MESSAGE(explored.status == 0, explored.output);
  const auto resumed = run_cli("explore --study costed.db --budget 10", dir);
  REQUIRE_MESSAGE(resumed.status == 0, resumed.output);
  const auto summary = nlohmann::json::parse(read_text(dir / "run" / "summary.json"));
  CHECK(summary.value("cost_aware", false));
  CHECK(summary.at("evaluations").get<int>() == 10);

  const auto plain = run_cli("explore --problem svt --init 4 --budget 6 --seed 2 --study plain.db --out plain", dir);
  REQUIRE_MESSAGE(plain.status == 0, plain.output);
  CHECK_FALSE(nlohmann::json::parse(read_text(dir / "plain" / "summary.json")).contains("cost_aware"));
  const auto refused = run_cli("explore --study plain.db --budget 8 --cost-aware", dir);
  CHECK(refused.status == 2);
  CHECK(refused.output.find("cost_aware") != std::string::npos);
}
