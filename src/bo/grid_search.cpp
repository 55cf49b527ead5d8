#include "dpareto/bo/grid_search.hpp"

namespace dpareto::bo {

GridSearch::GridSearch(space::Space space, int points_per_dimension, std::uint64_t seed)
    : Proposer(std::move(space), seed), cursor_(this->space(), points_per_dimension) {}

std::optional<Suggestion> GridSearch::propose(const std::vector<space::Params>& pending, Rng&) {
  // A resumed run starts the cursor at the first point again and skips what was told.
  for (; auto p = cursor_.current(); cursor_.advance())
    if (!seen(*p, pending)) {
      cursor_.advance();
      return Suggestion{std::move(*p), "grid"};
    }
  return std::nullopt;
}

}  // namespace dpareto::bo
