// Issue 22 item 1: the privacy ledger. Two tune runs on the same data compose to the hand-composed
// total of their certificates' curves (1e-9); a cap refuses the third; bad ledgers and caps fail
// cleanly and leave the ledger untouched.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../support/test_support.hpp"
#include "dpareto/privacy/rdp_conversion.hpp"

namespace fs = std::filesystem;
using dpareto::test::read_text;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot ledger_root("dpareto_ledger_test_");

const char* kLedgerCandidates = R"({"problem": "synthetic-logreg-sgd", "candidates": [
    {"epochs": 2, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1},
    {"epochs": 1, "lot_size": 32, "learning_rate": 0.02, "clip_norm": 1}]})";

std::string tune_flags(const fs::path& dir, const fs::path& ledger, const std::string& method, const std::string& out) {
  std::ofstream(dir / "c.json") << kLedgerCandidates;
  return "tune --problem synthetic-logreg-sgd --set train_subset=1500 --set threads=2 --max-epochs 4 --candidates " +
         (dir / "c.json").string() + " --delta 1e-5 --seed 3 --target-epsilon 1 " + method + " --ledger " +
         ledger.string() + " --out " + (dir / out).string();
}

std::pair<std::vector<double>, std::vector<double>> whole_curve(const nlohmann::json& certificate) {
  // The certificate's composed curve: random stopping's is its stopping component; dp-hype's is
  // the vote plus the final training.
  std::vector<double> orders, rdp;
  const auto& components = certificate["components"];
  const bool composed = certificate["method"] == "dp-hype";
  for (const auto& point : components[composed ? 0 : 1]["rdp"]) {
    orders.push_back(point[0].get<double>());
    rdp.push_back(point[1].get<double>());
  }
  if (composed)
    for (std::size_t i = 0; i < rdp.size(); ++i) rdp[i] += components[1]["rdp"][i][1].get<double>();
  return {orders, rdp};
}

}  // namespace

TEST_CASE("ledger: two runs compose as their certificates do by hand; a cap refuses the third") {
  const auto dir = ledger_root.dir("compose");
  const auto ledger = dir / "adult.ledger.json";
  const auto first = run_cli(tune_flags(dir, ledger, "--method random-stopping --mu 4", "a"));
  REQUIRE_MESSAGE(first.status == 0, first.output);
  const auto second = run_cli(tune_flags(dir, ledger, "--method dp-hype --clients 4", "b"));
  REQUIRE_MESSAGE(second.status == 0, second.output);
  CHECK(second.output.find("2 run(s) on this data") != std::string::npos);

  const auto a = nlohmann::json::parse(read_text(dir / "a" / "certificate.json"));
  const auto b = nlohmann::json::parse(read_text(dir / "b" / "certificate.json"));
  const auto [orders, curve_a] = whole_curve(a);
  const auto curve_b = whole_curve(b).second;
  CHECK(dpareto::privacy::rdp_to_epsilon(orders, curve_a, 1e-5).epsilon ==
        doctest::Approx(a["epsilon"].get<double>()).epsilon(1e-12));
  CHECK(dpareto::privacy::rdp_to_epsilon(orders, curve_b, 1e-5).epsilon ==
        doctest::Approx(b["epsilon"].get<double>()).epsilon(1e-12));
  std::vector<double> both(orders.size());
  for (std::size_t i = 0; i < orders.size(); ++i) both[i] = curve_a[i] + curve_b[i];
  const double by_hand = dpareto::privacy::rdp_to_epsilon(orders, both, 1e-5).epsilon;

  const auto show = run_cli("ledger show " + ledger.string() + " --json");
  REQUIRE_MESSAGE(show.status == 0, show.output);
  const auto j = nlohmann::json::parse(show.output);
  CHECK(j["entries"].size() == 2);
  CHECK(j["entries"][0]["outcome"] == (fs::exists(dir / "a" / "model.bin") ? "released" : "nothing released"));
  CHECK(std::abs(j["total"]["epsilon"].get<double>() - by_hand) <= 1e-9);
  CHECK(by_hand < 2.0);  // composed once: less than the sum of the two ε = 1

  // The same ledger by the problem's data (default location) is another file: this one was named.
  const auto cap = run_cli("ledger cap " + ledger.string() + " --epsilon 2 --delta 1e-5");
  REQUIRE_MESSAGE(cap.status == 0, cap.output);
  const std::string before = read_text(ledger);
  const auto third = run_cli(tune_flags(dir, ledger, "--method random-stopping --mu 4", "c"));
  CHECK(third.status == 2);
  CHECK(third.output.find("past its cap 2") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "c"));
  CHECK(read_text(ledger) == before);  // nothing was run, nothing recorded
  const auto forced = run_cli(tune_flags(dir, ledger, "--method random-stopping --mu 4 --exceed-cap", "c"));
  REQUIRE_MESSAGE(forced.status == 0, forced.output);
  CHECK(forced.output.find("warning:") != std::string::npos);
  CHECK(nlohmann::json::parse(run_cli("ledger show " + ledger.string() + " --json").output)["entries"].size() == 3);
}

TEST_CASE("ledger: the default ledger is per dataset, found again by --problem") {
  const auto dir = ledger_root.dir("default");
  std::ofstream(dir / "c.json") << kLedgerCandidates;
  const std::string problem = "--problem synthetic-logreg-sgd --set train_subset=1500 --set threads=2 --max-epochs 4";
  const auto r = run_cli("tune " + problem + " --candidates " + (dir / "c.json").string() +
                         " --delta 1e-5 --seed 3 --target-epsilon 1 --method random-stopping --mu 4 --out " +
                         (dir / "out").string());
  REQUIRE_MESSAGE(r.status == 0, r.output);
  // Another train_subset of the same data shares the ledger (overlapping rows spend the same budget).
  const auto show = run_cli("ledger show --problem synthetic-logreg-sgd --set train_subset=500 --json");
  REQUIRE_MESSAGE(show.status == 0, show.output);
  const auto j = nlohmann::json::parse(show.output);
  CHECK(j["entries"].size() >= 1);
  CHECK(j["file"].get<std::string>().find(std::getenv("DPARETO_LEDGER_DIR")) == 0);
}

TEST_CASE("ledger: corrupt, foreign, or bad caps: one line naming the file or value, exit 2, ledger untouched") {
  const auto dir = ledger_root.dir("bad");
  const auto corrupt = dir / "corrupt.json";
  std::ofstream(corrupt) << "{\"format\": \"dpareto-ledger 1\", \"entries\": [";
  const std::string corrupt_text = read_text(corrupt);
  const auto shown = run_cli("ledger show " + corrupt.string());
  CHECK(shown.status == 2);
  CHECK(shown.output.find(corrupt.string()) != std::string::npos);
  CHECK(std::count(shown.output.begin(), shown.output.end(), '\n') == 1);
  const auto tuned = run_cli(tune_flags(dir, corrupt, "--method random-stopping --mu 4", "out"));
  CHECK(tuned.status == 2);
  CHECK(tuned.output.find("corrupt ledger") != std::string::npos);
  CHECK(read_text(corrupt) == corrupt_text);
  CHECK_FALSE(fs::exists(dir / "out"));

  // A ledger of other data: written for a9a-like files, used with the synthetic problem.
  const auto foreign = dir / "foreign.json";
  std::ofstream(foreign) << R"({"format": "dpareto-ledger 1", "dataset": {"id": "00ff", "description": "other",
      "files": []}, "cap": null, "entries": []})";
  const auto other = run_cli(tune_flags(dir, foreign, "--method random-stopping --mu 4", "out2"));
  CHECK(other.status == 2);
  CHECK(other.output.find("belongs to other data") != std::string::npos);

  for (const std::string value : {"-1", "abc", "0", "inf"}) {
    CAPTURE(value);
    const auto before = read_text(foreign);
    const auto r = run_cli("ledger cap " + foreign.string() + " --epsilon " + value);
    CHECK(r.status == 2);
    CHECK(r.output.find(value) != std::string::npos);
    CHECK(read_text(foreign) == before);
  }
}
