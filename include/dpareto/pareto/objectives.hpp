#pragma once
// The objectives of a run (DESIGN.md §2, §3.7), described once: records, CSV columns, the study's
// schema, summary.json and the surrogates are generated from this list. Every objective is
// minimized; its value is read from a record column, as it is (epsilon) or as 1 − it (error =
// 1 − utility). Today's pair is privacy_utility(); a further objective (e.g. training seconds,
// log transform) is one more entry of known_objective().
#include <string>
#include <vector>

#include "dpareto/pareto/objective_transform.hpp"
#include "dpareto/pareto/point.hpp"

namespace dpareto::pareto {

struct Objective {
  std::string name;                           // "epsilon", "error"
  std::vector<std::string> columns;           // record columns it owns: its value's column first, then
                                              // what is recorded beside it ("utility", "utility_min", ...)
  bool complement = false;                    // the objective is 1 − the column (error = 1 − utility)
  Transform surrogate = Transform::identity;  // the GP models surrogate(column value)
  double reference = 1;                       // the anti-ideal value (hypervolume reference)
  bool known_exactly = false;                 // a noiseless oracle: its GP keeps the nugget only

  const std::string& column() const { return columns.front(); }
  // Column value -> objective value (to minimize), and back.
  double from_column(double column_value) const { return complement ? 1.0 - column_value : column_value; }
  double to_column(double objective_value) const { return complement ? 1.0 - objective_value : objective_value; }
  // A surrogate value (the GP's output) -> GP space, oriented so that smaller stays better (and
  // back: an involution). GP space is ±surrogate(column): log ε, −logit u.
  double orient(double surrogate_value) const { return complement ? -surrogate_value : surrogate_value; }
  double to_gp(double column_value) const { return orient(forward(surrogate, column_value)); }
  double from_gp(double gp_value) const { return inverse(surrogate, orient(gp_value)); }  // -> column value
};

struct Objectives {
  std::vector<Objective> list;

  // (epsilon, error): epsilon (with delta beside it) on a log GP, known exactly; error = 1 − utility
  // (with utility_min, utility_max beside it) on a logit GP of the utility, noisy.
  static Objectives privacy_utility(double reference_epsilon = 10, double reference_error = 1);
  // privacy_utility() followed by the named further objectives (known_objective()).
  static Objectives with(const std::vector<std::string>& further_names, const Point& reference);
  // privacy_utility() followed by the given further objectives (known_objective() or declared_objective()).
  static Objectives with_further(const std::vector<Objective>& further, const Point& reference);

  std::size_t size() const { return list.size(); }
  const Objective& operator[](std::size_t i) const { return list[i]; }
  Objective& operator[](std::size_t i) { return list[i]; }
  Point reference() const;
  void set_reference(const Point& reference);  // InputError for a size other than size()
  // The utility's GP transform (objective 1, error = 1 − utility): logit, the default, or arcsine;
  // InputError naming `where` for another.
  void set_utility_transform(Transform t, const std::string& where);
  Transform utility_transform() const { return list.at(1).surrogate; }
  std::vector<std::string> names() const;
  std::vector<std::string> columns() const;  // every objective's columns, in order
  // Names of the objectives after the first two (the privacy-utility pair), as summary.json lists them.
  std::vector<std::string> further_names() const;
  // Index of the objective named `name` (InputError naming `where` and the objectives otherwise).
  std::size_t index_of(const std::string& name, const std::string& where) const;
  // Column values (one per objective, its value's column) -> the objective point.
  Point point(const std::vector<double>& column_values) const;
};

// A further objective by name ("train_seconds"); InputError naming the known ones otherwise.
Objective known_objective(const std::string& name);
bool is_known_objective(const std::string& name);

// A further objective an oracle reports under its own name (issue 13 item 2: space.json's
// "objectives"), minimized as it is, its GP on `transform`. The name becomes a record column, so it
// must be a lower-case identifier ([a-z][a-z0-9_]*, at most 40 characters) that no record column
// already uses; InputError naming `where` otherwise.
Objective declared_objective(const std::string& name, Transform transform, double reference, const std::string& where);

}  // namespace dpareto::pareto
