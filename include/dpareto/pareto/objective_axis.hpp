#pragma once
// The axis on which hypervolume measures epsilon (DESIGN.md §3.2, issue 2): linear, or log10 with
// epsilon clipped below at a declared floor (epsilon spans decades; users care about small ones).
#include <string>

#include "dpareto/pareto/point.hpp"

namespace dpareto::pareto {

struct EpsilonAxis {
  enum class Kind { linear, log10 } kind = Kind::linear;
  double floor = 1e-2;  // log10 axis only: epsilon < floor is measured as floor

  double to_axis(double epsilon) const;  // linear: epsilon; log10: log10(max(epsilon, floor))
  double from_axis(double value) const;  // inverse (log10: 10^value)
  // An objective point (epsilon first) -> axis coordinates (to_axis(epsilon), the others as they are).
  Point map(Point objectives) const {
    objectives[0] = to_axis(objectives[0]);
    return objectives;
  }
  std::string name() const;  // "linear" or "log"
};

}  // namespace dpareto::pareto
