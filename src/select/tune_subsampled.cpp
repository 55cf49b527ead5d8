// `dpareto tune --method subsampled` (Koskela & Kulkarni 2023, Sec. 3): random stopping on a
// Poisson subsample X₁ of rate q (split there into training and validation rows), the selected
// candidate extrapolated (Sec. 3.2) and trained once more on X∖X₁ (variant 1, their Thm 1) or on
// X (variant 2, Thm 4 amplification of the tuning, then composition). One σ serves the tuning runs
// and the final run (their Sec. 3.2 keeps σ, γ and T across the transfer); it is calibrated so
// that the whole procedure meets the target. Both theorems are for add/remove neighbours and
// integer orders, so the problem must use Poisson-sampled DP-SGD and the orders are 2, 3, ..., 128.
#include <numeric>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "dpareto/privacy/subsampled_tuning.hpp"
#include "dpareto/select/tuning_accounting.hpp"
#include "dpareto/select/tuning_data.hpp"
#include "tuning_context.hpp"
#include "tuning_plans.hpp"

namespace dpareto::select {
namespace {

constexpr int kMaxOrder = 128;

// Curves indexed by order: entry j is ε(j), j = 2..kMaxOrder (entries 0, 1 unused), as the
// privacy module's subsampled-tuning functions take them.
std::vector<double> by_order(const std::vector<double>& curve) {
  std::vector<double> out(2, 0.0);
  out.insert(out.end(), curve.begin(), curve.end());
  return out;
}

// The plan's curves for σ already set in plan.tuning and plan.final_configs.
void fill_curves(SubsampledPlan& plan, const TuningSettings& s, int tuning_rows, int final_rows) {
  plan.run_curve = scored_run_rdp(plan.tuning, tuning_rows, plan.score_epsilon, plan.orders);
  plan.tuning_curve = stopping_rdp(plan.stopping, plan.orders, plan.run_curve);
  plan.training_curve = uniform_training_rdp(plan.final_configs, final_rows, plan.orders);
  if (s.subsampled_variant == 1)
    plan.total_curve = privacy::subsampled_tuning_rdp(plan.orders, by_order(plan.tuning_curve),
                                                      by_order(plan.training_curve), s.subsample_rate);
  else
    plan.total_curve =
        compose(privacy::poisson_subsampled_rdp(plan.orders, by_order(plan.tuning_curve), s.subsample_rate),
                plan.training_curve);
  plan.total = privacy::rdp_to_epsilon(plan.orders, plan.total_curve, s.delta, s.conversion);
}

}  // namespace

SubsampledPlan plan_subsampled(const PlanInputs& in, int tuning_rows, int validation_rows, int final_rows) {
  const auto& s = in.settings;
  if (in.configs.front().sampling != privacy::Sampling::poisson)
    throw InputError(
        "--method subsampled needs Poisson-sampled DP-SGD (--set sampling=poisson on the problem): "
        "Koskela-Kulkarni Thm 1 and 4 are for add/remove neighbours");
  if (tuning_rows < 1 || validation_rows < 1 || final_rows < 1)
    throw InputError("--subsample-rate " + format_number(s.subsample_rate) + " of " + std::to_string(in.n) +
                     " rows leaves " + std::to_string(tuning_rows) + " tuning rows and " +
                     std::to_string(validation_rows) + " validation rows: too few");
  SubsampledPlan plan;
  plan.orders.resize(kMaxOrder - 1);
  std::iota(plan.orders.begin(), plan.orders.end(), 2.0);
  for (const auto& c : in.configs) {
    plan.tuning.push_back(extrapolate(c, in.n, tuning_rows));
    plan.final_configs.push_back(extrapolate(c, in.n, final_rows));
  }
  plan.stopping = effective_stopping(s, plan.tuning.size());
  plan.score_epsilon = effective_score_epsilon(s, validation_rows);
  const auto tuning = plan.tuning;
  const auto final_configs = plan.final_configs;
  const auto set_sigma = [&](double sigma) {
    plan.tuning = with_sigma(tuning, sigma);
    plan.final_configs = with_sigma(final_configs, sigma);
    fill_curves(plan, s, tuning_rows, final_rows);
  };
  plan.sigma = smallest_meeting_target(
      [&](double sigma) {
        set_sigma(sigma);
        return plan.total.epsilon;
      },
      privacy::kMinNoiseMultiplier, privacy::kMaxNoiseMultiplier, s.target_epsilon, "--target-epsilon");
  set_sigma(plan.sigma);
  const PlanInputs at_orders{in.configs, in.n, s, plan.orders};
  plan.split = budget_split(at_orders,
                            privacy::poisson_subsampled_rdp(plan.orders, by_order(plan.tuning_curve), s.subsample_rate),
                            plan.training_curve, plan.total);
  if (s.subsampled_variant == 1)
    plan.split["note"] = "tuning_epsilon is the Thm 4 bound of the tuning alone; the total is Thm 1's joint bound";
  return plan;
}

TuningOutcome tune_subsampled(TuningContext& context) {
  const auto& s = context.settings;
  const RowSplit subsample = bernoulli_rows(context.rows, s.subsample_rate, *context.source);
  const RowSplit inside = bernoulli_rows(subsample.selected, s.validation_fraction, *context.source);
  const std::vector<int>& final_rows = s.subsampled_variant == 1 ? subsample.rest : context.rows;
  const int m = static_cast<int>(inside.rest.size()), n_final = static_cast<int>(final_rows.size());
  const auto plan = plan_subsampled(context.inputs(), m, static_cast<int>(inside.selected.size()), n_final);
  context.orders = plan.orders;

  context.spend(plan.total_curve, plan.total);
  const learn::Dataset train = context.data().subset(inside.rest), validation = context.data().subset(inside.selected);
  const auto result = run_random_stopping(context, plan.tuning, train, validation, plan.stopping, plan.score_epsilon);

  auto c = certificate_header(context, plan.total);
  c["variant"] = s.subsampled_variant;
  c["subsample_rate"] = json_number(s.subsample_rate);
  c["stopping"] = stopping_description(plan.stopping);
  c["noise_multiplier"] = json_number(plan.sigma);
  c["rows"] = {{"subsample", subsample.selected.size()},
               {"tuning_training", m},
               {"tuning_validation", inside.selected.size()},
               {"final_training", n_final}};
  auto run = rdp_component("tuning run on X1: dp-training + noisy score", context.orders, plan.run_curve);
  run["score_epsilon"] = json_number(plan.score_epsilon);
  run["score_noise_scale"] = json_number(privacy::round_up(score_noise_scale(plan.score_epsilon)));
  auto tune = rdp_component("random stopping on X1 (Papernot-Steinke; Koskela-Kulkarni Thm 5)", context.orders,
                            plan.tuning_curve);
  tune["stopping"] = c["stopping"];
  auto train_component =
      rdp_component(std::string("final training on ") + (s.subsampled_variant == 1 ? "X minus X1" : "X"),
                    context.orders, plan.training_curve);
  auto whole = rdp_component(s.subsampled_variant == 1
                                 ? "variant 1: tuning on X1, training on X minus X1 (Koskela-Kulkarni Thm 1)"
                                 : "variant 2: Poisson-subsampled tuning (Koskela-Kulkarni Thm 4) + final training",
                             context.orders, plan.total_curve);
  whole["q"] = json_number(s.subsample_rate);
  c["components"] = {run, tune, train_component, whole};
  c["split"] = plan.split;

  const auto sel = result.selection.selected;
  if (!sel) return finish(context, c, std::nullopt, plan.sigma, std::nullopt, std::nullopt, "K = 0");
  const auto final_run = train_final(context, plan.final_configs[*sel], final_rows);
  c["trained_with"] = trained_with(plan.final_configs[*sel], n_final);
  c["validation_utility_note"] = noisy_score_note;
  return finish(context, c, sel, plan.sigma, final_run.params, result.selection.best_utility, "");
}

}  // namespace dpareto::select
