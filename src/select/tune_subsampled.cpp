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

namespace dpareto::select {
namespace {

constexpr int kMaxOrder = 128;

struct SubsampledCurves {
  std::vector<double> run;       // one tuning run on X₁ (training + noisy score)
  std::vector<double> tuning;    // random stopping on X₁
  std::vector<double> training;  // the final run (uniform over the candidates)
  std::vector<double> total;     // variant 1: Thm 1; variant 2: Thm 4 (tuning) + training
};

// Curves indexed by order: entry j is ε(j), j = 2..kMaxOrder (entries 0, 1 unused), as the
// privacy module's subsampled-tuning functions take them.
std::vector<double> by_order(const std::vector<double>& curve) {
  std::vector<double> out(2, 0.0);
  out.insert(out.end(), curve.begin(), curve.end());
  return out;
}

SubsampledCurves subsampled_curves(const TuningContext& context, const std::vector<learn::TrainConfig>& tuning,
                                   int tuning_rows, const std::vector<learn::TrainConfig>& final_configs,
                                   int final_rows, const StoppingRule& stopping, double score_epsilon) {
  const auto& s = context.settings;
  SubsampledCurves c;
  c.run = scored_run_rdp(tuning, tuning_rows, score_epsilon, context.orders);
  c.tuning = stopping_rdp(stopping, context.orders, c.run);
  c.training = uniform_training_rdp(final_configs, final_rows, context.orders);
  if (s.subsampled_variant == 1)
    c.total = privacy::subsampled_tuning_rdp(context.orders, by_order(c.tuning), by_order(c.training), s.subsample_rate);
  else
    c.total = compose(privacy::poisson_subsampled_rdp(context.orders, by_order(c.tuning), s.subsample_rate), c.training);
  return c;
}

}  // namespace

TuningOutcome tune_subsampled(TuningContext& context) {
  const auto& s = context.settings;
  if (context.configs.front().sampling != privacy::Sampling::poisson)
    throw InputError("--method subsampled needs Poisson-sampled DP-SGD (--set sampling=poisson on --problem " +
                     context.problem.name() + "): Koskela-Kulkarni Thm 1 and 4 are for add/remove neighbours");
  context.orders.resize(kMaxOrder - 1);
  std::iota(context.orders.begin(), context.orders.end(), 2.0);

  const RowSplit subsample = bernoulli_rows(context.rows, s.subsample_rate, *context.source);
  const RowSplit inside = bernoulli_rows(subsample.selected, s.validation_fraction, *context.source);
  const std::vector<int>& final_rows = s.subsampled_variant == 1 ? subsample.rest : context.rows;
  const int m = static_cast<int>(inside.rest.size()), n_final = static_cast<int>(final_rows.size());
  if (m < 1 || inside.selected.empty() || n_final < 1)
    throw InputError("--subsample-rate " + format_number(s.subsample_rate) + " of " + std::to_string(context.n()) +
                     " rows leaves " + std::to_string(m) + " tuning rows and " +
                     std::to_string(inside.selected.size()) + " validation rows: too few");
  std::vector<learn::TrainConfig> tuning, final_configs;
  for (const auto& c : context.configs) {
    tuning.push_back(extrapolate(c, context.n(), m));
    final_configs.push_back(extrapolate(c, context.n(), n_final));
  }
  const StoppingRule stopping = effective_stopping(s, tuning.size());
  const double score_epsilon = effective_score_epsilon(s, static_cast<int>(inside.selected.size()));
  const auto total_epsilon = [&](double sigma) {
    const auto curves = subsampled_curves(context, with_sigma(tuning, sigma), m, with_sigma(final_configs, sigma), n_final,
                                          stopping, score_epsilon);
    return privacy::rdp_to_epsilon(context.orders, curves.total, s.delta, s.conversion).epsilon;
  };
  const double sigma = smallest_meeting_target(total_epsilon, privacy::kMinNoiseMultiplier,
                                               privacy::kMaxNoiseMultiplier, s.target_epsilon, "--target-epsilon");
  tuning = with_sigma(tuning, sigma);
  final_configs = with_sigma(final_configs, sigma);
  const auto curves = subsampled_curves(context, tuning, m, final_configs, n_final, stopping, score_epsilon);
  const auto total = privacy::rdp_to_epsilon(context.orders, curves.total, s.delta, s.conversion);

  context.spend(curves.total, total);
  const learn::Dataset train = context.data().subset(inside.rest), validation = context.data().subset(inside.selected);
  const auto result = run_random_stopping(context, tuning, train, validation, stopping, score_epsilon);

  auto c = certificate_header(context, total);
  c["variant"] = s.subsampled_variant;
  c["subsample_rate"] = json_number(s.subsample_rate);
  c["stopping"] = stopping_description(stopping);
  c["noise_multiplier"] = json_number(sigma);
  c["rows"] = {{"subsample", subsample.selected.size()},
               {"tuning_training", m},
               {"tuning_validation", inside.selected.size()},
               {"final_training", n_final}};
  auto run = rdp_component("tuning run on X1: dp-training + noisy score", context.orders, curves.run);
  run["score_epsilon"] = json_number(score_epsilon);
  run["score_noise_scale"] = json_number(privacy::round_up(score_noise_scale(score_epsilon)));
  auto tune = rdp_component("random stopping on X1 (Papernot-Steinke; Koskela-Kulkarni Thm 5)", context.orders,
                            curves.tuning);
  tune["stopping"] = c["stopping"];
  auto train_component = rdp_component(
      std::string("final training on ") + (s.subsampled_variant == 1 ? "X minus X1" : "X"), context.orders,
      curves.training);
  auto whole = rdp_component(s.subsampled_variant == 1
                                 ? "variant 1: tuning on X1, training on X minus X1 (Koskela-Kulkarni Thm 1)"
                                 : "variant 2: Poisson-subsampled tuning (Koskela-Kulkarni Thm 4) + final training",
                             context.orders, curves.total);
  whole["q"] = json_number(s.subsample_rate);
  c["components"] = {run, tune, train_component, whole};
  const auto amplified_tuning = privacy::poisson_subsampled_rdp(context.orders, by_order(curves.tuning), s.subsample_rate);
  c["split"] = budget_split(context, amplified_tuning, curves.training, total);
  if (s.subsampled_variant == 1)
    c["split"]["note"] = "tuning_epsilon is the Thm 4 bound of the tuning alone; the total is Thm 1's joint bound";

  const auto sel = result.selection.selected;
  if (!sel) return finish(context, c, std::nullopt, sigma, std::nullopt, std::nullopt, "K = 0");
  const auto final_run = train_final(context, final_configs[*sel], final_rows);
  c["trained_with"] = trained_with(final_configs[*sel], n_final);
  c["validation_utility_note"] = noisy_score_note;
  return finish(context, c, sel, sigma, final_run.params, result.selection.best_utility, "");
}

}  // namespace dpareto::select
