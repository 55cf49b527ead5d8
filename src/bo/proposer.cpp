#include "dpareto/bo/proposer.hpp"

#include <algorithm>
#include <cmath>

#include "dpareto/core/error.hpp"

namespace dpareto::bo {

Proposer::Proposer(space::Space space, std::uint64_t seed) : space_(std::move(space)), seed_(seed) {}

std::optional<Suggestion> Proposer::ask(const std::vector<space::Params>& pending) {
  // Each ask has its own generator, derived from (seed, ask index): a resumed proposer with its
  // counter restored continues the same random stream.
  Rng rng(derive_seed(seed_, static_cast<std::uint64_t>(asks_)));
  ++asks_;
  return propose(pending, rng);
}

void Proposer::tell(const Observation& observation) {
  if (observation.params.size() != space_.dimension())
    throw InputError("explorer: told a setting with " + std::to_string(observation.params.size()) +
                     " values, the space has " + std::to_string(space_.dimension()));
  observations_.push_back(observation);
}

nlohmann::json Proposer::state() const {
  return {{"asks", asks_}};
}

void Proposer::restore_state(const nlohmann::json& state) {
  try {
    asks_ = state.at("asks").get<int>();
    if (asks_ < 0) throw InputError("explorer state: asks " + std::to_string(asks_) + " is negative");
  } catch (const nlohmann::json::exception& ex) {
    throw InputError(std::string("explorer state: ") + ex.what());
  }
}

int Proposer::ok_count() const {
  return static_cast<int>(
      std::count_if(observations_.begin(), observations_.end(), [](const Observation& o) { return o.ok; }));
}

int Proposer::evaluation_count() const {
  return static_cast<int>(
      std::count_if(observations_.begin(), observations_.end(), [](const Observation& o) { return !o.intermediate; }));
}

bool Proposer::seen(const space::Params& p, const std::vector<space::Params>& pending, double within) const {
  const auto u = space_.to_unit(p);
  auto same = [&](const space::Params& q) {
    const auto v = space_.to_unit(q);
    for (std::size_t i = 0; i < u.size(); ++i)
      if (std::abs(u[i] - v[i]) > within) return false;
    return true;
  };
  return std::any_of(observations_.begin(), observations_.end(),
                     [&](const Observation& o) { return same(o.params); }) ||
         std::any_of(pending.begin(), pending.end(), same);
}

space::Params Proposer::random_unseen(const std::vector<space::Params>& pending, Rng& rng, bool from_prior) const {
  for (int attempt = 0; attempt < 10000; ++attempt) {
    auto p = from_prior ? space_.sample_prior(rng) : space_.sample_uniform(rng);
    if (!seen(p, pending)) return p;
  }
  throw InputError("explorer: no unevaluated setting left in the space (every draw was already evaluated)");
}

}  // namespace dpareto::bo
