#include "dpareto/bo/explorer_options.hpp"

#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"

namespace dpareto::bo {

std::string method_name(Method method) {
  switch (method) {
    case Method::dpareto:
      return "dpareto";
    case Method::random:
      return "random";
    case Method::grid:
      return "grid";
  }
  return "dpareto";
}

std::string reference_mode_name(ReferenceMode mode) {
  return mode == ReferenceMode::estimated ? "estimated" : "fixed";
}

std::string improvement_front_name(ImprovementFront front) {
  return front == ImprovementFront::posterior ? "posterior" : "observed";
}

ImprovementFront parse_improvement_front(const std::string& name, const std::string& where) {
  for (const ImprovementFront f : {ImprovementFront::observed, ImprovementFront::posterior})
    if (improvement_front_name(f) == name) return f;
  throw InputError(where + " '" + name + "': expected observed or posterior");
}

void check_options(const space::Space& space, const ExplorerOptions& options) {
  if (space.dimension() == 0) throw InputError("explorer: the space has no parameters");
  if (options.initial_points < 1 && options.method == Method::dpareto)
    throw InputError("--init must be at least 1, got " + std::to_string(options.initial_points));
  // The ideal point: 0 in every objective (ε, error, seconds), ε's log axis floor on that axis.
  const auto& objectives = options.objectives;
  std::string values, ideal;
  bool worse = true;
  for (std::size_t d = 0; d < objectives.size(); ++d) {
    const double r = objectives[d].reference;
    const double ideal_d = d == 0 && options.axis.kind == pareto::EpsilonAxis::Kind::log10 ? options.axis.floor : 0.0;
    worse = worse && std::isfinite(r) && r > ideal_d;
    values += (d ? "," : "") + format_number(r);
    ideal += (d ? ", " : "") + objectives[d].name + " > " + format_number(ideal_d);
  }
  if (!worse)
    throw InputError("--reference " + values + ": must be strictly worse than the ideal point (" + ideal +
                     ") and finite");
  if (options.dense_candidates < 1 || options.dense_candidates > kMaxDenseCandidates)
    throw InputError("--candidates " + std::to_string(options.dense_candidates) + ": must be in [1, " +
                     std::to_string(kMaxDenseCandidates) + "] (the acquisition's dense stage holds them all)");
  if (!(options.min_spacing >= 0 && options.min_spacing < 1))
    throw InputError("explorer: min_spacing " + format_number(options.min_spacing) +
                     " must be in [0, 1) (a distance on the unit cube)");
  if (options.spacing_shrinks_after < 0)
    throw InputError("explorer: spacing_shrinks_after " + std::to_string(options.spacing_shrinks_after) +
                     " must be >= 0 (0: the spacing never shrinks)");
}

}  // namespace dpareto::bo
