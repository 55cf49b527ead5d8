#pragma once
// DP training problems of DPareto Sec. 4: a model trained by DP-SGD / DP-Adam (learn/dp_optimizer)
// on Adult (a9a), MNIST or seeded synthetic data. Parameters, in order: epochs, lot_size,
// learning_rate, noise_multiplier, clip_norm, with the domains of DPareto Table 1 and the
// random-sampling priors of Appx. C Tables 3-4. Privacy: the accountant of the sampler in use at
// δ = 1e-5. Utility: mean test accuracy over R repeats with independent seeds (min and max kept).
//
// Options (all recorded in settings()): train_subset N (the first N examples; 0 = all), max_epochs E (caps the epochs
// domain, so privacy and training agree), repeats R, data_dir, threads, sampling (poisson, the
// default; fixed: fixed-size lots with the Gaussian-specific bound; fixed-general: fixed-size lots
// with WBK19's general bound, as DPareto accounted them); split, proxy_fraction and data_role
// (data_roles.hpp: explore on a public proxy split, tune on the private rest); accountant
// (privacy/accountant.hpp: pld or rdp, the default privacy::kDefaultAccountant); noise
// (`parameter`, the default, or `calibrated`: issue 18 item 3, ε as an input — the fourth
// parameter becomes target_epsilon on [epsilon_min, epsilon_max], default [0.001, 10], log scale, and
// each evaluation trains with the least noise multiplier whose ε by the accountant meets the
// target, so a front over chosen ε values is one search over the other hyperparameters); observe
// (`final`, the default, or `every-epoch`: issue 18 item 2 — each repeat's test accuracy after every
// epoch e < E is kept, and the evaluation reports them as intermediate results of the setting with
// epochs = e, each with its own ε).
#include <memory>

#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/learn/loaders.hpp"
#include "dpareto/learn/network.hpp"
#include "dpareto/problems/data_roles.hpp"
#include "dpareto/problems/problem.hpp"
#include "dpareto/problems/registry.hpp"

namespace dpareto::problems {

enum class DataSource { adult, mnist, synthetic };

struct DpTrainingSpec {
  std::string name;
  DataSource data = DataSource::adult;
  learn::Architecture architecture;
  learn::Optimizer optimizer = learn::Optimizer::sgd;
};

class DpTrainingProblem : public Problem {
 public:
  // Loads the data and validates the options; throws InputError on unknown or bad options.
  DpTrainingProblem(DpTrainingSpec spec, const ProblemOptions& options);

  std::string name() const override { return spec_.name; }
  const space::Space& space() const override { return space_; }
  double delta() const override { return 1e-5; }
  double privacy(const space::Params& params) const override;
  double privacy_upper_bound(const space::Params& params) const override;  // by RDP (>= the PLD ε)
  // By RDP on privacy::search_orders() (about 0.5 ms a setting; >= privacy() with the RDP
  // accountant, and equal to it above ε = 0.1 on Adult). An obstacle with the PLD accountant (RDP is
  // 10–50 % above its ε) or noise=calibrated (each setting is calibrated).
  double search_privacy(const space::Params& params) const override;
  std::string known_privacy_obstacle() const override;
  UtilityResult utility(const space::Params& params, std::uint64_t seed) const override;
  // With observe=every-epoch, `go_on` is asked after each epoch but the last two, with the repeats'
  // mean accuracy and the next epoch's ε; a stopped training's final result is its last epoch's.
  UtilityResult utility_until(const space::Params& params, std::uint64_t seed, const GoOn& go_on) const override;
  std::string early_stop_obstacle() const override {
    return every_epoch_ ? "" : "it observes the final epoch only; add --set observe=every-epoch";
  }
  std::optional<double> baseline_utility() const override;  // majority class of train, on test
  std::string utility_name() const override { return "test accuracy"; }
  std::map<std::string, std::string> settings() const override { return settings_; }

  // The training configuration a point of the space stands for (lot size capped at n).
  learn::TrainConfig config(const space::Params& params, int threads) const;
  const learn::Split& data() const { return data_; }
  DataSource data_source() const { return spec_.data; }
  // The model trained by every evaluation, and the thread count of option `threads` (used by
  // `dpareto tune` to train single models on its own row splits).
  const learn::Network& network() const { return net_; }
  // What identifies the private training data for the privacy ledger: the SHA-256 of every file
  // the training rows came from (whatever the train_subset: overlapping subsets share a ledger),
  // or the generator's description for generated data.
  struct DataIdentity {
    std::string description;
    std::vector<std::pair<std::string, std::string>> files;  // (file name, SHA-256)
    std::string id;                                          // SHA-256 over the above
  };
  const DataIdentity& data_identity() const { return identity_; }
  int threads() const { return threads_; }
  // Which training rows this problem uses and their declared role (data_roles.hpp), and a one-line
  // statement of every split's role for commands to print.
  const DataRoles& data_roles() const { return roles_; }
  privacy::AccountantKind accountant() const { return accountant_; }
  std::string data_roles_text() const;
  // Option noise=calibrated: the fourth parameter is the target ε, not the noise multiplier.
  bool noise_calibrated() const { return noise_calibrated_; }

 private:
  DpTrainingSpec spec_;
  learn::Split data_;
  learn::Network net_;
  space::Space space_;
  int repeats_ = 10;
  int threads_ = 1;
  privacy::Sampling sampling_ = privacy::Sampling::poisson;
  privacy::AccountantKind accountant_ = privacy::kDefaultAccountant;
  bool noise_calibrated_ = false;
  bool every_epoch_ = false;  // observe=every-epoch: each epoch's utility is an intermediate result
  DataRoles roles_;
  DataIdentity identity_;
  std::map<std::string, std::string> settings_;

  DataIdentity identify_data() const;  // hashes the training files (needs settings_["dataset"])
  // The least noise multiplier whose ε meets `target` for the epochs and lot size of `c`, within
  // privacy::calibrate_sigma's range [0.01, 1e4] (an end of the range when the target lies beyond).
  double calibrated_noise(const learn::TrainConfig& c, double target) const;
};

}  // namespace dpareto::problems
