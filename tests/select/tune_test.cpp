// dpareto tune, every method end to end: the certificate's ε equals `dpareto account tuning` (random
// stopping) or the privacy module's functions called independently (grid, subsampled,
// propose-test, dp-hype) to 1e-9, the target is met tightly, and bad input fails cleanly.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/privacy/composition.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/pld_accountant.hpp"
#include "dpareto/privacy/random_stopping_bound.hpp"
#include "dpareto/privacy/subsampled_tuning.hpp"
#include "dpareto/select/dp_hype.hpp"
#include "dpareto/select/model_file.hpp"
#include "dpareto/select/propose_test.hpp"
#include "dpareto/select/tuning_data.hpp"
#include "dpareto/select/tuning_pipeline.hpp"

namespace fs = std::filesystem;
using namespace dpareto::select;

using dpareto::test::read_text;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot tune_root("dpareto_tune_test_");

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

// Fixed-size lots (replace-one): the accounting below is recomputed with Sampling::fixed_size.
const char* kProblemFlags =
    "--problem synthetic-logreg-sgd --set train_subset=2000 --set threads=2 --set sampling=fixed --max-epochs 4";

}  // namespace

TEST_CASE("model file round trip and bad files") {
  const auto dir = tune_root.dir("model");
  ModelFile m{"logreg", Eigen::VectorXf(3)};
  m.weights << 1.5f, -2.25f, 3e-7f;
  write_model_file((dir / "m.bin").string(), m);
  const auto back = read_model_file((dir / "m.bin").string());
  CHECK(back.architecture == "logreg");
  REQUIRE(back.weights.size() == 3);
  CHECK(back.weights[2] == 3e-7f);
  CHECK(fs::file_size(dir / "m.bin") == 8 + 4 + 6 + 4 + 12);
  CHECK_FALSE(back.out_major_weights);
  // A file of the earlier magic DPMODEL1 (weights out-major) is read and says so.
  std::string legacy = read_text(dir / "m.bin");
  legacy[7] = '1';
  write_text(dir / "legacy.bin", legacy);
  const auto old = read_model_file((dir / "legacy.bin").string());
  CHECK(old.out_major_weights);
  CHECK(old.weights == back.weights);
  write_text(dir / "bad.bin", "NOTAMODEL");
  CHECK_THROWS_AS(read_model_file((dir / "bad.bin").string()), dpareto::InputError);
  fs::resize_file(dir / "m.bin", 20);
  CHECK_THROWS_AS(read_model_file((dir / "m.bin").string()), dpareto::InputError);
  // An expectation is compared with the header before anything else is read: another network's
  // file is refused by its name or count, whatever follows (issue 24: a 16 GiB file was allocated).
  write_model_file((dir / "mlp.bin").string(), {std::string("ml\0p1\n", 6), Eigen::VectorXf::Zero(4)});
  const ModelExpectation logreg{"logreg", 3, "the problem's network"};
  CHECK_THROWS_WITH_AS(read_model_file((dir / "mlp.bin").string(), &logreg),
                       doctest::Contains("architecture 'ml?p1?' does not match the problem's network 'logreg'"),
                       dpareto::InputError);
  write_model_file((dir / "four.bin").string(), {"logreg", Eigen::VectorXf::Zero(4)});
  CHECK_THROWS_WITH_AS(read_model_file((dir / "four.bin").string(), &logreg), doctest::Contains("4 weights, but"),
                       dpareto::InputError);
  // Non-finite weights are not a model (issue 23: predict accepted NaN weights).
  m.weights[1] = std::numeric_limits<float>::quiet_NaN();
  write_model_file((dir / "nan.bin").string(), m);
  CHECK_THROWS_WITH_AS(read_model_file((dir / "nan.bin").string()), doctest::Contains("weight 1 is not finite"),
                       dpareto::InputError);
}

namespace {

const char* kCandidates = R"({"problem": "synthetic-logreg-sgd", "candidates": [
    {"epochs": 2, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1},
    {"epochs": 2, "lot_size": 64, "learning_rate": 0.01, "clip_norm": 2, "noise_multiplier": 3}]})";
const char* kGridCandidates = R"({"problem": "synthetic-logreg-sgd", "candidates": [
    {"epochs": 2, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1},
    {"epochs": 3, "lot_size": 128, "learning_rate": 0.04, "clip_norm": 1},
    {"epochs": 1, "lot_size": 32, "learning_rate": 0.02, "clip_norm": 1}]})";

struct Tuned {
  nlohmann::json certificate;
  fs::path out;
};

// Runs `dpareto tune` on the candidates and returns the certificate (REQUIREs success).
Tuned run_tune(const std::string& name, const char* candidates, const std::string& flags,
               const std::string& problem_flags = kProblemFlags) {
  const auto dir = tune_root.dir(name);
  write_text(dir / "cands.json", candidates);
  const auto out = dir / "out";
  const auto r = run_cli("tune " + problem_flags + " --candidates " + (dir / "cands.json").string() + " " + flags +
                         " --delta 1e-5 --seed 11 --out " + out.string());
  REQUIRE_MESSAGE(r.status == 0, r.output);
  std::ifstream in(out / "certificate.json");
  return {nlohmann::json::parse(in), out};
}

void check_common(const nlohmann::json& c, const std::string& method, std::size_t candidates, double target) {
  for (const char* key : {"method", "candidates", "selected", "components", "epsilon", "delta", "order", "conversion",
                          "randomness", "validation_utility", "test_utility", "split"})
    CHECK_MESSAGE(c.contains(key), key);
  CHECK(c["method"] == method);
  CHECK(c["candidates"] == candidates);
  CHECK(c["randomness"] == "seeded (not for release)");
  CHECK(c["conversion"] == "improved");
  CHECK(c["epsilon"].get<double>() <= target);
  CHECK(c["epsilon"].get<double>() > 0.999 * target);  // calibrated, not merely below
}

// The candidates' DP-SGD curves recomputed from the certificate's rows and σ values.
std::vector<double> max_dpsgd(const std::vector<std::pair<int, int>>& epochs_lots, int rows_from, int rows_to,
                              const std::vector<double>& sigmas, const std::vector<double>& orders,
                              dpareto::privacy::Sampling sampling) {
  std::vector<double> curve(orders.size(), 0.0);
  for (std::size_t i = 0; i < epochs_lots.size(); ++i) {
    dpareto::learn::TrainConfig c;
    c.epochs = epochs_lots[i].first;
    c.lot_size = epochs_lots[i].second;
    c = extrapolate(c, rows_from, rows_to);
    const auto own = dpareto::privacy::dpsgd_rdp(sampling, double(c.lot_size) / rows_to, sigmas[i],
                                                 dpareto::learn::training_steps(c, rows_to), orders);
    for (std::size_t j = 0; j < orders.size(); ++j) curve[j] = std::max(curve[j], own[j]);
  }
  return curve;
}

double to_epsilon(const std::vector<double>& orders, const std::vector<double>& curve) {
  return dpareto::privacy::rdp_to_epsilon(orders, curve, 1e-5).epsilon;
}

}  // namespace

TEST_CASE("tune random-stopping end to end; epsilon matches account tuning") {
  const auto [c, out] = run_tune("rs", kCandidates, "--method random-stopping --mu 3 --target-epsilon 2");
  check_common(c, "random-stopping", 2, 2);
  const int rows = c["validation"]["rows"].get<int>();
  CHECK(std::abs(rows - 400) < 5 * std::sqrt(2000 * 0.2 * 0.8));  // Bernoulli(0.2) split of 2000 rows
  CHECK(c["validation"]["training_rows"].get<int>() + rows == 2000);
  const auto& base = c["components"][0];
  REQUIRE(base.contains("q"));
  if (!c["selected"].is_null()) {
    CHECK(c["selected"]["noise_multiplier"].get<double>() == c["noise_multiplier"].get<double>());
    CHECK(c["validation_utility"].get<double>() > 0.6);
    CHECK(c["trained_with"]["rows"] == c["validation"]["training_rows"]);
    const auto model = read_model_file((out / "model.bin").string());
    CHECK(model.weights.size() == 21);
  }
  const auto acc =
      run_cli("account tuning --distribution poisson --mu 3 --sampling " + base["sampling"].get<std::string>() +
              " --q " + base["q"].dump() + " --sigma " + base["sigma"].dump() + " --steps " + base["steps"].dump() +
              " --delta 1e-5 --score-epsilon " + c["validation"]["score_epsilon"].dump() + " --json");
  REQUIRE_MESSAGE(acc.status == 0, acc.output);
  const auto j = nlohmann::json::parse(acc.output);
  CHECK(std::abs(j["epsilon"].get<double>() - c["epsilon"].get<double>()) <= 1e-9);
  CHECK(j["order"].get<double>() == c["order"].get<double>());

  // Same seed, same certificate.
  const auto again = run_tune("rs2", kCandidates, "--method random-stopping --mu 3 --target-epsilon 2");
  auto same = again.certificate;
  same["candidate_file"] = c["candidate_file"];
  CHECK(same == c);
  // Nothing that reveals the number of runs K leaves: no run count, no list of drawn candidates
  // (Papernot-Steinke's bound holds only while K stays hidden).
  for (const char* key : {"runs", "drawn_candidates"}) CHECK_FALSE(c.contains(key));
}

TEST_CASE("tune random-stopping with a truncated negative binomial K matches account tuning") {
  const auto [c, out] = run_tune("tnb", kCandidates,
                                 "--method random-stopping --distribution tnb --eta 1 --gamma 0.3 --target-epsilon 2");
  check_common(c, "random-stopping", 2, 2);
  CHECK(c["stopping"]["distribution"] == "tnb");
  const auto& base = c["components"][0];
  const auto acc = run_cli("account tuning --distribution tnb --eta 1 --gamma 0.3 --sampling " +
                           base["sampling"].get<std::string>() + " --q " + base["q"].dump() + " --sigma " +
                           base["sigma"].dump() + " --steps " + base["steps"].dump() +
                           " --delta 1e-5 --score-epsilon " + c["validation"]["score_epsilon"].dump() + " --json");
  REQUIRE_MESSAGE(acc.status == 0, acc.output);
  CHECK(std::abs(nlohmann::json::parse(acc.output)["epsilon"].get<double>() - c["epsilon"].get<double>()) <= 1e-9);
}

TEST_CASE("tune --test-split private releases nothing computed on the test split") {
  const auto [c, out] =
      run_tune("private-test", kCandidates, "--method random-stopping --mu 3 --target-epsilon 2 --test-split private");
  CHECK(c["test_split"] == "private");
  CHECK(c["test_utility"].is_null());
  CHECK(c["test_utility_note"].get<std::string>().find("declared private") != std::string::npos);
  CHECK(c["depends_on"]["test_utility"] == "DP outputs, test split");
  CHECK(c["depends_on"]["epsilon"] == "settings, public sizes");
  const auto pub = run_tune("public-test", kCandidates, "--method random-stopping --mu 3 --target-epsilon 2");
  CHECK(pub.certificate["test_split"] == "public");
  // The same seed releases the same model either way; only the test accuracy differs.
  CHECK(pub.certificate["epsilon"] == c["epsilon"]);
  CHECK(pub.certificate["selected"] == c["selected"]);
  if (!c["selected"].is_null()) CHECK(pub.certificate["test_utility"].is_number());
  const auto bad = run_cli("tune " + std::string(kProblemFlags) +
                           " --candidates x.json --method grid --target-epsilon 1 "
                           "--delta 1e-5 --test-split secret --out " +
                           (tune_root.dir("bad-split") / "o").string());
  CHECK(bad.status == 2);
  CHECK(bad.output.find("--test-split 'secret' is not public or private") != std::string::npos);
}

TEST_CASE("tune grid: per-candidate sigmas, uniform bound recomputed independently") {
  const auto [c, out] = run_tune("grid", kGridCandidates, "--method grid --mu 4 --target-epsilon 3");
  check_common(c, "grid", 3, 3);
  const auto sigmas = c["calibration"]["noise_multipliers"].get<std::vector<double>>();
  REQUIRE(sigmas.size() == 3);
  CHECK(sigmas[0] != sigmas[1]);
  const int n_train = c["validation"]["training_rows"].get<int>();
  const auto orders = dpareto::privacy::default_orders();
  auto curve =
      max_dpsgd({{2, 64}, {3, 128}, {1, 32}}, 2000, n_train, sigmas, orders, dpareto::privacy::Sampling::fixed_size);
  const double score = c["validation"]["score_epsilon"].get<double>();
  for (std::size_t i = 0; i < orders.size(); ++i) curve[i] += dpareto::privacy::pure_dp_rdp(score, orders[i]);
  const auto tuned = dpareto::privacy::poisson_stopping_rdp(orders, curve, 4);
  CHECK(std::abs(to_epsilon(orders, tuned) - c["epsilon"].get<double>()) <= 1e-9);
  // Each candidate alone is (per_candidate_epsilon, δ)-DP with its σ.
  const double per = c["calibration"]["per_candidate_epsilon"].get<double>();
  const auto first = max_dpsgd({{2, 64}}, 2000, n_train, {sigmas[0]}, orders, dpareto::privacy::Sampling::fixed_size);
  CHECK(to_epsilon(orders, first) <= per);
  CHECK(to_epsilon(orders, first) > per * (1 - 1e-6));
}

TEST_CASE("tune defaults: mu = 2.5 x candidates, score noise 0.5 pp of accuracy") {
  const auto [c, out] = run_tune("defaults", kGridCandidates, "--method random-stopping --target-epsilon 3");
  check_common(c, "random-stopping", 3, 3);
  CHECK(c["stopping"]["mu"].get<double>() == 7.5);
  const int rows = c["validation"]["rows"].get<int>();
  CHECK(c["validation"]["score_epsilon"].get<double>() ==
        doctest::Approx(std::min(std::sqrt(2.0) / (0.005 * rows), 0.3)));
  TuningSettings large;
  large.target_epsilon = 100;
  CHECK(effective_score_epsilon(large, 10000) == doctest::Approx(std::sqrt(2.0) / 50));
  TuningSettings s;
  s.target_epsilon = 1;
  CHECK(effective_score_epsilon(s, 100) == 0.1);  // capped at a tenth of the target
  s.score_epsilon = 0.02;
  CHECK(effective_score_epsilon(s, 100) == 0.02);
  CHECK(std::get<PoissonStopping>(effective_stopping(s, 4)).mu == 10);
}

TEST_CASE("tune subsampled variants 1 and 2: Koskela-Kulkarni bounds recomputed independently") {
  const std::string poisson =
      "--problem synthetic-logreg-sgd --set train_subset=2000 --set threads=2 --set sampling=poisson --max-epochs 4";
  double sigma_by_variant[2];
  for (int variant : {1, 2}) {
    CAPTURE(variant);
    const auto [c, out] = run_tune(
        "sub" + std::to_string(variant), kCandidates,
        "--method subsampled --subsample-rate 0.3 --mu 3 --variant " + std::to_string(variant) + " --target-epsilon 2",
        poisson);
    check_common(c, "subsampled", 2, 2);
    const double sigma = c["noise_multiplier"].get<double>();
    const int m = c["rows"]["tuning_training"].get<int>(), n_final = c["rows"]["final_training"].get<int>();
    CHECK(n_final == (variant == 1 ? 2000 - c["rows"]["subsample"].get<int>() : 2000));
    std::vector<double> orders;
    for (int a = 2; a <= 128; ++a) orders.push_back(a);
    auto run = max_dpsgd({{2, 64}}, 2000, m, {sigma}, orders, dpareto::privacy::Sampling::poisson);
    const double score = c["components"][0]["score_epsilon"].get<double>();
    CHECK(score == 0.2);  // the default, √2/(0.005·rows) for ~120 validation rows, capped at target/10
    for (std::size_t i = 0; i < orders.size(); ++i) run[i] += dpareto::privacy::pure_dp_rdp(score, orders[i]);
    const auto tuned = dpareto::privacy::poisson_stopping_rdp(orders, run, 3);
    const auto final_curve = max_dpsgd({{2, 64}}, 2000, n_final, {sigma}, orders, dpareto::privacy::Sampling::poisson);
    std::vector<double> tuned_by(2, 0.0), final_by(2, 0.0);
    tuned_by.insert(tuned_by.end(), tuned.begin(), tuned.end());
    final_by.insert(final_by.end(), final_curve.begin(), final_curve.end());
    std::vector<double> total;
    if (variant == 1) {
      total = dpareto::privacy::subsampled_tuning_rdp(orders, tuned_by, final_by, 0.3);
    } else {
      total = dpareto::privacy::poisson_subsampled_rdp(orders, tuned_by, 0.3);
      for (std::size_t i = 0; i < orders.size(); ++i) total[i] += final_curve[i];
    }
    CHECK(std::abs(to_epsilon(orders, total) - c["epsilon"].get<double>()) <= 1e-9);
    sigma_by_variant[variant - 1] = sigma;
    CHECK(fs::exists(out / "model.bin") == !c["selected"].is_null());
    for (const char* key : {"runs", "drawn_candidates"}) CHECK_FALSE(c.contains(key));
  }
  // Variant 1's joint bound is tighter, so it needs less noise for the same target (K-K Fig. 1, 5).
  CHECK(sigma_by_variant[0] <= sigma_by_variant[1]);
}

TEST_CASE("tune propose-test: data-independent bound composed with the final training") {
  const auto [c, out] = run_tune("pt", kCandidates,
                                 "--method propose-test --partitions 4 --granularity 0.1 --utility-floor 0.5 "
                                 "--tuning-share 0.4 --target-epsilon 3");
  check_common(c, "propose-test", 2, 3);
  CHECK(c["iteration_bound"] == 9);  // M = ceil(0.5/0.1) = 5, 2M − 1
  CHECK(c["iterations"].get<int>() <= 9);
  const auto orders = dpareto::privacy::default_orders();
  ProposeTestOptions o;
  o.partitions = 4, o.granularity = 0.1, o.utility_floor = 0.5, o.epsilon0 = c["epsilon0"].get<double>();
  const auto tuning = propose_test_rdp(o, orders);
  CHECK(to_epsilon(orders, tuning) == doctest::Approx(0.4 * 3).epsilon(1e-8));
  CHECK(c["split"]["tuning_epsilon"].get<double>() == doctest::Approx(1.2).epsilon(1e-8));
  const auto sigmas = c["components"][1]["noise_multipliers"].get<std::vector<double>>();
  auto total = max_dpsgd({{2, 64}, {2, 64}}, 2000, 2000, sigmas, orders, dpareto::privacy::Sampling::fixed_size);
  for (std::size_t i = 0; i < orders.size(); ++i) total[i] += tuning[i];
  CHECK(std::abs(to_epsilon(orders, total) - c["epsilon"].get<double>()) <= 1e-9);
  if (!c["selected"].is_null()) {
    CHECK(c["trained_with"]["rows"] == 2000);
    CHECK(read_model_file((out / "model.bin").string()).weights.size() == 21);
  }
}

TEST_CASE("tune propose-test --accountant pld: tuning in RDP at delta/2 plus the training's PLD at delta/2") {
  const std::string poisson =
      "--problem synthetic-logreg-sgd --set train_subset=2000 --set threads=2 --set sampling=poisson --max-epochs 4";
  const std::string flags =
      "--method propose-test --partitions 4 --granularity 0.1 --utility-floor 0.5 "
      "--tuning-share 0.1 --target-epsilon 1";
  const auto [c, out] = run_tune("pt-pld", kGridCandidates, flags, poisson);
  check_common(c, "propose-test", 3, 1);
  REQUIRE(c["accountant"] == "pld");
  CHECK(c["order"].is_null());
  const auto& split = c["split"];
  CHECK(split["tuning_delta"] == 5e-6);
  CHECK(split["training_delta"] == 5e-6);
  CHECK(
      c["epsilon"].get<double>() ==
      doctest::Approx(split["tuning_epsilon"].get<double>() + split["training_epsilon"].get<double>()).epsilon(1e-12));
  // The tuning part recomputed in RDP at δ/2, the training part by an independent PLD accountant
  // per candidate at δ/2 (the largest).
  const auto orders = dpareto::privacy::default_orders();
  ProposeTestOptions o;
  o.partitions = 4, o.granularity = 0.1, o.utility_floor = 0.5, o.epsilon0 = c["epsilon0"].get<double>();
  CHECK(dpareto::privacy::rdp_to_epsilon(orders, propose_test_rdp(o, orders), 5e-6).epsilon ==
        doctest::Approx(split["tuning_epsilon"].get<double>()).epsilon(1e-12));
  const auto sigmas = c["components"][1]["noise_multipliers"].get<std::vector<double>>();
  const std::pair<int, int> epochs_lots[] = {{2, 64}, {3, 128}, {1, 32}};
  double training = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    dpareto::learn::TrainConfig t;
    t.epochs = epochs_lots[i].first;
    t.lot_size = epochs_lots[i].second;
    dpareto::privacy::PldAccountant pld;
    pld.compose_subsampled_gaussian(dpareto::privacy::Sampling::poisson, t.lot_size / 2000.0, sigmas[i],
                                    dpareto::learn::training_steps(t, 2000));
    training = std::max(training, pld.epsilon(5e-6).epsilon);
  }
  CHECK(training == doctest::Approx(split["training_epsilon"].get<double>()).epsilon(1e-9));
  const auto& final_component = c["components"][1];
  CHECK(final_component["accountant"] == "pld");
  CHECK(final_component["discretization"].get<double>() > 0);
  CHECK(final_component["epsilon_optimistic"].get<double>() <= final_component["epsilon"].get<double>());
  CHECK(final_component["epsilon_optimistic"].get<double>() > 0.99 * final_component["epsilon"].get<double>());
  // Less noise than the RDP accounting of the same run for every candidate.
  const auto rdp = run_tune("pt-rdp", kGridCandidates, flags + " --accountant rdp", poisson).certificate;
  CHECK(rdp["accountant"] == "rdp");
  const auto rdp_sigmas = rdp["components"][1]["noise_multipliers"].get<std::vector<double>>();
  for (std::size_t i = 0; i < 3; ++i) CHECK(sigmas[i] < rdp_sigmas[i]);
}

TEST_CASE("tune dp-hype: record-level vote curve composed with the final training") {
  for (const char* split : {"iid", "label-skew"}) {
    CAPTURE(split);
    const auto [c, out] = run_tune(
        std::string("hype-") + split, kGridCandidates,
        std::string("--method dp-hype --clients 20 --top-k 2 --client-split ") + split + " --target-epsilon 2");
    check_common(c, "dp-hype", 3, 2);
    const double sigma = c["vote_sigma"].get<double>();
    const auto orders = dpareto::privacy::default_orders();
    // αk/σ² (k = 2); label-skewed clients under replace-one: 4αk/σ² (a replaced row can move between
    // two clients, so two votes change).
    const double per_order = std::string(split) == "iid" ? 2 : 8;
    std::vector<double> vote;
    for (double a : orders) vote.push_back(a * per_order / (sigma * sigma));
    CHECK(to_epsilon(orders, vote) == doctest::Approx(1.0).epsilon(1e-8));  // tuning share 0.5 of 2
    const auto sigmas = c["components"][1]["noise_multipliers"].get<std::vector<double>>();
    auto total =
        max_dpsgd({{2, 64}, {3, 128}, {1, 32}}, 2000, 2000, sigmas, orders, dpareto::privacy::Sampling::fixed_size);
    for (std::size_t i = 0; i < orders.size(); ++i) total[i] += vote[i];
    CHECK(std::abs(to_epsilon(orders, total) - c["epsilon"].get<double>()) <= 1e-9);
    CHECK(c["noisy_votes"].size() == 3);
    DpHypeOptions hype;
    hype.top_k = 2;
    hype.sigma = sigma;
    CHECK(c["components"][0]["client_level_epsilon"].get<double>() ==
          doctest::Approx(to_epsilon(orders, dp_hype_client_removal_rdp(orders, hype, 20, 3))).epsilon(1e-12));
    REQUIRE(!c["selected"].is_null());
    CHECK(read_model_file((out / "model.bin").string()).weights.size() == 21);
  }
}

TEST_CASE("tune rejects bad input with one line and writes nothing") {
  const auto dir = tune_root.dir("bad");
  write_text(dir / "empty.json", R"({"problem": "synthetic-logreg-sgd", "candidates": []})");
  write_text(dir / "broken.json", R"({"problem": "synthetic-logreg-sgd", "candidates": [ {"epochs": )");
  write_text(
      dir / "ok.json",
      R"({"problem": "synthetic-logreg-sgd", "candidates": [{"epochs": 1, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1}]})");
  const auto out = dir / "out";
  const std::string ok = "--candidates " + (dir / "ok.json").string();
  const std::pair<std::string, std::string> cases[] = {
      {"--candidates " + (dir / "empty.json").string() + " --method random-stopping --target-epsilon 1", "empty.json"},
      {"--candidates " + (dir / "broken.json").string() + " --method random-stopping --target-epsilon 1",
       "broken.json"},
      {ok + " --method random-stopping --target-epsilon 1e-5", "too small"},
      {ok + " --method grid --target-epsilon 1e-6", "too small"},
      {ok + " --method propose-test --target-epsilon 1e-7", "too small"},
      {ok + " --method dp-hype --top-k 2 --target-epsilon 1", "--top-k 2 is larger than the 1 candidates"},
      {ok + " --method dp-hype --clients 5000 --target-epsilon 1", "--clients 5000 is more than the 2000"},
      {ok + " --method subsampled --target-epsilon 1", "needs Poisson-sampled DP-SGD"},
      {ok + " --method subsampled --variant 3 --target-epsilon 1", "--variant 3"},
      {ok + " --method dp-hype --client-split weird --target-epsilon 1", "--client-split 'weird'"},
      {ok + " --method random-stopping --distribution tnb --eta 1 --target-epsilon 1", "needs --eta and --gamma"},
      {ok + " --method magic --target-epsilon 1", "--method 'magic'"},
      {ok + " --method propose-test --tuning-share 1 --target-epsilon 1", "--tuning-share 1"},
  };
  for (const auto& [args, needle] : cases) {
    const auto r =
        run_cli("tune " + std::string(kProblemFlags) + " " + args + " --delta 1e-5 --seed 1 --out " + out.string());
    CHECK_MESSAGE(r.status != 0, args);
    CHECK_MESSAGE(r.output.find(needle) != std::string::npos, r.output);
    CHECK_MESSAGE(std::count(r.output.begin(), r.output.end(), '\n') == 1, r.output);
    CHECK(!fs::exists(out));
  }
}
