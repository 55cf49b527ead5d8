#pragma once
// The grid baseline: the space's full grid (points_per_dimension on each scale), in order, each
// setting once; exhausted when every grid point has been evaluated or is pending. The grid is
// walked lazily (space/grid.hpp): only the points proposed are ever built.
#include "dpareto/bo/proposer.hpp"
#include "dpareto/space/grid.hpp"

namespace dpareto::bo {

class GridSearch : public Proposer {
 public:
  GridSearch(space::Space space, int points_per_dimension, std::uint64_t seed);

 protected:
  std::optional<Suggestion> propose(const std::vector<space::Params>& pending, Rng& rng) override;

 private:
  // Every grid point before the cursor has been proposed (it is evaluated or pending).
  space::GridCursor cursor_;
};

}  // namespace dpareto::bo
