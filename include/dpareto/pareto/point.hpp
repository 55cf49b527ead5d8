#pragma once
// Objective vectors. All objectives are minimized (DESIGN.md §2).
#include <array>
#include <vector>

namespace dpareto::pareto {

using Point2 = std::array<double, 2>;
using Point3 = std::array<double, 3>;

}  // namespace dpareto::pareto
