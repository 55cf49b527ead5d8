#include "dpareto/pareto/objectives.hpp"

#include <algorithm>

#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::pareto {

Objective known_objective(const std::string& name) {
  if (name == "epsilon") return {"epsilon", {"epsilon", "delta"}, false, Transform::log, 10, true};
  if (name == "error") return {"error", {"utility", "utility_min", "utility_max"}, true, Transform::logit, 1, false};
  if (name == "train_seconds") return {"train_seconds", {"train_seconds"}, false, Transform::log, 3600, false};
  throw InputError("objective '" + printable(name) + "': not one of epsilon, error, train_seconds");
}

Objectives Objectives::privacy_utility(double reference_epsilon, double reference_error) {
  return with({}, {reference_epsilon, reference_error});
}

Objectives Objectives::with(const std::vector<std::string>& further_names, const Point& reference) {
  Objectives o;
  std::vector<std::string> names = {"epsilon", "error"};
  names.insert(names.end(), further_names.begin(), further_names.end());
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j)
      if (names[j] == names[i]) throw InputError("objectives: '" + names[i] + "' is listed twice");
    o.list.push_back(known_objective(names[i]));
  }
  o.set_reference(reference);
  return o;
}

Point Objectives::reference() const {
  Point r;
  for (const auto& o : list) r.push_back(o.reference);
  return r;
}

void Objectives::set_reference(const Point& reference) {
  if (reference.size() != list.size())
    throw InputError("reference: " + std::to_string(reference.size()) + " coordinates for " +
                     std::to_string(list.size()) + " objectives");
  for (std::size_t i = 0; i < list.size(); ++i) list[i].reference = reference[i];
}

std::vector<std::string> Objectives::names() const {
  std::vector<std::string> n;
  for (const auto& o : list) n.push_back(o.name);
  return n;
}

std::vector<std::string> Objectives::columns() const {
  std::vector<std::string> c;
  for (const auto& o : list) c.insert(c.end(), o.columns.begin(), o.columns.end());
  return c;
}

std::vector<std::string> Objectives::further_names() const {
  const auto n = names();
  return {n.begin() + std::min<std::size_t>(2, n.size()), n.end()};
}

Point Objectives::point(const std::vector<double>& column_values) const {
  if (column_values.size() != list.size())
    throw InputError("objectives: " + std::to_string(column_values.size()) + " values for " +
                     std::to_string(list.size()) + " objectives");
  Point p(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) p[i] = list[i].from_column(column_values[i]);
  return p;
}

}  // namespace dpareto::pareto
