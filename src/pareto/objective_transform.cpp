#include "dpareto/pareto/objective_transform.hpp"

#include <algorithm>
#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::pareto {

double forward(Transform t, double value) {
  if (std::isnan(value)) throw InputError("output transform " + transform_name(t) + ": value is NaN");
  switch (t) {
    case Transform::identity:
      return value;
    case Transform::log:
      return std::log(std::max(value, 1e-300));
    case Transform::logit: {
      const double p = std::clamp(value, kLogitMargin, 1 - kLogitMargin);
      return std::log(p) - std::log1p(-p);
    }
    case Transform::arcsine:
      return 0.5 * std::asin(2 * std::clamp(value, 0.0, 1.0) - 1);
  }
  throw InputError("output transform: unknown kind");
}

double inverse(Transform t, double value) {
  switch (t) {
    case Transform::identity:
      return value;
    case Transform::log:
      return std::exp(value);
    case Transform::logit:
      // Sigmoid, written to avoid overflow of exp for large |value|.
      return value >= 0 ? 1 / (1 + std::exp(-value)) : std::exp(value) / (1 + std::exp(value));
    case Transform::arcsine:
      return 0.5 * (1 + std::sin(2 * std::clamp(value, -kArcsineBound, kArcsineBound)));
  }
  throw InputError("output transform: unknown kind");
}

std::string transform_name(Transform t) {
  switch (t) {
    case Transform::identity:
      return "identity";
    case Transform::log:
      return "log";
    case Transform::logit:
      return "logit";
    case Transform::arcsine:
      return "arcsine";
  }
  throw InputError("output transform: unknown kind");
}

Transform parse_transform(const std::string& name, const std::string& where) {
  for (Transform t : {Transform::identity, Transform::log, Transform::logit, Transform::arcsine})
    if (transform_name(t) == name) return t;
  throw InputError(where + ": unknown transform '" + printable(name) + "' (expected identity, log, logit or arcsine)");
}

std::string transform_domain_problem(Transform t, double value) {
  if (!std::isfinite(value)) return "is not a finite number";
  if (t == Transform::log && !(value > 0)) return "must be positive (its surrogate is on a log scale)";
  if (is_unit_interval_transform(t) && !(value >= 0 && value <= 1))
    return "must be in [0, 1] (its surrogate is " + std::string(t == Transform::logit ? "a logit" : "an arcsine") + ")";
  return "";
}

bool is_unit_interval_transform(Transform t) {
  return t == Transform::logit || t == Transform::arcsine;
}

}  // namespace dpareto::pareto
