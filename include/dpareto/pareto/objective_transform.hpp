#pragma once
// Output transforms of the objectives' surrogates (DPareto Sec. 3.2 "A Note on Output Domains"): log for
// epsilon, logit for utility, identity. logit clamps its argument to [margin, 1 − margin] with
// margin = 1e-6 so that utilities of exactly 0 or 1 stay finite (|logit| ≤ 13.8).
// arcsine: ½ asin(2u − 1) = asin(√u) − π/4 on [0, 1], onto [−π/4, π/4]: the angular transform that
// makes a binomial proportion's variance about constant (1/(4n)) where the logit's blows up at 0
// and 1, and finite there without a margin; its inverse ½(1 + sin 2z) clamps z to [−π/4, π/4]. For
// utilities that sit at 0 or 1 over much of the space (SVT's F1 score).
#include <numbers>
#include <string>

namespace dpareto::pareto {

enum class Transform { identity, log, logit, arcsine };

inline constexpr double kLogitMargin = 1e-6;
inline constexpr double kArcsineBound = std::numbers::pi / 4;  // arcsine maps [0, 1] onto [−bound, bound]

double forward(Transform t, double value);  // log: value must be > 0 (clamped at 1e-300)
double inverse(Transform t, double value);
std::string transform_name(Transform t);
// "identity" | "log" | "logit" | "arcsine" -> the transform; InputError naming `where` otherwise.
Transform parse_transform(const std::string& name, const std::string& where);
// Why `value` cannot be modelled on `t` ("" when it can): not finite, log of a value <= 0, logit or
// arcsine outside [0, 1].
std::string transform_domain_problem(Transform t, double value);
// logit and arcsine: the transforms of a value in [0, 1] (a utility).
bool is_unit_interval_transform(Transform t);

}  // namespace dpareto::pareto
