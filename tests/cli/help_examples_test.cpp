// Every --help shows an example (issue 21 item 5): each command and action listed prints
// "example: dpareto COMMAND ...", and each example, taken from the help text, works when run in the
// order of a first session in a fresh folder (later examples read what earlier ones wrote).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../support/test_support.hpp"

namespace fs = std::filesystem;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot help_examples_root("dpareto_help_examples_test_");

// The commands `dpareto --help` lists: the first word of each line after "commands:".
std::vector<std::string> listed_commands() {
  const auto help = run_cli("--help").output;
  std::istringstream lines(help.substr(help.find("commands:\n") + 10));
  std::vector<std::string> names;
  for (std::string line, name; std::getline(lines, line) && std::istringstream(line) >> name;) names.push_back(name);
  return names;
}

// The actions of a command that has some, from its help's first line
// ("usage: dpareto account dpsgd|gaussian|tuning [options]   (--help on each)"); none otherwise.
std::vector<std::string> actions_of(const std::string& command) {
  const auto help = run_cli(command + " --help").output;
  if (help.find("(--help on each)") == std::string::npos) return {};
  std::istringstream words(help);
  std::string usage, dpareto, name, list;
  words >> usage >> dpareto >> name >> list;
  std::vector<std::string> actions;
  std::istringstream items(list);
  for (std::string action; std::getline(items, action, '|');) actions.push_back(action);
  return actions;
}

// The example line of `dpareto COMMAND --help`, without the leading "dpareto ".
std::string example_of(const std::string& command) {
  const auto r = run_cli(command + " --help");
  CHECK(r.status == 0);
  const std::string label = "\nexample: dpareto ";
  const auto at = r.output.find(label);
  REQUIRE_MESSAGE(at != std::string::npos, ("dpareto " + command + " --help shows no example:\n" + r.output));
  const auto start = at + label.size();
  return r.output.substr(start, r.output.find('\n', start) - start);
}

// The first decimal number of 10 or more significant digits in `text` ("" if none): round-trip
// text where a person reads, which every human-facing output avoids (issue 21 item 5).
std::string unreadable_number(const std::string& text) {
  static const std::regex decimal(R"(\d*\.\d+)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), decimal); it != std::sregex_iterator(); ++it) {
    std::string digits;
    for (char c : it->str())
      if (c != '.') digits += c;
    digits.erase(0, digits.find_first_not_of('0'));
    if (digits.size() >= 10) return it->str();
  }
  return "";
}

bool runs_command(const std::string& example, const std::string& command) {
  return example == command || example.rfind(command + " ", 0) == 0;
}

}  // namespace

TEST_CASE("every command's and every action's --help has an example of that command") {
  const auto commands = listed_commands();
  CHECK(commands.size() >= 14);
  for (const auto& command : commands) {
    CAPTURE(command);
    CHECK(runs_command(example_of(command), command));
    CHECK(unreadable_number(run_cli(command + " --help").output).empty());
    for (const auto& action : actions_of(command))
      CHECK(runs_command(example_of(command + " " + action), command + " " + action));
  }
  CHECK(actions_of("account") == std::vector<std::string>{"dpsgd", "gaussian", "tuning"});
  // `account tuning --method M` has flags of its own, and so its own example.
  CHECK(runs_command(example_of("account tuning --method random-stopping"), "account tuning --method"));
}

TEST_CASE("the examples work, run in the order of a first session") {
  const auto dir = help_examples_root.dir("session");
  // Written by hand as docs/select.md allows: the examples of tune and account tuning read it.
  std::ofstream(dir / "cands.json") << R"({"problem": "synthetic-logreg-sgd", "candidates": [
      {"epochs": 2, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1},
      {"epochs": 1, "lot_size": 32, "learning_rate": 0.02, "clip_norm": 1}]})";
  const std::vector<std::string> session{"problems",
                                         "version",
                                         "evaluate",
                                         "explore",
                                         "exact",
                                         "export",
                                         "status",
                                         "worker",
                                         "study copy",
                                         "study upgrade",
                                         "report",
                                         "plot",
                                         "compare",
                                         "pick",
                                         "account dpsgd",
                                         "account gaussian",
                                         "account tuning",
                                         "account tuning --method random-stopping",
                                         "calibrate dpsgd",
                                         "calibrate steps",
                                         "tune",
                                         "predict",
                                         "ledger show",
                                         "ledger cap"};
  for (const auto& command : session) {
    // Random sampling to compare DPareto's run with, as the user would make it.
    if (command == "compare")
      REQUIRE(
          run_cli("explore --problem svt --method random --budget 128 --seed 2 --out runs/svt-random", dir).status ==
          0);
    // Unseeded, random stopping draws its number of runs K from a Poisson law and releases nothing
    // when K = 0 (about one session in 30); predict, next, needs the model, so this run is seeded.
    const std::string example = example_of(command) + (command == "tune" ? " --seed 1" : "");
    CAPTURE(example);
    const auto r = run_cli(example, dir);
    CHECK_MESSAGE(r.status == 0, r.output);
    CHECK(unreadable_number(run_cli(command + " --help").output).empty());
    // Text for people has readable numbers; --json is for programs and keeps every digit.
    if (example.find("--json") == std::string::npos) CHECK_MESSAGE(unreadable_number(r.output).empty(), r.output);
  }
  for (const char* written : {"svt.db", "runs/svt/front.csv", "runs/svt-exact/front.csv", "runs/svt-copy/front.csv",
                              "runs/svt/report/report.md", "front.png", "tuned/model.bin"})
    CHECK_MESSAGE(fs::exists(dir / written), written);
}
