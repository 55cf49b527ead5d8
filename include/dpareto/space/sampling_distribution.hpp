#pragma once
// The random-sampling distributions of DPareto Appx. C (Tables 3-4): uniform, normal and shifted
// exponential, each with an accept range (rejection sampling) and optionally integer-valued.
#include <string>

#include "dpareto/core/random.hpp"

namespace dpareto::space {

struct SamplingDistribution {
  enum class Family { uniform, normal, shifted_exponential };
  Family family = Family::uniform;
  // uniform: [a, b]; normal: mean a, std b; shifted exponential: rate a (λ, mean 1/λ), shift b.
  // Appx. C writes "λ" for the exponential; we read it as the rate: λ = 10 for the learning rate
  // gives mean 0.1 + shift, inside its accept range, whereas a scale of 10 would almost never be.
  double a = 0;
  double b = 1;
  double accept_low = 0;
  double accept_high = 1;
  bool integer_valued = false;

  // Draws until a value falls in [accept_low, accept_high] (rounded first when integer-valued);
  // throws dpareto::Error after 10^6 rejections (an accept range of negligible mass).
  double sample(Rng& rng) const;
  std::string describe() const;
};

}  // namespace dpareto::space
