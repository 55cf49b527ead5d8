#include "dpareto/pareto/objectives.hpp"

#include <algorithm>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::pareto {

Objective known_objective(const std::string& name) {
  if (name == "epsilon") return {"epsilon", {"epsilon", "delta"}, false, Transform::log, 10, true};
  if (name == "error") return {"error", {"utility", "utility_min", "utility_max"}, true, Transform::logit, 1, false};
  if (name == "train_seconds") return {"train_seconds", {"train_seconds"}, false, Transform::log, 3600, false};
  throw InputError("objective '" + printable(name) + "': not one of epsilon, error, train_seconds");
}

bool is_known_objective(const std::string& name) {
  return name == "epsilon" || name == "error" || name == "train_seconds";
}

Objective declared_objective(const std::string& name, Transform transform, double reference, const std::string& where) {
  // Columns every record, evaluations.csv or the study's table already has.
  static const char* const reserved[] = {"epsilon",      "delta",    "utility",      "utility_min", "utility_max",
                                         "error",        "seconds",  "id",           "trial",       "completion",
                                         "phase",        "status",   "params",       "started_at",  "finished_at",
                                         "message",      "seed",     "worker",       "objectives",  "unfinished_starts",
                                         "heartbeat_at", "study_id", "train_seconds"};
  const std::string shown = where + ": objective '" + printable(name) + "'";
  const bool identifier = !name.empty() && name.size() <= 40 && name[0] >= 'a' && name[0] <= 'z' &&
                          std::all_of(name.begin(), name.end(), [](char c) {
                            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
                          });
  if (!identifier) throw InputError(shown + ": a name is [a-z][a-z0-9_]*, at most 40 characters");
  if (std::find(std::begin(reserved), std::end(reserved), name) != std::end(reserved))
    throw InputError(shown + ": the name is taken by a column every run has");
  if (const std::string why = transform_domain_problem(transform, reference); !why.empty())
    throw InputError(shown + ": reference " + format_number(reference) + " " + why);
  return {name, {name}, false, transform, reference, false};
}

Objectives Objectives::privacy_utility(double reference_epsilon, double reference_error) {
  return with({}, {reference_epsilon, reference_error});
}

Objectives Objectives::with(const std::vector<std::string>& further_names, const Point& reference) {
  std::vector<Objective> further;
  for (const auto& name : further_names) further.push_back(known_objective(name));
  return with_further(further, reference);
}

Objectives Objectives::with_further(const std::vector<Objective>& further, const Point& reference) {
  Objectives o;
  o.list = {known_objective("epsilon"), known_objective("error")};
  o.list.insert(o.list.end(), further.begin(), further.end());
  for (std::size_t i = 0; i < o.list.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (o.list[j].name == o.list[i].name)
        throw InputError("objectives: '" + printable(o.list[i].name) + "' is listed twice");
  o.set_reference(reference);
  return o;
}

std::size_t Objectives::index_of(const std::string& name, const std::string& where) const {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].name == name) return i;
  std::string known;
  for (const auto& n : names()) known += (known.empty() ? "" : ", ") + n;
  throw InputError(where + ": no objective '" + printable(name) + "' (this run has " + known + ")");
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

void Objectives::set_utility_transform(Transform t, const std::string& where) {
  if (!is_unit_interval_transform(t))
    throw InputError(where + ": the utility's transform must be logit or arcsine, not " + transform_name(t));
  list.at(1).surrogate = t;
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
