// Option noise=calibrated of the DP-training problems (issue 18 item 3): ε as an input.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/problems/registry.hpp"

using namespace dpareto;

namespace {

std::unique_ptr<problems::Problem> calibrated(problems::ProblemOptions extra = {}) {
  problems::ProblemOptions options{{"noise", "calibrated"}, {"repeats", "2"}, {"train_subset", "4000"}};
  options.insert(extra.begin(), extra.end());
  return problems::make_problem("synthetic-logreg-sgd", options);
}

std::string message_of(const problems::ProblemOptions& options) {
  try {
    problems::make_problem("synthetic-logreg-sgd", options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("noise=calibrated: the fourth parameter is the target epsilon, on a log scale") {
  const auto p = calibrated();
  const auto& target = p->space().parameter(3);
  CHECK(target.name == "target_epsilon");
  CHECK(target.scale == space::Scale::log);
  CHECK(target.low == 0.001);
  CHECK(target.high == 10);
  CHECK(p->settings().at("noise").find("target_epsilon in [0.001, 10]") != std::string::npos);
  const auto narrow = calibrated({{"epsilon_min", "0.1"}, {"epsilon_max", "4"}});
  CHECK(narrow->space().parameter(3).low == 0.1);
  CHECK(narrow->space().parameter(3).high == 4);
  // The default problem keeps its noise multiplier and its settings (earlier studies' identity).
  const auto plain = problems::make_problem("synthetic-logreg-sgd", {{"repeats", "1"}});
  CHECK(plain->space().parameter(3).name == "noise_multiplier");
  CHECK(plain->settings().count("noise") == 0);
}

TEST_CASE("noise=calibrated: each point trains with the least noise that meets its target") {
  const auto p = calibrated();
  const auto& dp = dynamic_cast<const problems::DpTrainingProblem&>(*p);
  const int n = dp.data().train.size();
  REQUIRE(n == 4000);
  for (const double target : {0.1, 1.0, 5.0}) {
    CAPTURE(target);
    const space::Params params{3, 64, 0.05, target, 1.0};
    const double eps = p->privacy(params);
    // The PLD calibration rounds σ up, to 1e-7 relative: ε is at the target or just below.
    CHECK(eps <= target);
    CHECK(eps >= target * (1 - 1e-4));
    // The same σ as the calibration asked directly: q = 64/4000, T = 3 · round(4000/64) = 189 steps.
    const double sigma = dp.config(params, 1).noise_multiplier;
    CHECK(sigma == privacy::calibrate_sigma(dp.accountant(), privacy::Sampling::poisson, 64.0 / 4000, 189, target, 1e-5));
    CHECK(p->privacy_upper_bound(params) >= eps);  // RDP at the same σ
  }
  // A tighter target needs more noise; more epochs at the same target need more noise too.
  const auto sigma = [&](double epochs, double target) {
    return dp.config({epochs, 64, 0.05, target, 1.0}, 1).noise_multiplier;
  };
  CHECK(sigma(3, 0.5) > sigma(3, 2.0));
  CHECK(sigma(6, 1.0) > sigma(3, 1.0));
  const auto u = p->utility({3, 64, 0.05, 5.0, 1.0}, 11);
  CHECK(u.utility > 0.8);  // ε = 5 on the Gaussian mixture (Bayes accuracy 0.933)
}

TEST_CASE("noise=calibrated: a target beyond the calibration range trains with its end's noise, and says its epsilon") {
  const auto p = calibrated({{"epsilon_min", "1e-9"}, {"epsilon_max", "1e7"}});
  const auto& dp = dynamic_cast<const problems::DpTrainingProblem&>(*p);
  const space::Params loose{1, 8, 0.05, 1e7, 1.0};  // met even by σ = 0.01
  CHECK(dp.config(loose, 1).noise_multiplier == privacy::kMinNoiseMultiplier);
  CHECK(p->privacy(loose) < 1e7);
  const space::Params tight{3, 2000, 0.05, 1e-8, 1.0};  // missed even by σ = 1e4 (q = 1/2, 6 steps)
  CHECK(dp.config(tight, 1).noise_multiplier == privacy::kMaxNoiseMultiplier);
  CHECK(p->privacy(tight) > 1e-8);
  CHECK(p->privacy(tight) < 1e-3);
}

TEST_CASE("noise=calibrated: bad options and targets name the value") {
  CHECK(message_of({{"noise", "loud"}}).find("noise=loud: expected parameter or calibrated") != std::string::npos);
  CHECK(message_of({{"noise", "calibrated"}, {"epsilon_min", "0"}}).find("epsilon_min=0") != std::string::npos);
  CHECK(message_of({{"noise", "calibrated"}, {"epsilon_min", "2"}, {"epsilon_max", "1"}})
            .find("epsilon_max=1: expected a number above epsilon_min=2") != std::string::npos);
  CHECK(message_of({{"epsilon_max", "5"}}).find("epsilon_max applies only with noise=calibrated") != std::string::npos);
  const auto p = calibrated();
  CHECK_THROWS_WITH_AS(p->privacy({3, 64, 0.05, -1.0, 1.0}), doctest::Contains("target_epsilon=-1"), InputError);
}
