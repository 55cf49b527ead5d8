// `explore --known-epsilon` (issue 18 item 1) from the command line: a built-in problem whose
// accountant is too slow is refused in one line; an external oracle declares its DP-SGD in
// space.json, prints no ε, and is explored, resumed from its study and never proposed beyond the
// ε reference.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../support/test_support.hpp"

namespace fs = std::filesystem;
using dpareto::test::read_text;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot known_epsilon_cli_root("dpareto_known_epsilon_cli_");

// utility = 0.9 − 0.02 sigma − 0.1 |log10 lr + 2|; no epsilon printed. `declared`: with known_epsilon.
void write_declaring_oracle(const fs::path& dir, bool declared) {
  std::ofstream(dir / "space.json")
      << R"({"parameters": [{"name": "lr", "kind": "continuous", "low": 0.001, "high": 1, "scale": "log"},)"
      << R"( {"name": "epochs", "kind": "integer", "low": 1, "high": 5},)"
      << R"( {"name": "batch", "kind": "integer", "low": 64, "high": 512},)"
      << R"( {"name": "sigma", "kind": "continuous", "low": 0.3, "high": 8, "scale": "log"}])"
      << (declared ? R"(, "known_epsilon": {"mechanism": "dp-sgd", "examples": 60000, "delta": 1e-5,)"
                     R"( "epochs": "epochs", "lot_size": "batch", "noise_multiplier": "sigma"}})"
                   : "}");
  std::ofstream(dir / "oracle.sh")
      << "#!/bin/sh\n"
      << R"(awk -v lr="$1" -v s="$2" 'BEGIN { l = log(lr) / log(10) + 2; if (l < 0) l = -l;)"
      << R"( printf "{\"utility\": %.17g}\n", 0.9 - 0.02 * s - 0.1 * l }')"
      << "\n";
  fs::permissions(dir / "oracle.sh", fs::perms::owner_all);
}

// The epsilon column of an evaluations.csv.
std::vector<double> epsilons(const fs::path& csv) {
  std::istringstream in(read_text(csv));
  std::string line;
  std::getline(in, line);
  std::vector<double> out;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    REQUIRE(cells.size() > 7);
    REQUIRE(cells[2] == "ok");
    out.push_back(std::stod(cells[7]));  // id, phase, status, lr, epochs, batch, sigma, epsilon
  }
  return out;
}

}  // namespace

TEST_CASE("explore --known-epsilon: refused in one line where epsilon needs training or a slow accountant") {
  const auto dir = known_epsilon_cli_root.dir("refused");
  const auto pld = run_cli("explore --problem adult-logreg-sgd --known-epsilon --budget 40 --out run", dir);
  CHECK(pld.status == 2);
  CHECK(pld.output.find("--known-epsilon: problem adult-logreg-sgd cannot compute epsilon inside the acquisition: "
                        "its pld accountant") != std::string::npos);
  write_declaring_oracle(dir, false);
  const auto undeclared =
      run_cli("explore --space space.json --oracle-cmd './oracle.sh {lr} {sigma}' --known-epsilon --out run", dir);
  CHECK(undeclared.status == 2);
  CHECK(undeclared.output.find("declare how it is accounted in the space file's \"known_epsilon\"") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(dir / "run"));
}

TEST_CASE("explore --known-epsilon: an external oracle's declared DP-SGD, explored, resumed, within the reference") {
  const auto dir = known_epsilon_cli_root.dir("declared");
  write_declaring_oracle(dir, true);
  const auto explored = run_cli(
      "explore --space space.json --oracle-cmd './oracle.sh {lr} {sigma}' --known-epsilon --init 4 --budget 12 "
      "--seed 3 --study s.db --out run",
      dir);
  REQUIRE_MESSAGE(explored.status == 0, explored.output);
  const auto resumed = run_cli("explore --study s.db --budget 15 --trust-study-command", dir);
  REQUIRE_MESSAGE(resumed.status == 0, resumed.output);
  CHECK(nlohmann::json::parse(read_text(dir / "run" / "summary.json")).value("known_epsilon", false));
  const auto eps = epsilons(dir / "run" / "evaluations.csv");
  CHECK(eps.size() == 15);
  for (double e : eps) {
    CHECK(e > 0);
    CHECK(e <= 10);  // the reference: about half of this space lies beyond it
  }
}
