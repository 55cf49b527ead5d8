// The accounting pieces of `dpareto tune`: bisection helpers, per-candidate calibration (Koskela &
// Kulkarni Sec. 4.1) and the uniform bound over candidates, against direct accountant calls.
#include <doctest/doctest.h>

#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "dpareto/privacy/composition.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/random_stopping_bound.hpp"
#include "dpareto/select/tuning_accounting.hpp"

using namespace dpareto;
using namespace dpareto::select;

namespace {
learn::TrainConfig config(int epochs, int lot, double sigma = 1) {
  learn::TrainConfig c;
  c.epochs = epochs;
  c.lot_size = lot;
  c.noise_multiplier = sigma;
  c.clip_norm = 1;
  return c;
}
}  // namespace

TEST_CASE("smallest_meeting_target finds the boundary of a decreasing function") {
  const auto f = [](double x) { return 10 / x; };
  const double x = smallest_meeting_target(f, 0.01, 1e4, 2.5, "target");
  CHECK(x == doctest::Approx(4).epsilon(1e-9));
  CHECK(f(x) <= 2.5);
  CHECK(smallest_meeting_target(f, 100, 1e4, 2.5, "target") == 100);  // met at lo already
  CHECK_THROWS_WITH_AS(smallest_meeting_target(f, 0.01, 1, 2.5, "--target-epsilon"),
                       doctest::Contains("--target-epsilon 2.5 is too small"), InputError);
}

TEST_CASE("uniform training curve is the pointwise max and the score adds pure-DP RDP") {
  const auto orders = privacy::default_orders();
  const std::vector<learn::TrainConfig> configs{config(2, 64, 1.5), config(4, 32, 2.0)};
  const auto uniform = uniform_training_rdp(configs, 1600, orders);
  const auto a = privacy::dpsgd_rdp(privacy::Sampling::fixed_size, 64.0 / 1600, 1.5, 50, orders);
  const auto b = privacy::dpsgd_rdp(privacy::Sampling::fixed_size, 32.0 / 1600, 2.0, 200, orders);
  const auto scored = scored_run_rdp(configs, 1600, 0.1, orders);
  for (std::size_t i = 0; i < orders.size(); ++i) {
    CHECK(uniform[i] == std::max(a[i], b[i]));
    CHECK(scored[i] == doctest::Approx(uniform[i] + privacy::pure_dp_rdp(0.1, orders[i])).epsilon(1e-15));
  }
  const auto poisson = stopping_rdp(PoissonStopping{3}, orders, uniform);
  CHECK(poisson == privacy::poisson_stopping_rdp(orders, uniform, 3));
  const auto tnb = stopping_rdp(TruncatedNegativeBinomialStopping{1, 0.2}, orders, uniform);
  CHECK(tnb == privacy::truncated_negative_binomial_stopping_rdp(orders, uniform, 1, 0.2));
}

TEST_CASE("per-candidate sigmas are the smallest meeting the per-candidate target") {
  const auto orders = privacy::default_orders();
  const std::vector<learn::TrainConfig> configs{config(2, 64), config(4, 32), config(2, 64)};
  const auto sigmas = per_candidate_sigmas(configs, 1600, 0.7, 1e-5, orders, privacy::Conversion::improved);
  REQUIRE(sigmas.size() == 3);
  CHECK(sigmas[0] == sigmas[2]);  // same (lot, steps), same σ
  for (std::size_t i = 0; i < 2; ++i) {
    const double q = configs[i].lot_size / 1600.0;
    const long long steps = learn::training_steps(configs[i], 1600);
    CHECK(privacy::dpsgd_epsilon(privacy::Sampling::fixed_size, q, sigmas[i], steps, 1e-5).epsilon <= 0.7);
    CHECK(privacy::dpsgd_epsilon(privacy::Sampling::fixed_size, q, sigmas[i] * (1 - 1e-8), steps, 1e-5).epsilon > 0.7);
    CHECK(sigmas[i] ==
          doctest::Approx(privacy::calibrate_sigma(privacy::Sampling::fixed_size, q, steps, 0.7, 1e-5)).epsilon(1e-8));
  }
}

TEST_CASE("per-candidate epsilon is the largest for which the procedure meets the target") {
  const auto orders = privacy::default_orders();
  const std::vector<learn::TrainConfig> configs{config(2, 64), config(4, 32)};
  const auto total = [&](const std::vector<double>& sigmas) {
    auto with = configs;
    for (std::size_t i = 0; i < sigmas.size(); ++i) with[i].noise_multiplier = sigmas[i];
    const auto curve = stopping_rdp(PoissonStopping{5}, orders, uniform_training_rdp(with, 1600, orders));
    return privacy::rdp_to_epsilon(orders, curve, 1e-5).epsilon;
  };
  const auto cal =
      calibrate_candidate_epsilon(configs, 1600, 1e-5, orders, privacy::Conversion::improved, total, 2.0, "t");
  CHECK(total(cal.sigmas) <= 2.0);
  CHECK(total(cal.sigmas) > 1.999);
  CHECK(cal.candidate_epsilon < 2.0);
  const auto larger = per_candidate_sigmas(configs, 1600, cal.candidate_epsilon * (1 + 1e-7), 1e-5, orders,
                                           privacy::Conversion::improved);
  CHECK(total(larger) > 2.0);
  CHECK_THROWS_AS(
      calibrate_candidate_epsilon(configs, 1600, 1e-5, orders, privacy::Conversion::improved, total, 1e-4, "t"),
      InputError);
}
