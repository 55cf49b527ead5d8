#pragma once
// Output transforms of the objectives' surrogates (DPareto Sec. 3.2 "A Note on Output Domains"): log for
// epsilon, logit for utility, identity. logit clamps its argument to [margin, 1 − margin] with
// margin = 1e-6 so that utilities of exactly 0 or 1 stay finite (|logit| ≤ 13.8).
#include <string>

namespace dpareto::pareto {

enum class Transform { identity, log, logit };

inline constexpr double kLogitMargin = 1e-6;

double forward(Transform t, double value);  // log: value must be > 0 (clamped at 1e-300)
double inverse(Transform t, double value);
std::string transform_name(Transform t);
// "identity" | "log" | "logit" -> the transform; InputError naming `where` otherwise.
Transform parse_transform(const std::string& name, const std::string& where);
// Why `value` cannot be modelled on `t` ("" when it can): not finite, log of a value <= 0, logit
// outside [0, 1].
std::string transform_domain_problem(Transform t, double value);

}  // namespace dpareto::pareto
