// `dpareto tune --method dp-hype` (Liebenow et al. 2025): the training rows are dealt to n
// simulated clients (iid, or label-skewed non-iid); each client trains every candidate on its own
// training rows, scores it on its own validation rows and votes for its top-k; the votes, with
// per-client discrete Gaussian noise, are summed by pairwise-masked secure aggregation
// (dp_hype.hpp, secure_aggregation.hpp) and the argmax is released. The winner is retrained by
// DP-SGD on the pooled rows (no federated averaging).
//
// Budget: the vote noise σ is the smallest for which the vote alone — at the record level, αk/σ²
// (one row can move its client's vote between two top-k sets, Δ₂² = 2k), or 4αk/σ² for label-skewed
// clients under replace-one neighbours (the replaced row can leave one client and join another, so
// two votes move, Δ₂² = 8k; dp_hype.hpp) — converts to
// tuning_share·E at δ; the client-level αk/(2σ²) of the paper is reported beside it. The final runs'
// σ (per candidate, to a common per-candidate ε) is then the smallest for which vote + training,
// composed, meets E. Client runs train with their candidate's final σ, extrapolated to the client's
// rows; only the votes leave a client, so that training needs no accounting.
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/select/dp_hype.hpp"
#include "dpareto/select/tuning_accounting.hpp"
#include "dpareto/select/tuning_data.hpp"
#include "tuning_context.hpp"
#include "tuning_plans.hpp"

namespace dpareto::select {

DpHypePlan plan_dp_hype(const PlanInputs& in) {
  const auto& s = in.settings;
  const std::size_t p = in.configs.size();
  DpHypePlan plan;
  plan.options.top_k = s.top_k;
  plan.record = record_vote_neighbours(s.client_split == ClientSplit::label_skew,
                                       in.configs.front().sampling != privacy::Sampling::poisson);
  const auto vote_curve = [&](double sigma) {
    DpHypeOptions o = plan.options;
    o.sigma = sigma;
    return dp_hype_rdp(in.orders, o, s.clients, p, plan.record);
  };
  const double tuning_target = s.tuning_share * s.target_epsilon;
  plan.options.sigma = smallest_meeting_target(
      [&](double sigma) {
        return privacy::rdp_to_epsilon(in.orders, vote_curve(sigma), s.delta, s.conversion).epsilon;
      },
      1e-3, 1e6, tuning_target, tuning_budget_name(s));
  plan.tuning_curve = vote_curve(plan.options.sigma);
  plan.final_training = calibrate_final_training(in, plan.tuning_curve);
  plan.split = retraining_split(in, plan.tuning_curve, plan.final_training);
  return plan;
}

TuningOutcome tune_dp_hype(TuningContext& context) {
  const auto& s = context.settings;
  const std::size_t p = context.configs.size();
  const auto plan = plan_dp_hype(context.inputs());
  const auto& options = plan.options;
  const auto record = plan.record;
  const auto& configs = plan.final_training.configs;
  const auto& total = plan.final_training.total;

  context.spend(plan.final_training.total_rdp, total);

  const auto clients = s.client_split == ClientSplit::iid
                           ? uniform_parts(context.rows, s.clients, *context.source)
                           : label_skewed_parts(context.rows, context.data().labels(), context.data().num_classes(),
                                                s.clients, s.label_skew, *context.source);
  std::vector<std::vector<double>> losses;  // losses[client][candidate] = 1 − local validation accuracy
  for (const auto& rows : clients) {
    const RowSplit split = bernoulli_rows(rows, s.validation_fraction, *context.source);
    std::vector<double> client(p, 1.0);  // a client without training or validation rows votes on constants
    if (!split.rest.empty() && !split.selected.empty()) {
      const auto train = context.data().subset(split.rest), validation = context.data().subset(split.selected);
      for (std::size_t c = 0; c < p; ++c) {
        const auto res =
            train_keyed(context.net(), train, extrapolate(configs[c], context.n(), train.size()), *context.source);
        if (!res.diverged) client[c] = 1 - learn::accuracy(context.net(), res.params, validation, context.threads());
      }
    }
    losses.push_back(std::move(client));
  }
  const auto outcome = dp_hype_select(losses, options, *context.source, *context.source);

  auto c = certificate_header(context, total, &plan.final_training);
  c["clients"] = s.clients;
  c["client_split"] = s.client_split == ClientSplit::iid ? "iid" : "label-skew";
  if (s.client_split == ClientSplit::label_skew) c["label_skew"] = json_number(s.label_skew);
  c["top_k"] = s.top_k;
  c["vote_sigma"] = json_number(options.sigma);
  c["noisy_votes"] = outcome.noisy_votes;
  auto vote = rdp_component(record == VoteNeighbours::record
                                ? "DP-HYPE vote, record level (one row changes its client's vote: alpha k / sigma^2)"
                                : "DP-HYPE vote, record level (a replaced row can leave one label-skewed client and "
                                  "join another, two votes change: 4 alpha k / sigma^2)",
                            context.orders, plan.tuning_curve);
  vote["sensitivity_squared"] = vote_sensitivity_squared(record, s.top_k);
  vote["sigma"] = c["vote_sigma"];
  vote["client_level_epsilon"] = json_number(
      privacy::rdp_to_epsilon(context.orders, dp_hype_client_removal_rdp(context.orders, options, s.clients, p),
                              s.delta, s.conversion)
          .epsilon);
  vote["client_level_note"] =
      "for information: adding or removing a whole client, whose noise share leaves with it (the total's noise "
      "variance drops from sigma^2 to sigma^2 (n-1)/n): the Renyi divergence of the two Gaussians, both directions";
  c["components"] = {vote, final_training_component(context, plan.final_training)};
  c["split"] = plan.split;
  c["validation_utility_note"] = "DP-HYPE releases votes, not a utility";

  const std::size_t sel = outcome.selected;
  const auto final_run = train_final(context, configs[sel], context.rows);
  c["trained_with"] = trained_with(configs[sel], context.n());
  return finish(context, c, sel, configs[sel].noise_multiplier, final_run.params, std::nullopt, "");
}

}  // namespace dpareto::select
