#include "dpareto/problems/dp_training_problem.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

#include "dpareto/core/checksum.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/lockstep_runs.hpp"
#include "dpareto/core/parallel_runs.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/core/seconds_since.hpp"
#include "dpareto/core/stop_request.hpp"
#include "dpareto/learn/epoch_accuracies.hpp"
#include "dpareto/learn/synthetic.hpp"
#include "dpareto/privacy/calibration.hpp"

namespace dpareto::problems {
namespace {

using space::Kind;
using space::Parameter;
using space::SamplingDistribution;
using space::Scale;
using Family = SamplingDistribution::Family;

// DPareto Table 1 domains with the Appx. C priors (Table 3 for MNIST, Table 4 for Adult; the
// exponential's λ read as its rate). Adult's learning-rate prior accepts [1e-3, 1e-1] but the
// domain stops at 5e-2: the accept range is clipped to the domain. `max_epochs` and `lot_cap` (the
// training-set size) shrink the epochs and lot-size domains and their priors alike.
std::vector<Parameter> dp_training_parameters(bool mnist, int max_epochs, int lot_cap) {
  const double epochs_hi = std::min(mnist ? 400 : 64, max_epochs);
  const double lot_lo = mnist ? 16 : 8;
  const double lot_hi = std::min(mnist ? 4000 : 512, lot_cap);
  const double lr_lo = mnist ? 1e-3 : 5e-4, lr_hi = mnist ? 0.5 : 5e-2;
  const double clip_hi = mnist ? 12 : 4;
  const double rate = mnist ? 0.5 : 0.1;  // λ of the noise and clipping priors
  auto prior = [](Family f, double a, double b, double lo, double hi, bool integer) {
    return SamplingDistribution{f, a, b, lo, hi, integer};
  };
  return {
      {"epochs", Kind::integer, Scale::linear, 1, epochs_hi, prior(Family::uniform, 1, epochs_hi, 1, epochs_hi, true)},
      {"lot_size", Kind::integer, Scale::linear, lot_lo, lot_hi,
       prior(Family::normal, mnist ? 800 : 128, mnist ? 800 : 64, lot_lo, lot_hi, true)},
      {"learning_rate", Kind::continuous, Scale::log, lr_lo, lr_hi,
       prior(Family::shifted_exponential, 10, 1e-3, 1e-3, mnist ? 0.5 : 5e-2, false)},
      {"noise_multiplier", Kind::continuous, Scale::log, 0.1, 16,
       prior(Family::shifted_exponential, rate, 0.1, 0.1, 16, false)},
      {"clip_norm", Kind::continuous, Scale::log, 0.1, clip_hi,
       prior(Family::shifted_exponential, rate, 0.1, 0.1, clip_hi, false)},
  };
}

learn::Split load(DataSource source, const std::string& data_dir) {
  switch (source) {
    case DataSource::adult:
      return learn::load_adult(learn::resolve_data_dir(data_dir));
    case DataSource::mnist:
      return learn::load_mnist(learn::resolve_data_dir(data_dir));
    case DataSource::synthetic:
      return learn::make_gaussian_mixture({}, 1);
  }
  throw InputError("unknown data source");
}

std::vector<std::string> dp_training_options() {
  return {"train_subset",   "max_epochs", "repeats",    "data_dir", "threads",     "sampling",    "split",
          "proxy_fraction", "data_role",  "accountant", "noise",    "epsilon_min", "epsilon_max", "observe"};
}

}  // namespace

DpTrainingProblem::DpTrainingProblem(DpTrainingSpec spec, const ProblemOptions& options)
    : spec_(std::move(spec)), net_(spec_.architecture) {
  reject_unknown_options(options, dp_training_options(), spec_.name);
  roles_ = parse_data_roles(options, spec_.name);
  const bool mnist = spec_.data == DataSource::mnist;
  const int subset = option_int(options, "train_subset", 0);
  const int max_epochs = option_int(options, "max_epochs", mnist ? 400 : 64);
  repeats_ = option_int(options, "repeats", 10);
  if (repeats_ > 10000) throw InputError("option repeats=" + std::to_string(repeats_) + ": at most 10000");
  threads_ = option_threads(options);
  const std::string data_dir = option_string(options, "data_dir", "");
  // Poisson lots by default: at the same target they need far less noise than fixed-size lots under
  // replace-one (q = 0.01, T = 10^4, epsilon 1: sigma 4.13 with noise L*sigma, against 8.17 with
  // noise 2L*sigma even with the Gaussian-specific bound). sampling=fixed-general is DPareto's own.
  sampling_ = privacy::parse_sampling(option_string(options, "sampling", "poisson"), "option sampling");
  accountant_ =
      privacy::parse_accountant(option_string(options, "accountant", privacy::to_string(privacy::kDefaultAccountant)),
                                spec_.name + ": option accountant");
  if (subset < 0) throw InputError("option train_subset=" + std::to_string(subset) + ": expected >= 0 (0 = all)");
  if (max_epochs < 1) throw InputError("option max_epochs=" + std::to_string(max_epochs) + ": expected >= 1");
  if (repeats_ < 1) throw InputError("option repeats=" + std::to_string(repeats_) + ": expected >= 1");

  data_ = load(spec_.data, data_dir);
  for (const learn::Dataset* part : {&data_.train, &data_.test})
    if (part->dimension() != spec_.architecture.inputs) {
      std::string files;
      for (const auto& f : data_.train_files) files += (files.empty() ? "" : ", ") + f.string();
      throw InputError((files.empty() ? spec_.name : files) + ": examples have " + std::to_string(part->dimension()) +
                       " features, the model " + spec_.architecture.name + " of " + spec_.name + " expects " +
                       std::to_string(spec_.architecture.inputs) + (mnist ? " (28x28 images)" : ""));
    }
  if (roles_.split != TrainingSplit::all) data_.train = data_.train.subset(kept_rows(data_.train.size(), roles_));
  if (subset > 0 && subset < data_.train.size()) {
    // The first N examples (of the split), so every evaluation trains on the same ones.
    std::vector<int> rows(static_cast<std::size_t>(subset));
    std::iota(rows.begin(), rows.end(), 0);
    data_.train = data_.train.subset(rows);
  }
  const int lot_lo = mnist ? 16 : 8;
  if (data_.train.size() < lot_lo)
    throw InputError(subset > 0 ? "option train_subset=" + std::to_string(subset) + ": expected at least " +
                                      std::to_string(lot_lo) + " (the smallest lot)"
                                : spec_.name + ": the training data holds " + std::to_string(data_.train.size()) +
                                      " example(s), fewer than the smallest lot " + std::to_string(lot_lo));
  auto parameters = dp_training_parameters(mnist, max_epochs, data_.train.size());
  const std::string noise = option_string(options, "noise", "parameter");
  if (noise != "parameter" && noise != "calibrated")
    throw InputError(spec_.name + ": option noise=" + printable(noise) + ": expected parameter or calibrated");
  noise_calibrated_ = noise == "calibrated";
  if (noise_calibrated_) {
    const double lo = option_double(options, "epsilon_min", 0.001), hi = option_double(options, "epsilon_max", 10);
    if (!(lo > 0) || !std::isfinite(lo))
      throw InputError(spec_.name + ": option epsilon_min=" + format_number(lo) + ": expected a positive number");
    if (!(hi > lo) || !std::isfinite(hi))
      throw InputError(spec_.name + ": option epsilon_max=" + format_number(hi) +
                       ": expected a number above epsilon_min=" + format_number(lo));
    parameters[3] = {"target_epsilon", space::Kind::continuous, space::Scale::log, lo, hi, std::nullopt};
  } else {
    for (const char* key : {"epsilon_min", "epsilon_max"})
      if (options.count(key)) throw InputError(spec_.name + ": option " + key + " applies only with noise=calibrated");
  }
  space_ = space::Space(std::move(parameters));
  const std::string observe = option_string(options, "observe", "final");
  if (observe != "final" && observe != "every-epoch")
    throw InputError(spec_.name + ": option observe=" + printable(observe) + ": expected final or every-epoch");
  every_epoch_ = observe == "every-epoch";
  if (every_epoch_ && noise_calibrated_)
    throw InputError(spec_.name +
                     ": option observe=every-epoch does not go with noise=calibrated (the noise of an "
                     "earlier epoch was calibrated to another setting's target)");

  settings_ = {{"model", spec_.architecture.name},
               {"optimizer", spec_.optimizer == learn::Optimizer::adam ? "adam" : "sgd"},
               {"dataset", spec_.data == DataSource::adult ? "adult (a9a)"
                           : mnist                         ? "mnist"
                                                           : "synthetic gaussian mixture (seed 1)"},
               {"train_size", std::to_string(data_.train.size())},
               {"test_size", std::to_string(data_.test.size())},
               {"train_subset", subset > 0 ? std::to_string(subset) + " (the first N examples)" : "all"},
               {"max_epochs", std::to_string(static_cast<int>(space_.parameter(0).high))},
               {"repeats", std::to_string(repeats_)},
               {"threads", std::to_string(threads_)},
               {"sampling", privacy::to_string(sampling_)},
               {"accountant", privacy::to_string(accountant_)},
               {"delta", format_number(delta())}};
  if (noise_calibrated_)  // absent by default, so that earlier studies keep their identity
    settings_["noise"] = "calibrated to target_epsilon in [" + format_number(space_.parameter(3).low) + ", " +
                         format_number(space_.parameter(3).high) + "] by the " + privacy::to_string(accountant_) +
                         " accountant";
  if (every_epoch_)  // absent by default, so that earlier studies keep their identity
    settings_["observe"] =
        "every epoch: the utility after each epoch is an observation of the setting with that "
        "many epochs";
  settings_["data_dir"] =
      spec_.data == DataSource::synthetic ? "none (generated data)" : learn::resolve_data_dir(data_dir).string();
  // The data roles, recorded with every run, study and candidate file (issue 17).
  settings_["split"] = to_string(roles_.split);
  if (roles_.split != TrainingSplit::all) settings_["proxy_fraction"] = format_number(roles_.proxy_fraction);
  settings_["data_role"] = roles_.training_role();
  identity_ = identify_data();  // the files are hashed once, here
  settings_["data_id"] = identity_.id;
  settings_["features"] = std::to_string(data_.train.dimension());
  settings_["data_roles"] = data_roles_text();
}

std::string DpTrainingProblem::data_roles_text() const {
  const std::string split =
      roles_.split == TrainingSplit::all
          ? "all training rows"
          : std::string(roles_.split == TrainingSplit::proxy ? "the proxy split" : "the private split") +
                " (proxy_fraction " + format_number(roles_.proxy_fraction) + ")";
  return "training rows: " + std::to_string(data_.train.size()) + " of " + settings_.at("dataset") + ", " + split +
         ", " + roles_.training_role() + (roles_.declared_public ? " (declared by data_role=public)" : "") +
         "; utility and test accuracy: the test split (" + std::to_string(data_.test.size()) + " rows)";
}

DpTrainingProblem::DataIdentity DpTrainingProblem::identify_data() const {
  DataIdentity identity;
  identity.description = settings_.at("dataset");
  // By content alone: the same bytes under another name or directory are the same data.
  std::string all = data_.train_files.empty() ? identity.description + "\n" : "";
  for (const auto& file : data_.train_files) {
    identity.files.emplace_back(file.filename().string(), sha256_file(file));
    all += identity.files.back().second + "\n";
  }
  identity.id = sha256_text(all);
  return identity;
}

learn::TrainConfig DpTrainingProblem::config(const space::Params& params, int threads) const {
  if (params.size() != space_.dimension())
    throw InputError(spec_.name + ": expected " + std::to_string(space_.dimension()) + " parameters, got " +
                     std::to_string(params.size()));
  learn::TrainConfig c;
  c.optimizer = spec_.optimizer;
  c.sampling = sampling_;
  // Range-checked before the conversion: an out-of-range double cast to int is undefined (1e12 came
  // out as -727379968), and the error must echo the value the user wrote.
  const auto whole = [&](std::size_t i) {
    const double v = params[i];
    if (!(v >= 1 && v <= std::numeric_limits<int>::max()))
      throw InputError(spec_.name + ": " + space_.parameter(i).name + "=" + format_number(v) +
                       " is outside [1, 2147483647]");
    return static_cast<int>(std::llround(v));
  };
  c.epochs = whole(0);
  c.lot_size = std::min(whole(1), data_.train.size());
  c.learning_rate = params[2];
  c.clip_norm = params[4];
  c.threads = threads;
  c.noise_multiplier = noise_calibrated_ ? calibrated_noise(c, params[3]) : params[3];
  return c;
}

double DpTrainingProblem::calibrated_noise(const learn::TrainConfig& c, double target) const {
  if (!(target > 0) || !std::isfinite(target))
    throw InputError(spec_.name + ": target_epsilon=" + format_number(target) + ": expected a positive number");
  const int n = data_.train.size();
  // The calibration range's ends: a loose target may be met even by the least noise, and a very
  // tight one (many steps of large lots) not even by the most. Training then uses that end's noise
  // and the point's ε (what privacy() reports) is below, or above, its target.
  learn::TrainConfig end = c;
  end.noise_multiplier = privacy::kMinNoiseMultiplier;
  if (learn::training_epsilon(end, n, delta(), accountant_).epsilon <= target) return privacy::kMinNoiseMultiplier;
  end.noise_multiplier = privacy::kMaxNoiseMultiplier;
  if (learn::training_epsilon(end, n, delta(), accountant_).epsilon > target) return privacy::kMaxNoiseMultiplier;
  const double q = static_cast<double>(c.lot_size) / n;
  return privacy::calibrate_sigma(accountant_, sampling_, q, learn::training_steps(c, n), target, delta());
}

double DpTrainingProblem::privacy(const space::Params& params) const {
  return learn::training_epsilon(config(params, 1), data_.train.size(), delta(), accountant_).epsilon;
}

double DpTrainingProblem::privacy_upper_bound(const space::Params& params) const {
  return learn::training_epsilon(config(params, 1), data_.train.size(), delta(), privacy::AccountantKind::rdp).epsilon;
}

double DpTrainingProblem::search_privacy(const space::Params& params) const {
  static const std::vector<double> orders = privacy::search_orders();
  const learn::TrainConfig c = config(params, 1);
  const int n = data_.train.size();
  return privacy::dpsgd_epsilon(c.sampling, static_cast<double>(c.lot_size) / n, c.noise_multiplier,
                                learn::training_steps(c, n), delta(), orders)
      .epsilon;
}

std::string DpTrainingProblem::known_privacy_obstacle() const {
  if (noise_calibrated_) return "noise=calibrated calibrates every setting's noise (about 0.1 s each)";
  if (accountant_ != privacy::AccountantKind::rdp)
    return std::string("its ") + privacy::to_string(accountant_) +
           " accountant takes milliseconds a setting and RDP bounds it 10-50 % high; add --set accountant=rdp";
  return "";
}

std::optional<double> DpTrainingProblem::baseline_utility() const {
  return data_.test.label_fraction(data_.train.majority_class());
}

UtilityResult DpTrainingProblem::utility(const space::Params& params, std::uint64_t seed) const {
  return utility_until(params, seed, {});
}

UtilityResult DpTrainingProblem::utility_until(const space::Params& params, std::uint64_t seed,
                                               const GoOn& go_on) const {
  const auto start = std::chrono::steady_clock::now();
  const learn::TrainConfig cfg = config(params, threads_);
  // Early stopping (issue 18) weighs each epoch's mean accuracy over the repeats against the next
  // epoch's ε: the repeats then train in lockstep, epoch by epoch (LockstepRuns), each epoch scored as
  // it ends. The last epoch has no next to weigh.
  const bool lockstep = every_epoch_ && go_on && cfg.epochs > 2;
  std::vector<double> acc(static_cast<std::size_t>(repeats_));
  std::vector<char> diverged(static_cast<std::size_t>(repeats_), 0);
  const double floor = *baseline_utility();
  std::vector<std::string> errors(static_cast<std::size_t>(repeats_));
  // Every epoch's test accuracy per repeat, when observed (observe=every-epoch), and the seconds
  // from the repeat's start to that epoch's end and to its own end.
  std::vector<std::vector<double>> epoch_acc(static_cast<std::size_t>(repeats_));
  std::vector<std::vector<double>> epoch_seconds(static_cast<std::size_t>(repeats_));
  std::vector<double> repeat_seconds(static_cast<std::size_t>(repeats_), 0.0);
  // Each intermediate result's ε, by one accounting of all epoch counts (Problem::evaluate would
  // account each separately); before the training, which early stopping consults.
  const std::vector<privacy::EpsilonResult> epsilons =
      every_epoch_ ? learn::epoch_epsilons(cfg, data_.train.size(), delta(), accountant_)
                   : std::vector<privacy::EpsilonResult>{};
  std::vector<double> lockstep_seconds;  // lockstep: from the start to the end of each epoch of all repeats
  int stopped_after = 0;                 // the epoch go_on stopped the training at (0: none)
  std::atomic<int> interrupted{0};
  const auto train_repeat = [&](int r, int threads, LockstepRuns* runs) {
    try {
      learn::TrainConfig own = cfg;
      own.threads = threads;
      const auto repeat_start = std::chrono::steady_clock::now();
      learn::EpochAccuracies epochs(net_, data_.test, threads, floor,
                                    runs ? learn::EpochScoring::as_added : learn::EpochScoring::together);
      learn::EpochObserver observe;
      if (every_epoch_)
        observe = [&](int epoch, const Eigen::VectorXf& w) {
          epochs.add(w);
          epoch_seconds[static_cast<std::size_t>(r)].push_back(seconds_since(repeat_start));
          return !runs || runs->meet(r, epoch, epochs.latest());
        };
      const auto res = learn::train(net_, data_.train, own, derive_seed(seed, static_cast<std::uint64_t>(r)), observe);
      diverged[static_cast<std::size_t>(r)] = res.diverged;
      epoch_acc[static_cast<std::size_t>(r)] = epochs.scores();
      if (res.epochs < cfg.epochs) {  // stopped: its last epoch is the final result, already scored
        acc[static_cast<std::size_t>(r)] = epoch_acc[static_cast<std::size_t>(r)].back();
        epoch_acc[static_cast<std::size_t>(r)].pop_back();
      } else {
        acc[static_cast<std::size_t>(r)] =
            res.diverged ? floor : learn::accuracy(net_, res.params, data_.test, threads);
      }
      repeat_seconds[static_cast<std::size_t>(r)] = seconds_since(repeat_start);
    } catch (const Interrupted& e) {  // an interruption wins over the other runs' errors
      interrupted = e.signal();
    } catch (const std::exception& e) {
      errors[static_cast<std::size_t>(r)] = e.what();
    }
  };
  if (lockstep) {
    LockstepRuns runs(threads_, repeats_, [&](int epoch, const std::vector<double>& at_epoch) {
      lockstep_seconds.push_back(seconds_since(start));
      if (epoch + 1 >= cfg.epochs) return true;
      const double lo = *std::min_element(at_epoch.begin(), at_epoch.end());
      const double hi = *std::max_element(at_epoch.begin(), at_epoch.end());
      const auto e = static_cast<std::size_t>(epoch);
      if (go_on(epoch, cfg.epochs, mean_within_range(at_epoch, lo, hi), epsilons[e].epsilon)) return true;
      stopped_after = epoch;
      return false;
    });
    runs.run([&](int r, int threads) { train_repeat(r, threads, &runs); });
  } else {
    run_in_parallel(threads_, repeats_, [&](int r, int threads) { train_repeat(r, threads, nullptr); });
  }
  if (interrupted) throw Interrupted(interrupted);
  for (const auto& e : errors)
    if (!e.empty()) throw Error(e);
  UtilityResult u;
  u.utility_min = *std::min_element(acc.begin(), acc.end());
  u.utility_max = *std::max_element(acc.begin(), acc.end());
  u.utility = mean_within_range(acc, u.utility_min, u.utility_max);
  const int last_epoch = stopped_after > 0 ? stopped_after : cfg.epochs;
  if (stopped_after > 0) {
    u.stopped_at = params;
    u.stopped_at[0] = stopped_after;
    u.stopped_epsilon = epsilons[static_cast<std::size_t>(stopped_after - 1)].epsilon;
  }
  std::vector<std::size_t> complete;  // the repeats that observed every epoch before the last
  for (std::size_t r = 0; r < epoch_acc.size(); ++r)
    if (epoch_acc[r].size() == static_cast<std::size_t>(last_epoch - 1) && repeat_seconds[r] > 0) complete.push_back(r);
  const double total_seconds = seconds_since(start);
  for (int e = 1; e < last_epoch && !complete.empty(); ++e) {
    std::vector<double> at_epoch;
    double fraction = 0;  // of the repeats' time spent by the end of epoch e
    for (const std::size_t r : complete) {
      at_epoch.push_back(epoch_acc[r][static_cast<std::size_t>(e - 1)]);
      fraction +=
          epoch_seconds[r][static_cast<std::size_t>(e - 1)] / repeat_seconds[r] / static_cast<double>(complete.size());
    }
    IntermediateResult& i = u.intermediate.emplace_back();
    i.params = params;
    i.params[0] = e;
    i.epsilon = epsilons[static_cast<std::size_t>(e - 1)].epsilon;
    i.utility_min = *std::min_element(at_epoch.begin(), at_epoch.end());
    i.utility_max = *std::max_element(at_epoch.begin(), at_epoch.end());
    i.utility = mean_within_range(at_epoch, i.utility_min, i.utility_max);
    // The training time of a run of e epochs. In lockstep: the time until every repeat ended epoch e.
    // Otherwise this evaluation's, scaled by the part of its repeats' time that the first e epochs
    // took (repeats may wait for threads, so not their clock times).
    i.further["train_seconds"] =
        lockstep ? lockstep_seconds[static_cast<std::size_t>(e - 1)] : total_seconds * fraction;
  }
  const long long bad = std::count(diverged.begin(), diverged.end(), 1);
  if (bad > 0)
    u.message = "diverged (non-finite weights) in " + std::to_string(bad) + " of " + std::to_string(repeats_) +
                " repeats; those count as the majority-class accuracy " + format_number(floor);
  if (stopped_after > 0)
    u.message += (u.message.empty() ? "" : "; ") + std::string("stopped after epoch ") +
                 std::to_string(stopped_after) + " of " + std::to_string(cfg.epochs) +
                 ": its results could no longer improve the front";
  return u;
}

namespace {

// The registry entry of a DP-training problem: its factory and its domains before max_epochs and the
// training-set size cap epochs and lot_size.
ProblemInfo registry_entry(DpTrainingSpec spec, std::string summary) {
  constexpr int uncapped = std::numeric_limits<int>::max();
  auto parameters = dp_training_parameters(spec.data == DataSource::mnist, uncapped, uncapped);
  return {spec.name, std::move(summary),
          [spec](const ProblemOptions& options) { return std::make_unique<DpTrainingProblem>(spec, options); },
          std::move(parameters), dp_training_options()};
}

using learn::Optimizer;
const ProblemRegistration adult_logreg_sgd(
    registry_entry({"adult-logreg-sgd", DataSource::adult, learn::logistic_regression(123), Optimizer::sgd},
                   "logistic regression on Adult (a9a) by DP-SGD (DPareto Sec. 4, Alg. 3)"));
const ProblemRegistration adult_logreg_adam(
    registry_entry({"adult-logreg-adam", DataSource::adult, learn::logistic_regression(123), Optimizer::adam},
                   "logistic regression on Adult (a9a) by DP-Adam (DPareto Sec. 4, Alg. 4)"));
const ProblemRegistration adult_svm_sgd(
    registry_entry({"adult-svm-sgd", DataSource::adult, learn::linear_svm(123), Optimizer::sgd},
                   "linear SVM (hinge loss) on Adult (a9a) by DP-SGD (DPareto Sec. 4, Alg. 3)"));
const ProblemRegistration adult_svm_adam(
    registry_entry({"adult-svm-adam", DataSource::adult, learn::linear_svm(123), Optimizer::adam},
                   "linear SVM (hinge loss) on Adult (a9a) by DP-Adam (DPareto Sec. 4, Alg. 4; Fig. 5)"));
const ProblemRegistration mnist_mlp1_sgd(
    registry_entry({"mnist-mlp1-sgd", DataSource::mnist, learn::mlp1(), Optimizer::sgd},
                   "MLP1 (784-1000-10, ReLU) on MNIST by DP-SGD (DPareto Sec. 4)"));
const ProblemRegistration mnist_mlp2_sgd(
    registry_entry({"mnist-mlp2-sgd", DataSource::mnist, learn::mlp2(), Optimizer::sgd},
                   "MLP2 (784-128-64-10, ReLU) on MNIST by DP-SGD (DPareto Sec. 4)"));
const ProblemRegistration synthetic_logreg_sgd(
    registry_entry({"synthetic-logreg-sgd", DataSource::synthetic,
                    learn::logistic_regression(learn::SyntheticSpec{}.dimension), Optimizer::sgd},
                   "logistic regression by DP-SGD on a seeded 20-d Gaussian mixture (no data files; Adult's domains)"));

}  // namespace
}  // namespace dpareto::problems
