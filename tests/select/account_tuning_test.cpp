// `dpareto account tuning --method M` prints what `dpareto tune` certifies (issue 15 item 4): for
// every method, the planned ε, budget split and noise multipliers equal the certificate's exactly
// when given the row counts the certificate records; with the expected row counts (no data
// touched) the plan is close; bad input is one line with exit status 2.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../support/test_support.hpp"

namespace fs = std::filesystem;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot account_tuning_root("dpareto_account_tuning_test_");

const char* kAccountCandidates = R"({"problem": "synthetic-logreg-sgd", "candidates": [
    {"epochs": 2, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1},
    {"epochs": 3, "lot_size": 128, "learning_rate": 0.04, "clip_norm": 1},
    {"epochs": 1, "lot_size": 32, "learning_rate": 0.02, "clip_norm": 1}]})";

std::string problem_flags(const char* sampling) {
  return std::string(
             "--problem synthetic-logreg-sgd --set train_subset=2000 --set threads=2 --max-epochs 4 --set sampling=") +
         sampling;
}

struct Case {
  const char* name;
  const char* sampling;
  std::string flags;  // method flags, shared by tune and account tuning
};

// The σ values the certificate states its runs used, one per candidate.
std::vector<double> certified_sigmas(const nlohmann::json& c) {
  const std::string method = c["method"];
  if (method == "grid") return c["calibration"]["noise_multipliers"].get<std::vector<double>>();
  if (method == "propose-test" || method == "dp-hype")
    return c["components"][1]["noise_multipliers"].get<std::vector<double>>();
  return std::vector<double>(c["candidates"].get<std::size_t>(), c["noise_multiplier"].get<double>());
}

// --rows/--validation-rows/--subsample-rows as the certificate recorded them.
std::string certified_sizes(const nlohmann::json& c) {
  std::string sizes = " --rows " + c["training_rows"].dump();
  if (c.contains("validation")) sizes += " --validation-rows " + c["validation"]["rows"].dump();
  if (c.contains("rows"))
    sizes += " --subsample-rows " + c["rows"]["subsample"].dump() + " --validation-rows " +
             c["rows"]["tuning_validation"].dump();
  return sizes;
}

}  // namespace

TEST_CASE("account tuning --method equals tune's certificate for all five methods") {
  const auto dir = account_tuning_root.dir("same");
  { std::ofstream(dir / "cands.json") << kAccountCandidates; }
  const std::string cands = " --candidates " + (dir / "cands.json").string();
  const Case cases[] = {
      {"random-stopping", "fixed", "--method random-stopping --mu 3 --target-epsilon 2"},
      {"grid", "fixed", "--method grid --mu 4 --target-epsilon 3"},
      {"subsampled-1", "poisson", "--method subsampled --subsample-rate 0.3 --mu 3 --variant 1 --target-epsilon 2"},
      {"subsampled-2", "poisson", "--method subsampled --subsample-rate 0.3 --mu 3 --variant 2 --target-epsilon 2"},
      {"propose-test", "fixed",
       "--method propose-test --partitions 4 --granularity 0.1 --utility-floor 0.5 --tuning-share 0.4 --target-epsilon "
       "3"},
      {"dp-hype", "fixed", "--method dp-hype --clients 20 --top-k 2 --client-split label-skew --target-epsilon 2"},
      {"dp-hype-poisson", "poisson", "--method dp-hype --clients 20 --target-epsilon 2"},
      {"propose-test-pld", "poisson", "--method propose-test --partitions 4 --tuning-share 0.1 --target-epsilon 1"},
  };
  for (const auto& k : cases) {
    CAPTURE(k.name);
    const auto out = dir / k.name;
    const std::string common = problem_flags(k.sampling) + cands + " " + k.flags + " --delta 1e-5";
    const auto tuned = run_cli("tune " + common + " --seed 5 --out " + out.string());
    REQUIRE_MESSAGE(tuned.status == 0, tuned.output);
    std::ifstream in(out / "certificate.json");
    const auto c = nlohmann::json::parse(in);

    const auto planned = run_cli("account tuning " + common + certified_sizes(c) + " --json");
    REQUIRE_MESSAGE(planned.status == 0, planned.output);
    const auto p = nlohmann::json::parse(planned.output);
    CHECK(p["epsilon"].get<double>() == c["epsilon"].get<double>());
    CHECK(p["order"] == c["order"]);  // null when the PLD split gives the total
    if (p.contains("accountant")) CHECK(p["accountant"] == c["accountant"]);
    CHECK(p["split"] == c["split"]);
    CHECK(p["noise_multipliers"].get<std::vector<double>>() == certified_sigmas(c));
    CHECK(p["epsilon"].get<double>() <= 1.000001 * c["target_epsilon"].get<double>());

    // Planned before any split is drawn: the expected sizes give nearly the same plan.
    const auto ahead = run_cli("account tuning " + common + " --json");
    REQUIRE_MESSAGE(ahead.status == 0, ahead.output);
    const auto a = nlohmann::json::parse(ahead.output);
    CHECK(a["epsilon"].get<double>() <= c["target_epsilon"].get<double>());
    CHECK(a["epsilon"].get<double>() > 0.99 * c["target_epsilon"].get<double>());
    const auto sigmas = a["noise_multipliers"].get<std::vector<double>>();
    const auto certified = certified_sigmas(c);
    for (std::size_t i = 0; i < sigmas.size(); ++i) CHECK(sigmas[i] == doctest::Approx(certified[i]).epsilon(0.05));
  }
}

TEST_CASE("account tuning --method prints text and rejects bad input with one line, exit 2") {
  const auto dir = account_tuning_root.dir("bad");
  { std::ofstream(dir / "cands.json") << kAccountCandidates; }
  const std::string common =
      problem_flags("fixed") + " --candidates " + (dir / "cands.json").string() + " --delta 1e-5";
  const auto text = run_cli("account tuning " + common + " --method grid --target-epsilon 3");
  REQUIRE_MESSAGE(text.status == 0, text.output);
  CHECK(text.output.find("grid (planned, as tune would certify): epsilon = ") == 0);
  CHECK(text.output.find("noise multipliers (per candidate): [") != std::string::npos);
  const std::pair<std::string, std::string> cases[] = {
      {" --method grid --target-epsilon 3 --rows 0", "--rows 0 must be >= 1"},
      {" --method random-stopping --target-epsilon 2 --validation-rows 2000", "leaves an empty split"},
      {" --method subsampled --target-epsilon 2", "needs Poisson-sampled DP-SGD"},
      {" --method dp-hype --top-k 4 --target-epsilon 2", "--top-k 4 is larger than the 3 candidates"},
      {" --method magic --target-epsilon 2", "--method 'magic'"},
      {" --method grid --target-epsilon 1e-6", "too small"},
  };
  for (const auto& [args, needle] : cases) {
    const auto r = run_cli("account tuning " + common + args);
    CHECK_MESSAGE(r.status == 2, args);
    CHECK_MESSAGE(r.output.find(needle) != std::string::npos, r.output);
    CHECK_MESSAGE(std::count(r.output.begin(), r.output.end(), '\n') == 1, r.output);
  }
}
