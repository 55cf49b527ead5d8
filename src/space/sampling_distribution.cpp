#include "dpareto/space/sampling_distribution.hpp"

#include <cmath>
#include <sstream>

#include "dpareto/core/error.hpp"

namespace dpareto::space {

double SamplingDistribution::sample(Rng& rng) const {
  for (int attempt = 0; attempt < 1000000; ++attempt) {
    double v = 0;
    switch (family) {
      case Family::uniform:
        v = integer_valued
                ? static_cast<double>(std::uniform_int_distribution<long long>(std::llround(a), std::llround(b))(rng))
                : std::uniform_real_distribution<double>(a, b)(rng);
        break;
      case Family::normal:
        v = std::normal_distribution<double>(a, b)(rng);
        break;
      case Family::shifted_exponential:
        v = b + std::exponential_distribution<double>(a)(rng);
        break;
    }
    if (integer_valued) v = std::round(v);
    if (v >= accept_low && v <= accept_high) return v;
  }
  throw Error("sampling distribution " + describe() + " rejected 10^6 draws: accept range too narrow");
}

std::string SamplingDistribution::describe() const {
  std::ostringstream os;
  switch (family) {
    case Family::uniform:
      os << "uniform(a=" << a << ", b=" << b << ")";
      break;
    case Family::normal:
      os << "normal(mean=" << a << ", std=" << b << ")";
      break;
    case Family::shifted_exponential:
      os << "shifted-exponential(rate=" << a << ", shift=" << b << ")";
      break;
  }
  os << " accept [" << accept_low << ", " << accept_high << "]" << (integer_valued ? " integer" : "");
  return os.str();
}

}  // namespace dpareto::space
