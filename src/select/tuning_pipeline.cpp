#include "dpareto/select/tuning_pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "dpareto/privacy/composition.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/random_stopping.hpp"
#include "dpareto/privacy/secure_noise.hpp"
#include "dpareto/select/random_stopping.hpp"

namespace dpareto::select {
namespace {

void check_settings(const TuningSettings& s) {
  if (!(s.mu > 0) || std::isinf(s.mu)) throw InputError("--mu " + format_number(s.mu) + " must be a finite number > 0");
  if (!(s.target_epsilon > 0) || std::isinf(s.target_epsilon))
    throw InputError("--target-epsilon " + format_number(s.target_epsilon) + " must be a finite number > 0");
  if (!(s.delta > 0 && s.delta < 1)) throw InputError("--delta " + format_number(s.delta) + " must be in (0, 1)");
  if (!(s.score_epsilon > 0) || std::isinf(s.score_epsilon))
    throw InputError("--score-epsilon " + format_number(s.score_epsilon) + " must be a finite number > 0");
  if (!(s.validation_fraction > 0 && s.validation_fraction < 1))
    throw InputError("validation fraction " + format_number(s.validation_fraction) + " must be in (0, 1)");
}

// Fisher–Yates shuffle of 0..n-1 from the source (uniform_below is exact).
std::vector<int> permutation(int n, privacy::RandomSource& source) {
  std::vector<int> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  for (int i = n - 1; i > 0; --i) {
    const auto j = static_cast<int>(privacy::uniform_below(source, privacy::BigInt(i + 1)));
    std::swap(p[static_cast<std::size_t>(i)], p[static_cast<std::size_t>(j)]);
  }
  return p;
}

}  // namespace

TuningPrivacy random_stopping_privacy(const std::vector<learn::TrainConfig>& configs, int n, double sigma,
                                      const TuningSettings& settings) {
  if (configs.empty()) throw InputError("random stopping: no candidates");
  TuningPrivacy p;
  p.sigma = sigma;
  p.orders = privacy::default_orders();
  p.candidate_rdp.assign(p.orders.size(), 0.0);
  for (const auto& c : configs) {
    const double q = static_cast<double>(c.lot_size) / n;
    const auto curve = privacy::dpsgd_rdp(c.sampling, q, sigma, learn::training_steps(c, n), p.orders);
    for (std::size_t i = 0; i < curve.size(); ++i) p.candidate_rdp[i] = std::max(p.candidate_rdp[i], curve[i]);
  }
  for (std::size_t i = 0; i < p.orders.size(); ++i)
    p.candidate_rdp[i] += privacy::pure_dp_rdp(settings.score_epsilon, p.orders[i]);
  p.tuning_rdp = privacy::poisson_stopping_rdp(p.orders, p.candidate_rdp, settings.mu);
  p.result = privacy::rdp_to_epsilon(p.orders, p.tuning_rdp, settings.delta, settings.conversion);
  return p;
}

TuningPrivacy calibrate_random_stopping(const std::vector<learn::TrainConfig>& configs, int n,
                                        const TuningSettings& settings) {
  check_settings(settings);
  auto eps = [&](double sigma) { return random_stopping_privacy(configs, n, sigma, settings).result.epsilon; };
  double lo = privacy::kMinNoiseMultiplier, hi = privacy::kMaxNoiseMultiplier;
  const double eps_hi = eps(hi);
  if (!(eps_hi <= settings.target_epsilon))
    throw InputError("--target-epsilon " + format_number(settings.target_epsilon) +
                     " is too small: even noise multiplier " + format_number(hi) + " gives tuning epsilon " +
                     format_number(eps_hi));
  if (eps(lo) <= settings.target_epsilon)
    throw InputError("--target-epsilon " + format_number(settings.target_epsilon) +
                     " puts no constraint on the noise multiplier (already met at " + format_number(lo) + ")");
  // Invariant: eps(lo) > target >= eps(hi); ε decreases in σ.
  while (hi / lo - 1 > 1e-10) {
    const double mid = std::sqrt(lo * hi);
    (eps(mid) <= settings.target_epsilon ? hi : lo) = mid;
  }
  return random_stopping_privacy(configs, n, hi, settings);
}

TuningOutcome tune_random_stopping(const problems::DpTrainingProblem& problem, const CandidateFile& candidates,
                                   const TuningSettings& settings) {
  check_settings(settings);
  if (candidates.problem != problem.name())
    throw InputError(candidates.source + ": problem '" + candidates.problem + "' does not match --problem " +
                     problem.name());
  // σ is calibrated, so a candidate may omit noise_multiplier; any value it gives is overridden.
  CandidateFile filled = candidates;
  for (auto& c : filled.candidates) c["noise_multiplier"] = 1.0;
  const auto params = candidate_params(filled, problem.space());

  auto source = privacy::make_random_source(settings.seed);
  const learn::Dataset& all = problem.data().train;
  const int n_all = all.size();
  const int n_val = static_cast<int>(std::floor(settings.validation_fraction * n_all));
  const int n_train = n_all - n_val;
  if (n_val < 1 || n_train < 1)
    throw InputError("training set of " + std::to_string(n_all) + " rows is too small for a validation split");
  const auto order = permutation(n_all, *source);
  const std::vector<int> train_rows(order.begin() + n_val, order.end());
  const std::vector<int> val_rows(order.begin(), order.begin() + n_val);
  const learn::Dataset train = all.subset(train_rows), validation = all.subset(val_rows);

  std::vector<learn::TrainConfig> configs;
  for (const auto& p : params) {
    auto c = problem.config(p, problem.threads());
    c.lot_size = std::min(c.lot_size, n_train);
    configs.push_back(c);
  }
  const TuningPrivacy priv = calibrate_random_stopping(configs, n_train, settings);
  for (auto& c : configs) c.noise_multiplier = priv.sigma;

  const learn::Network& net = problem.network();
  std::optional<Eigen::VectorXf> best_weights;
  double best = -2;
  std::uint64_t diverged = 0;
  nlohmann::json runs = nlohmann::json::array();
  const CandidateRun run = [&](std::size_t candidate, std::uint64_t k) {
    const std::uint64_t seed = settings.seed ? derive_seed(*settings.seed, 1000 + k) : os_random_u64();
    const auto res = learn::train(net, train, configs[candidate], seed);
    double acc = -1;  // diverged runs are never selected over a finite one
    if (res.diverged) {
      ++diverged;
    } else {
      // The released score: noisy count of correct validation predictions (ε_s-DP, sensitivity 1).
      const auto correct = std::llround(learn::accuracy(net, res.params, validation, configs[candidate].threads) * n_val);
      const auto noise = privacy::discrete_laplace(*source, privacy::exact_rational(1.0 / settings.score_epsilon, "score scale"));
      acc = static_cast<double>(correct + noise) / n_val;
    }
    if (acc > best) {
      best = acc;
      best_weights = res.params;
    }
    runs.push_back({{"candidate", candidate}, {"validation_utility", json_number(acc)}});
    return acc;
  };
  const auto selection = random_stopping_select(params.size(), PoissonStopping{settings.mu}, run, *source);

  nlohmann::json c;
  c["method"] = "random-stopping";
  c["problem"] = problem.name();
  c["candidates"] = candidates.candidates.size();
  c["candidate_file"] = candidates.source;
  c["mu"] = json_number(settings.mu);
  c["runs"] = selection.runs;
  c["run_log"] = runs;
  c["noise_multiplier"] = json_number(priv.sigma);
  c["noise_multiplier_note"] =
      "every run uses this calibrated noise multiplier; the candidates' own noise_multiplier values are overridden";
  nlohmann::json base = {{"name", "dp-training run (base mechanism)"},
                         {"sampling", privacy::to_string(configs.front().sampling)},
                         {"sigma", json_number(priv.sigma)},
                         {"n", n_train},
                         {"rdp", nlohmann::json::array()}};
  const bool uniform = std::all_of(configs.begin(), configs.end(), [&](const learn::TrainConfig& x) {
    return x.lot_size == configs.front().lot_size && x.epochs == configs.front().epochs;
  });
  if (uniform) {
    base["q"] = json_number(static_cast<double>(configs.front().lot_size) / n_train);
    base["steps"] = learn::training_steps(configs.front(), n_train);
  } else {
    base["note"] = "pointwise maximum over the candidates' DP-SGD RDP curves (Koskela-Kulkarni Lemma 1)";
  }
  base["score"] = {{"epsilon", json_number(settings.score_epsilon)},
                   {"note", "each run's validation score is a discrete-Laplace noisy count (pure DP), composed into this curve"}};
  nlohmann::json stop = {{"name", "random stopping, K ~ Poisson(mu) (Papernot-Steinke Thm 6 / Koskela-Kulkarni Thm 5)"},
                         {"mu", json_number(settings.mu)},
                         {"rdp", nlohmann::json::array()}};
  for (std::size_t i = 0; i < priv.orders.size(); ++i) {
    base["rdp"].push_back({json_number(priv.orders[i]), json_number(priv.candidate_rdp[i])});
    stop["rdp"].push_back({json_number(priv.orders[i]), json_number(priv.tuning_rdp[i])});
  }
  c["components"] = {base, stop};
  c["epsilon"] = json_number(priv.result.epsilon);
  c["target_epsilon"] = json_number(settings.target_epsilon);
  c["delta"] = json_number(priv.result.delta);
  c["order"] = json_number(priv.result.order);
  c["conversion"] = privacy::to_string(priv.result.conversion);
  // "secure" needs every noise draw from a CSPRNG; DP-SGD's Gaussian noise comes from the learner's
  // xoshiro256++ (seeded from getrandom), which is not cryptographically secure.
  c["randomness"] = source->reproducible() ? "seeded (not for release)"
                                           : "not for release (training noise from a non-cryptographic PRNG)";
  c["randomness_note"] =
      "K, the candidate draws and the validation split come from the " +
      std::string(source->reproducible() ? "seeded ChaCha20 source" : "OS CSPRNG") +
      "; the DP-SGD Gaussian noise inside training uses the learner's own sampler (seeded per run " +
      (settings.seed ? "from --seed" : "from the OS CSPRNG") + ")";
  c["validation"] = {{"fraction", json_number(settings.validation_fraction)},
                     {"rows", n_val},
                     {"training_rows", n_train},
                     {"score_epsilon", json_number(settings.score_epsilon)},
                     {"note", "each run's score is (correct predictions + discrete Laplace(1/score_epsilon)) / rows: "
                              "the (model, score) pair of a run is DP, as random stopping requires; "
                              "validation_utility below is that noisy score"}};
  c["diverged_runs"] = diverged;

  TuningOutcome out;
  out.architecture = net.architecture().name;
  if (!selection.selected) {
    c["selected"] = nullptr;
    c["validation_utility"] = nullptr;
    c["test_utility"] = nullptr;
    c["note"] = "K = 0: nothing is released (the privacy cost above is still spent)";
  } else {
    if (best < 0) throw Error("random stopping: all " + std::to_string(selection.runs) + " runs diverged (NaN loss)");
    const std::size_t s = *selection.selected;
    nlohmann::json selected = nlohmann::json::object();
    for (std::size_t d = 0; d < problem.space().dimension(); ++d) {
      const auto& name = problem.space().parameter(d).name;
      selected[name] = json_number(name == "noise_multiplier" ? priv.sigma : params[s][d]);
    }
    c["selected"] = selected;
    c["selected_index"] = s;
    c["validation_utility"] = json_number(selection.best_utility);
    c["test_utility"] = json_number(learn::accuracy(net, *best_weights, problem.data().test, problem.threads()));
    c["test_utility_note"] = "accuracy on the problem's test split, for information (not used in the selection)";
    out.weights = best_weights;
  }
  out.certificate = c;
  return out;
}

}  // namespace dpareto::select
