#include "dpareto/bo/random_search.hpp"

namespace dpareto::bo {

RandomSearch::RandomSearch(space::Space space, bool from_prior, std::uint64_t seed)
    : Proposer(std::move(space), seed), from_prior_(from_prior) {}

std::optional<Suggestion> RandomSearch::propose(const std::vector<space::Params>& pending, Rng& rng) {
  return Suggestion{random_unseen(pending, rng, from_prior_), "random"};
}

}  // namespace dpareto::bo
