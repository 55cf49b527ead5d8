#pragma once
// A seeded synthetic binary task so that problems and tests run without data files: a mixture of
// two isotropic Gaussians N(±(s/2)u, I) in `dimension` dimensions, u a random unit vector, classes
// equally likely. The Bayes accuracy is Φ(s/2) (93.3% at the default s = 3).
#include <cstdint>

#include "dpareto/learn/loaders.hpp"

namespace dpareto::learn {

struct SyntheticSpec {
  int train_size = 20000;
  int test_size = 5000;
  int dimension = 20;
  double separation = 3.0;  // s: distance between the two class means
};

Split make_gaussian_mixture(const SyntheticSpec& spec, std::uint64_t seed);

}  // namespace dpareto::learn
