#include "dpareto/pareto/objective_axis.hpp"

#include <algorithm>
#include <cmath>

#include "dpareto/core/error.hpp"

namespace dpareto::pareto {

double EpsilonAxis::to_axis(double epsilon) const {
  if (kind == Kind::linear) return epsilon;
  if (!(floor > 0)) throw InputError("EpsilonAxis: log10 axis floor must be > 0, got " + std::to_string(floor));
  return std::log10(std::max(epsilon, floor));
}

double EpsilonAxis::from_axis(double value) const {
  return kind == Kind::linear ? value : std::pow(10.0, value);
}

std::string EpsilonAxis::name() const {
  return kind == Kind::linear ? "linear" : "log";
}

}  // namespace dpareto::pareto
