#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include "dpareto/core/random.hpp"
#include "dpareto/gp/gaussian_process.hpp"
#include "dpareto/gp/input_warping.hpp"
#include "likelihood_gradient_check.hpp"

using dpareto::gp::GaussianProcess;
using dpareto::gp::GpOptions;
using dpareto::gp::KumaraswamyWarp;

namespace {

GpOptions warping(bool learn_noise) {
  GpOptions o;
  o.learn_noise = learn_noise;
  o.input_warping = true;
  o.log = [](const std::string&) {};
  return o;
}

// A stationary function of a warped first input, w(x) = 1 − (1 − x^1.5)^0.7 (inside the fitted
// box): slow near x_0 = 0, fast near 1, the shape one stationary lengthscale fits poorly.
double warped_wave(double x0, double x1) {
  return std::sin(12 * (1 - std::pow(1 - std::pow(x0, 1.5), 0.7))) + 0.5 * x1;
}

Eigen::MatrixXd uniform_inputs(dpareto::Rng& rng, int n, int d) {
  std::uniform_real_distribution<double> u(0, 1);
  Eigen::MatrixXd X(n, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) X(i, j) = u(rng);
  return X;
}

}  // namespace

TEST_CASE("Kumaraswamy warp: closed form, identity at a = b = 1, derivatives by finite differences") {
  const Eigen::MatrixXd X = (Eigen::MatrixXd(3, 2) << 0.2, 0.9, 0.5, 0.0, 0.75, 1.0).finished();
  const KumaraswamyWarp identity{Eigen::ArrayXd::Ones(2), Eigen::ArrayXd::Ones(2)};
  const Eigen::MatrixXd same = identity.apply(X);
  // a = b = 1 is the identity, up to the clamp into [1e-6, 1 − 1e-6]
  CHECK((same - X).cwiseAbs().maxCoeff() <= dpareto::gp::kWarpMargin * (1 + 1e-9));
  const KumaraswamyWarp warp{(Eigen::ArrayXd(2) << 2.0, 0.5).finished(), (Eigen::ArrayXd(2) << 3.0, 0.7).finished()};
  const Eigen::MatrixXd w = warp.apply(X);
  CHECK(w(0, 0) == doctest::Approx(1 - std::pow(1 - std::pow(0.2, 2.0), 3.0)).epsilon(1e-12));
  CHECK(w(2, 0) == doctest::Approx(1 - std::pow(1 - std::pow(0.75, 2.0), 3.0)).epsilon(1e-12));
  CHECK(w(0, 1) == doctest::Approx(1 - std::pow(1 - std::pow(0.9, 0.5), 0.7)).epsilon(1e-12));
  CHECK(w(1, 1) >= 0.0);  // x = 0 and x = 1 are clamped inside (0, 1): finite, in [0, 1]
  CHECK(w(2, 1) <= 1.0);
  CHECK(w(0, 0) < w(1, 0));  // monotone
  CHECK(w(1, 0) < w(2, 0));

  Eigen::MatrixXd warped, d_log_a, d_log_b;
  warp.apply_with_derivatives(X, warped, d_log_a, d_log_b);
  CHECK((warped - w).cwiseAbs().maxCoeff() < 1e-15);
  CHECK(d_log_a.allFinite());  // also at the clamped 0 and 1
  CHECK(d_log_b.allFinite());
  // Finite differences inside (0, 1), away from the clamp.
  const Eigen::MatrixXd inner = (Eigen::MatrixXd(3, 2) << 0.2, 0.9, 0.5, 0.05, 0.75, 0.6).finished();
  warp.apply_with_derivatives(inner, warped, d_log_a, d_log_b);
  const double h = 1e-6;
  for (int j = 0; j < 2; ++j) {
    KumaraswamyWarp a_plus = warp, a_minus = warp, b_plus = warp, b_minus = warp;
    a_plus.a(j) *= std::exp(h);
    a_minus.a(j) *= std::exp(-h);
    b_plus.b(j) *= std::exp(h);
    b_minus.b(j) *= std::exp(-h);
    const Eigen::MatrixXd fd_a = (a_plus.apply(inner) - a_minus.apply(inner)) / (2 * h);
    const Eigen::MatrixXd fd_b = (b_plus.apply(inner) - b_minus.apply(inner)) / (2 * h);
    for (int i = 0; i < 3; ++i) {
      CAPTURE(i);
      CAPTURE(j);
      CHECK(d_log_a(i, j) == doctest::Approx(fd_a(i, j)).epsilon(1e-6).scale(1e-6));
      CHECK(d_log_b(i, j) == doctest::Approx(fd_b(i, j)).epsilon(1e-6).scale(1e-6));
    }
  }
}

TEST_CASE("input warping: log-likelihood gradient, warp entries included, matches finite differences") {
  dpareto::Rng rng(29);
  for (bool learn_noise : {true, false}) {
    CAPTURE(learn_noise);
    const Eigen::MatrixXd X = uniform_inputs(rng, 25, 2);
    Eigen::VectorXd y(25);
    for (int i = 0; i < 25; ++i) y(i) = warped_wave(X(i, 0), X(i, 1));
    GaussianProcess gp(warping(learn_noise));
    REQUIRE(gp.theta_size(2) == 8);
    gp.set_theta(Eigen::VectorXd::Zero(8));
    gp.condition(X, y);
    std::uniform_real_distribution<double> u(-1.0, 0.5);
    for (int trial = 0; trial < 4; ++trial) {
      Eigen::VectorXd theta(8);
      for (int i = 0; i < 8; ++i) theta(i) = u(rng);
      theta(3) = std::log(0.01) + u(rng);  // noise well above the nugget where it is learned
      // With the noise at the nugget the warped inputs' covariance is ill-conditioned, and the
      // differences carry its round-off: steps of 1e-4 (at 1e-5, on an Intel Xeon, one warp entry's
      // difference was 1.3e-4 off the gradient, at 1e-4 1.2e-6 off), and a tolerance of 1e-4.
      const Eigen::VectorXd grad = check_likelihood_gradient(gp, theta, 1e-4, 1e-4);
      if (!learn_noise) CHECK(grad(3) == 0.0);
    }
  }
}

TEST_CASE("input warping: no warp equals the plain GP; on a warped function it fits and predicts better") {
  dpareto::Rng rng(31);
  const Eigen::MatrixXd X = uniform_inputs(rng, 40, 2);
  Eigen::VectorXd y(40);
  for (int i = 0; i < 40; ++i) y(i) = warped_wave(X(i, 0), X(i, 1));

  // a = b = 1 is the plain kernel: same likelihood, same predictions.
  GpOptions plain_options = warping(true);
  plain_options.input_warping = false;
  GaussianProcess plain(plain_options), unwarped(warping(true));
  Eigen::VectorXd theta(4), theta_warp = Eigen::VectorXd::Zero(8);
  theta << std::log(0.3), std::log(0.2), 0.0, std::log(0.01);
  theta_warp.head(4) = theta;
  plain.set_theta(theta);
  plain.condition(X, y);
  unwarped.set_theta(theta_warp);
  unwarped.condition(X, y);
  CHECK(unwarped.log_marginal_likelihood(theta_warp, nullptr) ==
        doctest::Approx(plain.log_marginal_likelihood(theta, nullptr)).epsilon(1e-7));
  const Eigen::MatrixXd probe = uniform_inputs(rng, 20, 2);
  Eigen::VectorXd mean_plain, var_plain, mean_unwarped, var_unwarped;
  plain.predict_batch(probe, mean_plain, var_plain);
  unwarped.predict_batch(probe, mean_unwarped, var_unwarped);
  CHECK((mean_plain - mean_unwarped).cwiseAbs().maxCoeff() < 1e-6);
  CHECK((var_plain - var_unwarped).cwiseAbs().maxCoeff() < 1e-6);

  // Fitted: the warped GP's likelihood is at least the plain one's (it contains it), and it
  // predicts better on fresh points.
  dpareto::Rng fit_rng(5);
  plain.fit(X, y, fit_rng);
  GaussianProcess warped(warping(true));
  warped.fit(X, y, fit_rng);
  CHECK(warped.log_marginal_likelihood(warped.theta(), nullptr) >=
        plain.log_marginal_likelihood(plain.theta(), nullptr) - 1e-6);
  const Eigen::MatrixXd fresh = uniform_inputs(rng, 400, 2);
  Eigen::VectorXd truth(400), mean_warped, var_warped;
  for (int i = 0; i < 400; ++i) truth(i) = warped_wave(fresh(i, 0), fresh(i, 1));
  plain.predict_batch(fresh, mean_plain, var_plain);
  warped.predict_batch(fresh, mean_warped, var_warped);
  const double rmse_plain = std::sqrt((mean_plain - truth).squaredNorm() / 400);
  const double rmse_warped = std::sqrt((mean_warped - truth).squaredNorm() / 400);
  MESSAGE("warped wave RMSE: plain ", rmse_plain, ", warped ", rmse_warped);
  CHECK(rmse_warped < rmse_plain);
}
