#pragma once
// The DPareto loop (DPareto Alg. 2) behind the ask/tell seam, in parts (limbo's shape): k0 random
// settings, then each ask fits the surrogates (surrogates.hpp), builds the improvement region
// (improvement_region.hpp) and maximizes the acquisition (acquisition_registry.hpp) on them
// (maximize.hpp). The random and grid baselines are proposers of their own (make_proposer.hpp).
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/bo/acquisition.hpp"
#include "dpareto/bo/explorer_options.hpp"
#include "dpareto/bo/improvement_region.hpp"
#include "dpareto/bo/proposer.hpp"
#include "dpareto/bo/surrogates.hpp"

namespace dpareto::bo {

class Explorer : public Proposer {
 public:
  // The DPareto loop whatever options.method says (make_proposer chooses by method). InputError for
  // options check_options refuses or an unknown acquisition.
  Explorer(space::Space space, ExplorerOptions options, std::uint64_t seed);

  // Besides the ask counter: the BO ask counter and every GP's hyperparameters (the warm start of
  // the next fit), as "<column>_theta": epsilon_theta, utility_theta, ...
  nlohmann::json state() const override;
  void restore_state(const nlohmann::json& state) override;
  const ExplorerOptions& options() const { return options_; }
  const Acquisition& acquisition() const { return *acquisition_; }

  // The fitted surrogates (after the last BO ask), for figures and `pick --from model`.
  const Surrogates& surrogates() const { return surrogates_; }
  // Fits every GP on the ok observations (used by ask(), and by tools that need surrogates).
  void fit_surrogates();
  // Prediction at unit-cube x from the fitted surrogates.
  GpPrediction predict(const std::vector<double>& unit_x) const { return surrogates_.predict(unit_x); }
  // Acquisition value at unit-cube x for the current data (after fit_surrogates()).
  double acquisition_at(const std::vector<double>& unit_x) const;

 protected:
  // Initial points first (k0 started, and at least 2 ok), then Bayesian optimization.
  std::optional<Suggestion> propose(const std::vector<space::Params>& pending, Rng& rng) override;

 private:
  std::optional<Suggestion> ask_bo(const std::vector<space::Params>& pending, Rng& rng);
  void build_region(const std::vector<space::Params>& pending);

  ExplorerOptions options_;
  int bo_asks_ = 0;
  Surrogates surrogates_;
  ImprovementRegion region_;
  std::unique_ptr<Acquisition> acquisition_;
  std::unique_ptr<Acquisition> fallback_;  // ranks where the acquisition is zero everywhere (EHVI)
};

}  // namespace dpareto::bo
