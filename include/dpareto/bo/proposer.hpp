#pragma once
// The ask/tell seam (Optuna's shape): a proposer suggests the next setting, whoever evaluates it
// tells the outcome. The DPareto loop (explorer.hpp) and the random and grid baselines
// (random_search.hpp, grid_search.hpp) are proposers; make_proposer.hpp picks one by method.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/core/go_on.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/space/space.hpp"

namespace dpareto::bo {

// One proposal.
struct Suggestion {
  space::Params params;
  std::string phase;  // init | bo | random | grid
};

// What a told observation was.
struct Observation {
  space::Params params;
  bool ok = false;
  std::vector<double> values;  // ok: one per objective, as its record column holds it (epsilon, utility, ...)
  bool intermediate = false;  // measured during another evaluation (a training's earlier epoch): no proposal of its own
  double seconds = 0;         // the evaluation's wall time (what the cost-aware acquisition predicts)
};

// Timing breakdown of ask() (seconds, cumulative); zero for the baselines.
struct AskTimings {
  double gp_fit = 0, acquisition = 0;
  int asks = 0;
};

class Proposer {
 public:
  Proposer(space::Space space, std::uint64_t seed);
  virtual ~Proposer() = default;

  // Next setting to evaluate, given everything told so far and the `pending` settings being
  // evaluated now. Never an already-evaluated or pending setting; std::nullopt when none is left
  // (an exhausted grid). Each ask draws from its own generator, derived from (seed, ask index).
  std::optional<Suggestion> ask(const std::vector<space::Params>& pending = {});
  // Records an outcome. Failed evaluations are kept (never proposed again).
  void tell(const Observation& observation);

  const std::vector<Observation>& observations() const { return observations_; }
  const space::Space& space() const { return space_; }
  int asks() const { return asks_; }
  const AskTimings& timings() const { return timings_; }

  // Everything a resumed proposer needs beyond the told observations (the ask counter, and what a
  // method adds). Told the same observations and restored to the same state, a seeded proposer
  // proposes exactly what the uninterrupted one would have.
  virtual nlohmann::json state() const;
  virtual void restore_state(const nlohmann::json& state);
  // The early-stopping rule of an evaluation starting now (study::Proposer::go_on); none by default.
  virtual GoOn go_on() const { return {}; }

 protected:
  virtual std::optional<Suggestion> propose(const std::vector<space::Params>& pending, Rng& rng) = 0;
  // The setting is already evaluated or pending: an evaluated or pending unit-cube point lies
  // within `within` of it (max norm; the default: the same point up to round-off).
  bool seen(const space::Params& p, const std::vector<space::Params>& pending, double within = 1e-9) const;
  // A random setting not yet seen (uniform, or from the space's priors).
  space::Params random_unseen(const std::vector<space::Params>& pending, Rng& rng, bool from_prior) const;
  int ok_count() const;
  // The told observations that were proposals of their own (not intermediate results).
  int evaluation_count() const;
  std::uint64_t seed() const { return seed_; }

  AskTimings timings_;

 private:
  space::Space space_;
  std::uint64_t seed_;
  std::vector<Observation> observations_;
  int asks_ = 0;
};

}  // namespace dpareto::bo
