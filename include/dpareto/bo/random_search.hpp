#pragma once
// The random-search baseline: each ask an unseen setting drawn uniformly (or from the space's
// priors) on the unit cube.
#include "dpareto/bo/proposer.hpp"

namespace dpareto::bo {

class RandomSearch : public Proposer {
 public:
  RandomSearch(space::Space space, bool from_prior, std::uint64_t seed);

 protected:
  std::optional<Suggestion> propose(const std::vector<space::Params>& pending, Rng& rng) override;

 private:
  bool from_prior_;
};

}  // namespace dpareto::bo
