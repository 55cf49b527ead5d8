#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/gp/gaussian_process.hpp"
#include "likelihood_gradient_check.hpp"

using dpareto::gp::GaussianProcess;
using dpareto::gp::GpOptions;

namespace {

// Matérn 5/2 written out independently of the library.
double matern(double r, double s2) {
  return s2 * (1 + std::sqrt(5.0) * r + 5 * r * r / 3) * std::exp(-std::sqrt(5.0) * r);
}

GpOptions quiet(bool learn_noise) {
  GpOptions o;
  o.learn_noise = learn_noise;
  o.log = [](const std::string&) {};
  return o;
}

struct Data {
  Eigen::MatrixXd X;
  Eigen::VectorXd y;
};

Data smooth_data(dpareto::Rng& rng, int n, int d, double noise) {
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> g(0, noise);
  Data data{Eigen::MatrixXd(n, d), Eigen::VectorXd(n)};
  for (int i = 0; i < n; ++i) {
    double v = 0;
    for (int j = 0; j < d; ++j) {
      data.X(i, j) = u(rng);
      v += std::sin(3 * (j + 1) * data.X(i, j));
    }
    data.y(i) = 5 + 2 * v + (noise > 0 ? g(rng) : 0);
  }
  return data;
}

}  // namespace

TEST_CASE("GP posterior equals the closed form on two 1-D points") {
  GaussianProcess gp(quiet(true));
  Eigen::MatrixXd X(2, 1);
  X << 0.2, 0.5;
  const Eigen::Vector2d y(1.0, 3.0);  // standardized: mean 2, scale 1, z = (−1, 1)
  const double ell = 0.4, s2 = 1.5, noise = 0.1;
  gp.set_theta(Eigen::Vector3d(std::log(ell), std::log(s2), std::log(noise)));
  gp.condition(X, y);
  REQUIRE(gp.fitted());

  // K = [[s2 + σ², k12], [k12, s2 + σ²]], inverted by hand.
  const double k12 = matern(0.3 / ell, s2), dg = s2 + noise, det = dg * dg - k12 * k12;
  const double xs = 0.3;
  const double k1 = matern(0.1 / ell, s2), k2 = matern(0.2 / ell, s2);
  // K⁻¹ = [[dg, −k12], [−k12, dg]] / det
  const double w1 = (dg * k1 - k12 * k2) / det, w2 = (-k12 * k1 + dg * k2) / det;  // K⁻¹ k*
  const double mean = 2.0 + (w1 * -1.0 + w2 * 1.0);
  const double var = s2 - (k1 * w1 + k2 * w2);
  const auto p = gp.predict(Eigen::VectorXd::Constant(1, xs));
  CHECK(p.mean == doctest::Approx(mean).epsilon(1e-12));
  CHECK(p.variance == doctest::Approx(var).epsilon(1e-12));

  // Log marginal likelihood: −½ zᵀK⁻¹z − ½ log det K − log 2π.
  const double quad = (dg * 1 + dg * 1 - 2 * k12 * (-1.0) * 1.0) / det;
  const double lml = -0.5 * quad - 0.5 * std::log(det) - std::log(2 * M_PI);
  CHECK(gp.log_marginal_likelihood(gp.theta(), nullptr) == doctest::Approx(lml).epsilon(1e-12));
}

TEST_CASE("GP posterior equals a direct solve on three 2-D points, and batch equals single") {
  GaussianProcess gp(quiet(true));
  Eigen::MatrixXd X(3, 2);
  X << 0.1, 0.9, 0.5, 0.5, 0.8, 0.2;
  const Eigen::Vector3d y(0.3, -1.2, 2.0);
  const Eigen::Vector2d ell(0.3, 0.7);
  const double s2 = 0.8, noise = 0.05;
  gp.set_theta((Eigen::VectorXd(4) << std::log(ell(0)), std::log(ell(1)), std::log(s2), std::log(noise)).finished());
  gp.condition(X, y);

  const double m = y.mean(), sd = std::sqrt((y.array() - m).square().mean());
  const Eigen::Vector3d z = (y.array() - m) / sd;
  auto k = [&](const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    return matern(std::sqrt(((a - b).array() / ell.array()).square().sum()), s2);
  };
  Eigen::Matrix3d K;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) K(i, j) = k(X.row(i).transpose(), X.row(j).transpose()) + (i == j ? noise : 0);
  const Eigen::FullPivLU<Eigen::Matrix3d> lu(K);
  Eigen::MatrixXd Q(4, 2);
  Q << 0.3, 0.3, 0.5, 0.5, 0.0, 1.0, 0.95, 0.05;
  Eigen::VectorXd means, vars;
  gp.predict_batch(Q, means, vars);
  for (int q = 0; q < 4; ++q) {
    Eigen::Vector3d ks;
    for (int i = 0; i < 3; ++i) ks(i) = k(X.row(i).transpose(), Q.row(q).transpose());
    const double mean = m + sd * ks.dot(lu.solve(z));
    const double var = sd * sd * (s2 - ks.dot(lu.solve(ks)));
    CHECK(means(q) == doctest::Approx(mean).epsilon(1e-10));
    CHECK(vars(q) == doctest::Approx(var).epsilon(1e-10));
    const auto single = gp.predict(Q.row(q).transpose());
    CHECK(single.mean == doctest::Approx(means(q)).epsilon(1e-13));
    CHECK(single.variance == doctest::Approx(vars(q)).epsilon(1e-13));
  }
  // In steps sharing the cross-covariances: the means from all of them, the variances of some
  // columns (rows 3 and 1 of Q) as the whole batch gives them.
  const Eigen::MatrixXd V = gp.cross_covariance(Q);
  CHECK(V.rows() == 3);
  CHECK(V.cols() == 4);
  const Eigen::VectorXd step_means = gp.mean_from_cross(V);
  const Eigen::VectorXd some = gp.variance_from_cross(V(Eigen::all, std::vector<Eigen::Index>{3, 1}));
  for (int q = 0; q < 4; ++q) CHECK(step_means(q) == doctest::Approx(means(q)).epsilon(1e-13));
  CHECK(some(0) == doctest::Approx(vars(3)).epsilon(1e-13));
  CHECK(some(1) == doctest::Approx(vars(1)).epsilon(1e-13));
  CHECK_THROWS_AS(gp.predict(Eigen::VectorXd::Zero(3)), dpareto::InputError);
  CHECK_THROWS_AS(gp.cross_covariance(Eigen::MatrixXd::Zero(2, 3)), dpareto::InputError);
}

TEST_CASE("log-likelihood gradient matches central finite differences") {
  dpareto::Rng rng(17);
  for (bool learn_noise : {true, false}) {
    CAPTURE(learn_noise);
    const Data data = smooth_data(rng, 25, 3, 0.1);
    GaussianProcess gp(quiet(learn_noise));
    gp.set_theta(Eigen::VectorXd::Zero(5));
    gp.condition(data.X, data.y);
    std::uniform_real_distribution<double> u(-1.5, 0.5);
    for (int trial = 0; trial < 5; ++trial) {
      Eigen::VectorXd theta(5);
      for (int i = 0; i < 5; ++i) theta(i) = u(rng);
      theta(4) = std::log(0.01) + u(rng);  // noise well above the nugget floor
      const Eigen::VectorXd grad = check_likelihood_gradient(gp, theta, 1e-5);
      if (!learn_noise) CHECK(grad(4) == 0.0);  // the noise is fixed at the nugget
    }
  }
}

TEST_CASE("fit improves the likelihood over its start and over random θ") {
  dpareto::Rng rng(23);
  const Data data = smooth_data(rng, 40, 2, 0.05);
  for (bool learn_noise : {true, false}) {
    CAPTURE(learn_noise);
    GaussianProcess gp(quiet(learn_noise));
    gp.fit(data.X, data.y, rng);
    const double fitted = gp.log_marginal_likelihood(gp.theta(), nullptr);
    // The default start (ℓ = 0.5, s² = 1, σ_n² = 0.01) and a grid of alternatives are worse.
    const Eigen::Vector4d start(std::log(0.5), std::log(0.5), 0.0, std::log(0.01));
    CHECK(fitted > gp.log_marginal_likelihood(start, nullptr) + 1.0);
    for (double ell : {0.05, 0.2, 1.0, 3.0})
      for (double s2 : {0.1, 1.0, 10.0}) {
        const Eigen::Vector4d theta(std::log(ell), std::log(ell), std::log(s2), std::log(0.01));
        CHECK(fitted >= gp.log_marginal_likelihood(theta, nullptr) - 1e-6);
      }
    // θ stays in the box, the noise at or above its floor (exactly the nugget when not learned).
    CHECK((gp.theta().head(2).array() >= gp.options().log_lengthscale_low - 1e-12).all());
    CHECK((gp.theta().head(2).array() <= gp.options().log_lengthscale_high + 1e-12).all());
    if (learn_noise)
      CHECK(gp.theta()(3) >= std::log(gp.options().nugget) - 1e-12);
    else
      CHECK(gp.theta()(3) == doctest::Approx(std::log(gp.options().nugget)));
    // A refit from the warm start does not get worse.
    gp.fit(data.X, data.y, rng);
    CHECK(gp.log_marginal_likelihood(gp.theta(), nullptr) >= fitted - 1e-6);
  }
}

TEST_CASE("noiseless fit interpolates its data and is unsure far from it") {
  dpareto::Rng rng(29);
  const Data data = smooth_data(rng, 20, 2, 0.0);
  GaussianProcess gp(quiet(false));
  gp.fit(data.X, data.y, rng);
  Eigen::VectorXd mean, var;
  gp.predict_batch(data.X, mean, var);
  const double scale = std::sqrt((data.y.array() - data.y.mean()).square().mean());
  for (int i = 0; i < data.X.rows(); ++i) {
    CHECK(mean(i) == doctest::Approx(data.y(i)).epsilon(1e-3 * scale / std::abs(data.y(i))));
    CHECK(var(i) < 1e-3 * scale * scale);
  }
  const auto far = gp.predict(Eigen::Vector2d(3.0, -2.0));
  CHECK(far.variance > 0.5 * scale * scale * std::exp(gp.theta()(2)));
}

TEST_CASE("Cholesky jitter escalation: near-duplicate inputs with a ~0 nugget") {
  GpOptions o;
  o.learn_noise = false;
  o.nugget = 1e-300;
  std::vector<std::string> lines;
  o.log = [&](const std::string& line) { lines.push_back(line); };
  const int n = 40;
  Eigen::MatrixXd X(n, 1);
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) {
    X(i, 0) = 0.5 + 1e-9 * (i % 7);
    y(i) = 1.0 + 0.01 * (i % 3);
  }
  GaussianProcess gp(o);
  gp.set_theta(Eigen::Vector3d(0.0, 0.0, 0.0));
  gp.condition(X, y);
  REQUIRE(!lines.empty());
  for (const auto& line : lines) CHECK(line.find("jitter") != std::string::npos);
  const auto p = gp.predict(Eigen::VectorXd::Constant(1, 0.5));
  CHECK(std::isfinite(p.mean));
  CHECK(std::isfinite(p.variance));

  dpareto::Rng rng(1);
  lines.clear();
  gp.fit(X, y, rng);
  CHECK(!lines.empty());
  CHECK(gp.fitted());

  o.max_jitter_retries = 0;
  GaussianProcess strict(o);
  strict.set_theta(Eigen::Vector3d(0.0, 0.0, 0.0));
  CHECK_THROWS_AS(strict.condition(X, y), dpareto::NumericalError);
}

TEST_CASE("GP input validation") {
  GaussianProcess gp(quiet(true));
  dpareto::Rng rng(2);
  CHECK_FALSE(gp.fitted());
  CHECK_THROWS_AS(gp.predict(Eigen::VectorXd::Zero(1)), dpareto::InputError);
  CHECK_THROWS_AS(gp.fit(Eigen::MatrixXd::Zero(3, 2), Eigen::VectorXd::Zero(2), rng), dpareto::InputError);
  Eigen::VectorXd bad = Eigen::VectorXd::Zero(3);
  bad(1) = NAN;
  CHECK_THROWS_AS(gp.fit(Eigen::MatrixXd::Zero(3, 2), bad, rng), dpareto::InputError);
  CHECK_THROWS_AS(gp.condition(Eigen::MatrixXd::Zero(3, 2), Eigen::VectorXd::Zero(3)), dpareto::InputError);
  GpOptions o;
  o.nugget = 0;
  CHECK_THROWS_AS(GaussianProcess{o}, dpareto::InputError);
  // Constant targets are fine (unit scale) and predicted exactly.
  gp.fit(Eigen::MatrixXd::Random(5, 2), Eigen::VectorXd::Constant(5, 3.0), rng);
  CHECK(gp.predict(Eigen::Vector2d(0.1, 0.1)).mean == doctest::Approx(3.0));
}

TEST_CASE("fit is reproducible for a seed (starts run in parallel) and condition keeps θ") {
  dpareto::Rng data_rng(31);
  const Data data = smooth_data(data_rng, 30, 3, 0.1);
  GaussianProcess a(quiet(true)), b(quiet(true));
  dpareto::Rng rng_a(5), rng_b(5);
  a.fit(data.X, data.y, rng_a);
  b.fit(data.X, data.y, rng_b);
  CHECK(a.theta() == b.theta());
  const Eigen::VectorXd theta = a.theta();
  const Data more = smooth_data(data_rng, 35, 3, 0.1);
  a.condition(more.X, more.y);
  CHECK(a.theta() == theta);
  CHECK(a.inputs().rows() == 35);
  CHECK(a.predict(more.X.row(0).transpose()).mean == doctest::Approx(more.y(0)).epsilon(0.2));
}
