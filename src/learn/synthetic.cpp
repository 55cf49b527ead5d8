#include "dpareto/learn/synthetic.hpp"

#include <random>

#include "dpareto/core/error.hpp"
#include "dpareto/core/random.hpp"

namespace dpareto::learn {

Split make_gaussian_mixture(const SyntheticSpec& spec, std::uint64_t seed) {
  if (spec.train_size < 1 || spec.test_size < 1 || spec.dimension < 1 || !(spec.separation >= 0))
    throw InputError("synthetic data: sizes and dimension must be positive, separation >= 0");
  Rng rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Eigen::VectorXf u(spec.dimension);
  for (auto& v : u) v = normal(rng);
  u.normalize();
  const Eigen::VectorXf half = u * static_cast<float>(spec.separation / 2);
  auto draw = [&](int n) {
    MatrixF x(n, spec.dimension);
    std::vector<int> y(static_cast<std::size_t>(n));
    std::bernoulli_distribution coin(0.5);
    for (int i = 0; i < n; ++i) {
      y[static_cast<std::size_t>(i)] = coin(rng) ? 1 : 0;
      for (int j = 0; j < spec.dimension; ++j) x(i, j) = normal(rng);
      x.row(i) += (y[static_cast<std::size_t>(i)] ? 1.0f : -1.0f) * half.transpose();
    }
    return Dataset::from_dense(std::move(x), std::move(y), 2);
  };
  Dataset train = draw(spec.train_size);
  Dataset test = draw(spec.test_size);
  return {std::move(train), std::move(test), {}};  // generated: no files
}

}  // namespace dpareto::learn
