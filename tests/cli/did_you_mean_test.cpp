// "Did you mean" (issue 21 item 5): the edit distance, the suggestion text, and the one-line
// errors (exit 2) for an unknown command, problem, flag, config flag, method, acquisition, action,
// figure kind, problem option and parameter, each naming the closest known names.
#include "dpareto/core/did_you_mean.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "../support/test_support.hpp"

using dpareto::did_you_mean;
using dpareto::edit_distance;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot did_you_mean_root("dpareto_did_you_mean_test_");

void check_one_line(const std::string& args, const std::string& message) {
  CAPTURE(args);
  const auto r = run_cli(args);
  CHECK(r.status == 2);
  CHECK_MESSAGE(r.output.find(message) != std::string::npos, r.output);
  CHECK_MESSAGE(std::count(r.output.begin(), r.output.end(), '\n') == 1, r.output);
}

}  // namespace

TEST_CASE("edit_distance: insertions, deletions, substitutions and swaps of neighbours") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("explor", "explore") == 1);
  CHECK(edit_distance("adult-logreg-sdg", "adult-logreg-sgd") == 1);  // one swap
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("ca", "abc") == 3);   // no edit inside a swapped pair (unrestricted Damerau: 2)
  CHECK(edit_distance("SVT", "svt") == 3);  // case counts here; did_you_mean ignores it
}

TEST_CASE("did_you_mean: the nearest names, ties together, nothing when none is close") {
  const std::vector<std::string> commands{"account", "explore", "export", "pick", "plot", "predict"};
  CHECK(did_you_mean("explor", commands) == "; did you mean 'explore'?");
  CHECK(did_you_mean("EXPLORE", commands) == "; did you mean 'explore'?");
  CHECK(did_you_mean("hvi", {"ehvi", "hv", "hvpoi"}) == "; did you mean 'ehvi' or 'hv'?");
  CHECK(did_you_mean("cat", {"bat", "cart", "cut", "dog"}) == "; did you mean 'bat', 'cart' or 'cut'?");
  CHECK(did_you_mean("nosuchcommand", commands).empty());
  CHECK(did_you_mean("pi", {"hvpoi", "ehvi"}).empty());  // 3 edits: more than max(1, 2 / 3)
  CHECK(did_you_mean("x", {"y"}).empty());               // wholly rewritten
  CHECK(did_you_mean("", commands).empty());
}

TEST_CASE("unknown names: one line with the closest known names, exit 2") {
  const auto r = run_cli("explor");
  CHECK(r.status == 2);
  CHECK(r.output == "dpareto: unknown command 'explor'; did you mean 'explore'? (run 'dpareto --help' for the list)\n");
  check_one_line("explore --problem adult-logreg-sdg",
                 "unknown problem 'adult-logreg-sdg'; did you mean 'adult-logreg-sgd'? (known: adult-logreg-adam,");
  check_one_line("explore --problem svt --budjet 5",
                 "dpareto explore: error: explore: unrecognised option '--budjet'; did you mean '--budget'? (see "
                 "'dpareto explore --help')\n");
  check_one_line("explore --problem svt --budjet=5", "unrecognised option '--budjet=5'; did you mean '--budget'?");
  check_one_line("explore --problem svt --method dparto",
                 "--method dparto: expected dpareto, random or grid; did you mean 'dpareto'?");
  check_one_line("explore --problem svt --acquisition ehiv",
                 "--acquisition ehiv: expected hvpoi or ehvi; did you mean 'ehvi'?");
  check_one_line("explore --problem svt --set repets=3",
                 "problem svt: unknown option 'repets'; did you mean 'repeats'?");
  check_one_line("evaluate --problem svt --params bund=3,noise=1", "unknown parameter 'bund'; did you mean 'bound'?");
  check_one_line(
      "tune --problem synthetic-logreg-sgd --candidates c.json --method random-stoping --target-epsilon 1 "
      "--delta 1e-5 --out t",
      "--method 'random-stoping' is not random-stopping, grid, subsampled, propose-test or dp-hype; "
      "did you mean 'random-stopping'?");
  check_one_line("account dpgsd", "account: unknown subcommand 'dpgsd'; did you mean 'dpsgd'? (dpsgd|gaussian|tuning)");
  check_one_line("ledger shwo x.json", "ledger: unknown subcommand 'shwo'; did you mean 'show'? (show|cap)");
}

TEST_CASE("unknown names in a --config file and a figure kind get a suggestion too") {
  const auto dir = did_you_mean_root.dir("config");
  std::ofstream(dir / "explore.ini") << "problem = svt\nbudjet = 5\n";
  check_one_line("explore --config " + (dir / "explore.ini").string(),
                 "explore.ini:2: unknown flag 'budjet'; did you mean 'budget'?");
  const std::string run = (dir / "run").string();
  REQUIRE(run_cli("explore --problem svt --method random --budget 3 --seed 1 --out " + run).status == 0);
  check_one_line("plot frnt " + run + " --out " + (dir / "f.png").string(),
                 "plot: unknown figure kind 'frnt'; did you mean 'front'? (front, hv, variability, surrogate, oracle)");
}
