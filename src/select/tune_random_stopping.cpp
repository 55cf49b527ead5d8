// `dpareto tune --method random-stopping|grid`: K runs of uniformly drawn candidates on the
// training rows minus a validation split, the best run's model released (Papernot & Steinke 2022;
// Koskela & Kulkarni 2023, Thm 5 and Sec. 4). The two differ only in how σ is set:
// random-stopping uses one σ for every candidate, grid one σ per (lot size, steps) calibrated to a
// common per-candidate target. Random stopping needs each run's (model, score) pair to be DP, so
// the score is a noisy count (tuning_data.hpp) and its pure-DP RDP joins the run's curve.
#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "dpareto/select/tuning_accounting.hpp"
#include "dpareto/select/tuning_data.hpp"
#include "tuning_context.hpp"
#include "tuning_plans.hpp"

namespace dpareto::select {

nlohmann::json stopping_description(const StoppingRule& rule) {
  if (const auto* p = std::get_if<PoissonStopping>(&rule))
    return {{"distribution", "poisson"}, {"mu", json_number(p->mu)}};
  const auto& t = std::get<TruncatedNegativeBinomialStopping>(rule);
  return {{"distribution", "tnb"},
          {"eta", json_number(t.eta)},
          {"gamma", json_number(t.gamma)},
          {"expected_runs", json_number(stopping_mean(rule))}};
}

// Runs random stopping over `configs` (σ already set) trained on `train`, scored on `validation`.
RandomStoppingRun run_random_stopping(TuningContext& context, const std::vector<learn::TrainConfig>& configs,
                                      const learn::Dataset& train, const learn::Dataset& validation,
                                      const StoppingRule& stopping, double score_epsilon) {
  RandomStoppingRun out;
  double best = -std::numeric_limits<double>::infinity();
  const CandidateRun run = [&](std::size_t candidate, std::uint64_t) {
    const auto res = train_keyed(context.net(), train, configs[candidate], *context.source);
    // A run whose weights are not finite scores −∞: never selected over a finite model, however
    // low that model's noisy score (which may be negative). A function of the run's output only.
    const double score = res.params.allFinite() ? noisy_accuracy(context.net(), res.params, validation, score_epsilon,
                                                                 context.threads(), *context.source)
                                                : -std::numeric_limits<double>::infinity();
    if (score > best) {
      best = score;
      out.weights = res.params;
    }
    return score;
  };
  out.selection = random_stopping_select(configs.size(), stopping, run, *context.source);
  if (out.selection.selected && std::isinf(best))  // a property of the released pair itself
    throw Error("random stopping: every run's weights are not finite (training diverged); nothing is released");
  return out;
}

StoppingPlan plan_random_stopping_or_grid(const PlanInputs& in, int validation_rows) {
  const auto& s = in.settings;
  const bool grid = s.method == TuningMethod::grid;
  StoppingPlan plan;
  plan.n_train = in.n - validation_rows;
  if (validation_rows < 1 || plan.n_train < 1)
    throw InputError("--validation-fraction " + format_number(s.validation_fraction) +
                     " leaves an empty split of the " + std::to_string(in.n) + " training rows");
  auto& configs = plan.configs;
  for (const auto& c : in.configs) configs.push_back(extrapolate(c, in.n, plan.n_train));
  plan.stopping = effective_stopping(s, configs.size());
  plan.score_epsilon = effective_score_epsilon(s, validation_rows);

  const auto tuning_epsilon = [&](const std::vector<learn::TrainConfig>& with_noise) {
    const auto curve =
        stopping_rdp(plan.stopping, in.orders, scored_run_rdp(with_noise, plan.n_train, plan.score_epsilon, in.orders));
    return privacy::rdp_to_epsilon(in.orders, curve, s.delta, s.conversion).epsilon;
  };
  if (grid) {
    const auto per = calibrate_candidate_epsilon(
        configs, plan.n_train, s.delta, in.orders, s.conversion,
        [&](const std::vector<double>& sigmas) {
          auto with_noise = configs;
          for (std::size_t i = 0; i < sigmas.size(); ++i) with_noise[i].noise_multiplier = sigmas[i];
          return tuning_epsilon(with_noise);
        },
        s.target_epsilon, "--target-epsilon");
    for (std::size_t i = 0; i < configs.size(); ++i) configs[i].noise_multiplier = per.sigmas[i];
    plan.calibration = {{"per_candidate_epsilon", json_number(per.candidate_epsilon)},
                        {"noise_multipliers", per.sigmas},
                        {"note",
                         "each candidate's sigma is the smallest for which its run alone is "
                         "(per_candidate_epsilon, delta)-DP (Koskela-Kulkarni Sec. 4.1); per_candidate_epsilon "
                         "is the largest for which the whole procedure meets the target"}};
  } else {
    const double sigma = smallest_meeting_target([&](double sg) { return tuning_epsilon(with_sigma(configs, sg)); },
                                                 privacy::kMinNoiseMultiplier, privacy::kMaxNoiseMultiplier,
                                                 s.target_epsilon, "--target-epsilon");
    configs = with_sigma(configs, sigma);
    plan.calibration = {{"noise_multiplier", json_number(sigma)},
                        {"note",
                         "every run uses this calibrated noise multiplier; the candidates' own "
                         "noise_multiplier values are overridden"}};
  }
  plan.run_curve = scored_run_rdp(configs, plan.n_train, plan.score_epsilon, in.orders);
  plan.tuning_curve = stopping_rdp(plan.stopping, in.orders, plan.run_curve);
  plan.total = privacy::rdp_to_epsilon(in.orders, plan.tuning_curve, s.delta, s.conversion);
  plan.split = {{"tuning_epsilon", json_number(plan.total.epsilon)},
                {"training_epsilon", 0},
                {"epsilon", json_number(plan.total.epsilon)},
                {"note", "the released model is the best tuning run's: no separate final training"}};
  return plan;
}

TuningOutcome tune_random_stopping_or_grid(TuningContext& context) {
  const auto& s = context.settings;
  const bool grid = s.method == TuningMethod::grid;
  const RowSplit split = bernoulli_rows(context.rows, s.validation_fraction, *context.source);
  const auto plan = plan_random_stopping_or_grid(context.inputs(), static_cast<int>(split.selected.size()));
  const learn::Dataset train = context.data().subset(split.rest), validation = context.data().subset(split.selected);

  context.spend(plan.tuning_curve, plan.total);
  const auto result = run_random_stopping(context, plan.configs, train, validation, plan.stopping, plan.score_epsilon);

  auto c = certificate_header(context, plan.total);
  c["stopping"] = stopping_description(plan.stopping);
  c["calibration"] = plan.calibration;
  if (!grid) c["noise_multiplier"] = plan.calibration["noise_multiplier"];
  auto base = rdp_component("dp-training run + noisy score (base mechanism)", context.orders, plan.run_curve);
  base["sampling"] = privacy::to_string(plan.configs.front().sampling);
  base["n"] = plan.n_train;
  if (!grid) base["sigma"] = json_number(plan.configs.front().noise_multiplier);
  const bool uniform = std::all_of(plan.configs.begin(), plan.configs.end(), [&](const learn::TrainConfig& x) {
    return x.lot_size == plan.configs.front().lot_size && x.epochs == plan.configs.front().epochs &&
           x.noise_multiplier == plan.configs.front().noise_multiplier;
  });
  if (uniform) {
    base["q"] = json_number(static_cast<double>(plan.configs.front().lot_size) / plan.n_train);
    base["steps"] = learn::training_steps(plan.configs.front(), plan.n_train);
  } else {
    base["note"] = "pointwise maximum over the candidates' DP-SGD RDP curves (Koskela-Kulkarni Lemma 1)";
  }
  base["score_epsilon"] = json_number(plan.score_epsilon);
  auto stop = rdp_component("random stopping (Papernot-Steinke Thm 2/6; Koskela-Kulkarni Thm 5)", context.orders,
                            plan.tuning_curve);
  stop["stopping"] = c["stopping"];
  c["components"] = {base, stop};
  c["split"] = plan.split;
  c["validation"] = {{"fraction", json_number(s.validation_fraction)},
                     {"rows", validation.size()},
                     {"training_rows", plan.n_train},
                     {"score_epsilon", json_number(plan.score_epsilon)},
                     {"score_noise_scale", json_number(privacy::round_up(score_noise_scale(plan.score_epsilon)))},
                     {"note",
                      "each run's score is (correct predictions + discrete Laplace(1/score_epsilon)) / rows; "
                      "validation_utility is the selected run's noisy score"}};
  const auto sel = result.selection.selected;
  const double sigma = sel ? plan.configs[*sel].noise_multiplier : 0;
  if (sel) {
    c["trained_with"] = trained_with(plan.configs[*sel], plan.n_train);
    c["validation_utility_note"] = noisy_score_note;
  }
  return finish(context, c, sel, sigma, sel ? result.weights : std::nullopt,
                sel ? std::optional<double>(result.selection.best_utility) : std::nullopt, "K = 0");
}

}  // namespace dpareto::select
