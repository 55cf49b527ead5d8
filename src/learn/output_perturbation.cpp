#include "dpareto/learn/output_perturbation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/privacy/analytic_gaussian.hpp"

namespace dpareto::learn {

double output_perturbation_sensitivity(double regularization, int n) {
  if (!(regularization > 0) || n < 1) throw InputError("output perturbation: need regularization > 0 and n >= 1");
  constexpr double lipschitz = 2.0;  // 1 (logistic loss, ‖x‖ <= 1) + γ·(1/γ) (regularizer on the ball)
  return 2.0 * lipschitz / (regularization * n);
}

double output_perturbation_epsilon(const OutputPerturbationConfig& config, int n, double delta) {
  if (!(config.noise > 0)) return std::numeric_limits<double>::infinity();
  return privacy::analytic_gaussian_epsilon(config.noise, delta,
                                            output_perturbation_sensitivity(config.regularization, n));
}

Eigen::VectorXf train_output_perturbation(const Dataset& data, const OutputPerturbationConfig& config,
                                          std::uint64_t seed) {
  if (data.num_classes() != 2) throw InputError("output perturbation: needs a binary dataset");
  if (config.passes < 1) throw InputError("output perturbation: passes must be >= 1");
  const double gamma = config.regularization;
  output_perturbation_sensitivity(gamma, data.size());  // validates γ and n
  MatrixF x;
  data.gather_range(0, data.size(), x);
  if (x.rowwise().norm().maxCoeff() > 1.0f + 1e-5f)
    throw InputError("output perturbation: rows must have L2 norm <= 1 (normalize them first)");
  const double beta = 0.25 + gamma;  // smoothness of the regularized logistic loss
  const double radius = 1.0 / gamma;
  Rng rng(seed);
  Eigen::VectorXf w = Eigen::VectorXf::Zero(x.cols());
  std::vector<int> order(static_cast<std::size_t>(data.size()));
  std::iota(order.begin(), order.end(), 0);
  long long t = 0;
  for (int pass = 0; pass < config.passes; ++pass) {
    std::shuffle(order.begin(), order.end(), rng);
    for (int i : order) {
      ++t;
      const float eta = static_cast<float>(std::min(1.0 / beta, 1.0 / (gamma * static_cast<double>(t))));
      const float s = data.labels()[static_cast<std::size_t>(i)] ? 1.0f : -1.0f;
      const float margin = s * x.row(i).dot(w);
      const float coef = -s / (1.0f + std::exp(margin));  // ∂/∂z log(1 + e^{-s z})
      w = (1.0f - eta * static_cast<float>(gamma)) * w - (eta * coef) * x.row(i).transpose();
      const float norm = w.norm();
      if (norm > radius) w *= static_cast<float>(radius) / norm;
    }
  }
  std::normal_distribution<double> normal(0.0, config.noise);
  for (auto& v : w) v += static_cast<float>(normal(rng));
  return w;
}

double linear_accuracy(const Eigen::VectorXf& w, const Dataset& data) {
  MatrixF x;
  data.gather_range(0, data.size(), x);
  const Eigen::VectorXf z = x * w;
  int correct = 0;
  for (int i = 0; i < data.size(); ++i) correct += (z[i] > 0 ? 1 : 0) == data.labels()[static_cast<std::size_t>(i)];
  return data.size() ? static_cast<double>(correct) / data.size() : 0.0;
}

}  // namespace dpareto::learn
