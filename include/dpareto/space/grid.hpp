#pragma once
// The grid of a space (g points per dimension, Space::grid_axis), enumerated lazily in
// lexicographic order, the last parameter fastest: a 30-parameter space's 3^30 points are never
// built, only the ones asked for.
#include <optional>
#include <vector>

#include "dpareto/space/space.hpp"

namespace dpareto::space {

class GridCursor {
 public:
  GridCursor(const Space& space, int points_per_dimension);
  // The grid point under the cursor, std::nullopt past the last one.
  std::optional<Params> current() const;
  void advance();

 private:
  std::vector<std::vector<double>> axes_;
  std::vector<std::size_t> index_;
  bool done_ = false;
};

// Every grid point (for small grids: tests, figures).
std::vector<Params> full_grid(const Space& space, int points_per_dimension);

}  // namespace dpareto::space
