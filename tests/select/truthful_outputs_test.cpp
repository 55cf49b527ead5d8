// Issue 22 item 3, outputs that cannot mislead: a negative best noisy score is a score, not
// "weights not finite"; propose-test's doubling level is not a utility; DP-HYPE's client-level ε
// accounts for the removed client's noise share.
#include <doctest/doctest.h>

#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../support/test_support.hpp"
#include "dpareto/select/dp_hype.hpp"

namespace fs = std::filesystem;
using namespace dpareto::select;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot truthful_outputs_root("dpareto_truthful_test_");

// D_α(N(m1, v1) ‖ N(0, v2)) in one dimension by quadrature of ∫ p^α q^{1−α}.
double renyi_1d(double alpha, double m1, double v1, double v2) {
  const auto integrand = [&](double x) {
    const double lp = -0.5 * std::log(2 * M_PI * v1) - (x - m1) * (x - m1) / (2 * v1);
    const double lq = -0.5 * std::log(2 * M_PI * v2) - x * x / (2 * v2);
    return std::exp(alpha * lp + (1 - alpha) * lq);
  };
  const double integral = boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
      integrand, -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), 15, 1e-13);
  return std::log(integral) / (alpha - 1);
}

nlohmann::json tune_certificate(const std::string& name, const std::string& flags) {
  const auto dir = truthful_outputs_root.dir(name);
  std::ofstream(dir / "c.json") << R"({"problem": "synthetic-logreg-sgd", "candidates": [
      {"epochs": 2, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1},
      {"epochs": 1, "lot_size": 32, "learning_rate": 0.02, "clip_norm": 1}]})";
  const auto r = run_cli(
      "tune --problem synthetic-logreg-sgd --set train_subset=1500 --set threads=2 --max-epochs 4 "
      "--candidates " +
      (dir / "c.json").string() + " --delta 1e-5 " + flags + " --out " + (dir / "out").string());
  REQUIRE_MESSAGE(r.status == 0, r.output);
  return nlohmann::json::parse(dpareto::test::read_text(dir / "out" / "certificate.json"));
}

}  // namespace

TEST_CASE("DP-HYPE client level: the closed form equals quadrature, and the removed noise share costs more") {
  const std::vector<double> orders{1.5, 2, 3, 5, 9.5, 10, 12};
  for (std::size_t clients : {2, 10}) {
    for (std::size_t candidates : {1, 4}) {
      DpHypeOptions o;
      o.top_k = 1;
      o.sigma = 3;
      const auto rdp = dp_hype_client_removal_rdp(orders, o, clients, candidates);
      const double with = 9, without = 9.0 * double(clients - 1) / double(clients);
      for (std::size_t i = 0; i < orders.size(); ++i) {
        const double a = orders[i];
        CAPTURE(clients);
        CAPTURE(candidates);
        CAPTURE(a);
        if (a >= double(clients)) {  // "with" ‖ "without": the variance mix turns negative
          CHECK(std::isinf(rdp[i]));
          continue;
        }
        // One coordinate carries the vote (shift √k = 1), the other d − 1 only the variance change.
        const double forward = renyi_1d(a, 1, with, without) + double(candidates - 1) * renyi_1d(a, 0, with, without);
        const double backward = renyi_1d(a, 1, without, with) + double(candidates - 1) * renyi_1d(a, 0, without, with);
        CHECK(rdp[i] == doctest::Approx(std::max(forward, backward)).epsilon(1e-7));
        // More than the paper's αk/(2σ²), which ignores the removed noise share.
        CHECK(rdp[i] > a / (2 * 9.0));
      }
    }
  }
}

TEST_CASE("tune: a negative best noisy score is released as a score, never as 'weights not finite'") {
  // ε_s = 1e-4 on about 300 validation rows: noise of scale 10⁴ counts, so scores are often < 0.
  int negative = 0;
  for (int seed = 1; seed <= 8; ++seed) {
    const auto c = tune_certificate("neg" + std::to_string(seed),
                                    "--method random-stopping --mu 1 "
                                    "--score-epsilon 0.0001 --target-epsilon 3 --seed " +
                                        std::to_string(seed));
    if (c["selected"].is_null()) continue;  // K = 0
    const double v = c["validation_utility"].get<double>();
    negative += v < 0;
    CHECK(c["validation_utility_note"].get<std::string>().find("never clamped") != std::string::npos);
  }
  CHECK(negative > 0);
}

TEST_CASE("tune propose-test: the doubling level is reported as such, not as a validation utility") {
  const auto c = tune_certificate("pt",
                                  "--method propose-test --partitions 4 --granularity 0.1 --utility-floor 0.5 "
                                  "--target-epsilon 2 --seed 5");
  CHECK(c["validation_utility"].is_null());
  CHECK(c.contains("utility_reached"));
  if (!c["selected"].is_null())
    CHECK(c["validation_utility_note"].get<std::string>().find("not an accuracy") != std::string::npos);
}

TEST_CASE("tune warns when the released model is no better than the majority class") {
  // Labels independent of the features, 90 % negative: no model beats always answering "negative".
  const auto dir = truthful_outputs_root.dir("majority");
  fs::create_directories(dir / "data" / "adult");
  for (const std::string name : {"a9a", "a9a.t"}) {
    std::ofstream out(dir / "data" / "adult" / name);
    unsigned state = name == "a9a" ? 7u : 11u;
    for (int i = 0; i < 600; ++i) {
      out << (i % 10 == 0 ? "+1" : "-1");
      for (int f = 1; f <= 123; ++f) {
        state = state * 1103515245u + 12345u;
        if ((state >> 16) % 7 == 0) out << " " << f << ":1";
      }
      out << "\n";
    }
  }
  std::ofstream(dir / "c.json") << R"({"problem": "adult-logreg-sgd", "candidates": [
      {"epochs": 1, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1}]})";
  const auto r = run_cli("tune --problem adult-logreg-sgd --data-dir " + (dir / "data").string() +
                         " --set threads=1 --candidates " + (dir / "c.json").string() +
                         " --method grid --target-epsilon 1 --delta 1e-5 --seed 2 --out " + (dir / "out").string());
  REQUIRE_MESSAGE(r.status == 0, r.output);
  const auto c = nlohmann::json::parse(dpareto::test::read_text(dir / "out" / "certificate.json"));
  REQUIRE_FALSE(c["selected"].is_null());
  INFO(r.output);
  CHECK(c["test_utility"].get<double>() <= 0.9);
  CHECK(r.output.find("is not above the majority-class accuracy 0.9") != std::string::npos);
}
