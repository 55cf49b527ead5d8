#include "dpareto/bo/grid_search.hpp"

namespace dpareto::bo {

GridSearch::GridSearch(space::Space space, int points_per_dimension, std::uint64_t seed)
    : Proposer(std::move(space), seed), grid_(this->space().grid(points_per_dimension)) {}

std::optional<Suggestion> GridSearch::propose(const std::vector<space::Params>& pending, Rng&) {
  for (const auto& p : grid_)
    if (!seen(p, pending)) return Suggestion{p, "grid"};
  return std::nullopt;
}

}  // namespace dpareto::bo
