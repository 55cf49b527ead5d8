// `dpareto tune --method propose-test` (Ding & Wu 2022, Alg. 1): the training rows are split into
// k partitions (each row to a uniformly drawn partition); in each partition every candidate is
// trained on the partition's training rows and scored on its validation rows; the average over
// partitions is each candidate's utility (sensitivity 1/k: one row touches one partition).
// Propose-test with doubling selects a candidate; it is retrained on all rows.
//
// Budget: ε₀ is the largest for which the tuning alone — bound·min(ε₀, αε₀²/2) over the
// data-independent iteration bound 2M − 1 (propose_test.hpp) — converts to tuning_share·E at δ;
// the final runs' σ (per candidate, to a common per-candidate ε) is then the smallest for which
// tuning + final training, composed, meets E. Partition runs train with their candidate's final σ,
// extrapolated to the partition (Koskela-Kulkarni Sec. 3.2), so the comparison reflects the noise
// the final model will see; their noise needs no accounting (only the utilities leave a partition).
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/select/propose_test.hpp"
#include "dpareto/select/tuning_accounting.hpp"
#include "dpareto/select/tuning_data.hpp"
#include "tuning_context.hpp"
#include "tuning_plans.hpp"

namespace dpareto::select {

ProposeTestPlan plan_propose_test(const PlanInputs& in) {
  const auto& s = in.settings;
  ProposeTestPlan plan;
  auto& options = plan.options;
  options.partitions = s.partitions;
  options.granularity = s.granularity;
  options.utility_floor = s.utility_floor;
  const double tuning_target = s.tuning_share * s.target_epsilon;
  const auto tuning_epsilon = [&](double epsilon0) {
    ProposeTestOptions o = options;
    o.epsilon0 = epsilon0;
    return privacy::rdp_to_epsilon(in.orders, propose_test_rdp(o, in.orders), s.delta, s.conversion).epsilon;
  };
  // Search x = 1/ε₀: the tuning ε is nonincreasing in x.
  options.epsilon0 = 1 / smallest_meeting_target([&](double x) { return tuning_epsilon(1 / x); }, 1 / tuning_target,
                                                 1e12, tuning_target, tuning_budget_name(s));
  plan.tuning_curve = propose_test_rdp(options, in.orders);
  plan.final_training = calibrate_final_training(in, plan.tuning_curve);
  plan.split = retraining_split(in, plan.tuning_curve, plan.final_training);
  return plan;
}

TuningOutcome tune_propose_test(TuningContext& context) {
  const auto& s = context.settings;
  const auto plan = plan_propose_test(context.inputs());
  const auto& options = plan.options;
  const auto& configs = plan.final_training.configs;
  const auto& total = plan.final_training.total;

  context.spend(plan.final_training.total_rdp, total);

  // Partitions, each split into training and validation rows.
  struct Partition {
    learn::Dataset train, validation;
  };
  std::vector<Partition> partitions;
  for (const auto& rows : uniform_parts(context.rows, s.partitions, *context.source)) {
    const RowSplit split = bernoulli_rows(rows, s.validation_fraction, *context.source);
    partitions.push_back({context.data().subset(split.rest), context.data().subset(split.selected)});
  }
  const PartitionUtility utility = [&](std::size_t candidate, std::size_t i) {
    const Partition& p = partitions[i];
    // An empty part scores 0: a constant, so the sensitivity argument is unchanged.
    if (p.train.size() == 0 || p.validation.size() == 0) return 0.0;
    const auto config = extrapolate(configs[candidate], context.n(), p.train.size());
    const auto res = train_keyed(context.net(), p.train, config, *context.source);
    return res.diverged ? 0.0 : learn::accuracy(context.net(), res.params, p.validation, context.threads());
  };
  // Alg. 1 keeps the first candidate that passes a test, so walk them in a random order (drawn
  // independently of the data): the file's order must not favour a candidate.
  const auto order = privacy::uniform_permutation(configs.size(), *context.source);
  auto result = propose_test_select(
      configs.size(), [&](std::size_t s, std::size_t i) { return utility(order[s], i); }, options, *context.source);
  if (result.selected) result.selected = order[*result.selected];

  auto c = certificate_header(context, total, &plan.final_training);
  c["partitions"] = s.partitions;
  c["granularity"] = json_number(s.granularity);
  c["utility_floor"] = json_number(s.utility_floor);
  c["epsilon0"] = json_number(options.epsilon0);
  c["candidate_order"] = order;
  c["iterations"] = result.iterations;
  c["iteration_bound"] = result.iteration_bound;
  c["utility_reached"] = json_number(result.utility_reached);
  auto tune = rdp_component("propose-test with doubling (Ding-Wu Alg. 1): iteration_bound x min(eps0, alpha eps0^2/2)",
                            context.orders, plan.tuning_curve);
  tune["epsilon0"] = c["epsilon0"];
  tune["iteration_bound"] = result.iteration_bound;
  tune["note"] = "the bound 2M-1, M = ceil((1-u0)/g), is data-independent; the observed count is never used";
  c["components"] = {tune, final_training_component(context, plan.final_training)};
  c["split"] = plan.split;

  if (!result.selected)
    return finish(context, c, std::nullopt, 0, std::nullopt, std::nullopt, "no candidate passed a test");
  const std::size_t sel = *result.selected;
  const auto final_run = train_final(context, configs[sel], context.rows);
  c["trained_with"] = trained_with(configs[sel], context.n());
  c["validation_utility_note"] =
      "propose-test releases no measured utility: utility_reached is the level its doubling search ended at, a noisy "
      "search state on the grid u0 + j g that can exceed 1, not an accuracy";
  return finish(context, c, sel, configs[sel].noise_multiplier, final_run.params, std::nullopt, "");
}

}  // namespace dpareto::select
