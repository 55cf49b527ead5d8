// The final training after a tuning step (propose-test, dp-hype): every candidate's σ on all rows,
// by the RDP accountant (tuning and training composed in RDP, converted once) or, with --accountant
// pld, by the PLD accountant where it needs less noise (the tuning step's RDP bound at δ/2 plus the
// training's PLD bound at δ/2, basic composition; Dwork–Roth Thm 3.16). The tuning steps' own
// bounds are theorems in RDP, so they stay in RDP either way.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "dpareto/privacy/pld_accountant.hpp"
#include "dpareto/select/tuning_accounting.hpp"
#include "tuning_context.hpp"
#include "tuning_plans.hpp"

namespace dpareto::select {
namespace {

std::vector<learn::TrainConfig> with_sigmas(std::vector<learn::TrainConfig> configs,
                                            const std::vector<double>& sigmas) {
  for (std::size_t i = 0; i < sigmas.size(); ++i) configs[i].noise_multiplier = sigmas[i];
  return configs;
}

FinalTraining rdp_final_training(const PlanInputs& in, const std::vector<double>& tuning_rdp) {
  const auto& s = in.settings;
  const auto total_of = [&](const std::vector<double>& training_rdp) {
    return privacy::rdp_to_epsilon(in.orders, compose(tuning_rdp, training_rdp), s.delta, s.conversion);
  };
  const auto per = calibrate_candidate_epsilon(
      in.configs, in.n, s.delta, in.orders, s.conversion,
      [&](const std::vector<double>& sigmas) {
        return total_of(uniform_training_rdp(with_sigmas(in.configs, sigmas), in.n, in.orders)).epsilon;
      },
      s.target_epsilon, "--target-epsilon");
  FinalTraining f;
  f.configs = with_sigmas(in.configs, per.sigmas);
  f.candidate_epsilon = per.candidate_epsilon;
  f.sigmas = per.sigmas;
  f.training_rdp = uniform_training_rdp(f.configs, in.n, in.orders);
  f.total_rdp = compose(tuning_rdp, f.training_rdp);
  f.total = total_of(f.training_rdp);
  return f;
}

// Each candidate's smallest σ (to 1e-10 relative) whose run alone is (ε_c, δ_F)-DP by PLD.
FinalTraining pld_final_training(const PlanInputs& in, const std::vector<double>& tuning_rdp) {
  const auto& s = in.settings;
  FinalTraining f;
  f.accountant = privacy::AccountantKind::pld;
  f.tuning_delta = f.training_delta = s.delta / 2;
  f.tuning_epsilon = privacy::rdp_to_epsilon(in.orders, tuning_rdp, f.tuning_delta, s.conversion).epsilon;
  f.candidate_epsilon = s.target_epsilon - f.tuning_epsilon;
  if (!(f.candidate_epsilon > 0))
    throw InputError("--target-epsilon " + format_number(s.target_epsilon) +
                     " is too small: the tuning step alone needs epsilon " + format_number(f.tuning_epsilon) +
                     " at delta/2 (lower --tuning-share)");
  // The RDP σ per candidate meets (ε_c, δ_F) already (PLD ε <= RDP ε): the PLD σ is searched below it.
  const auto rdp_sigmas = per_candidate_sigmas(in.configs, in.n, f.candidate_epsilon, f.training_delta, in.orders,
                                               privacy::Conversion::improved);
  std::map<std::tuple<privacy::Sampling, int, long long>, double> cache;  // σ per (sampling, lot, steps)
  for (std::size_t i = 0; i < in.configs.size(); ++i) {
    const auto& c = in.configs[i];
    const long long steps = learn::training_steps(c, in.n);
    const auto key = std::make_tuple(c.sampling, c.lot_size, steps);
    if (!cache.count(key)) {
      const double q = static_cast<double>(c.lot_size) / in.n;
      cache[key] = smallest_meeting_target(
          [&](double sigma) {
            return privacy::dpsgd_epsilon(privacy::AccountantKind::pld, c.sampling, q, sigma, steps, f.training_delta)
                .epsilon;
          },
          std::max(privacy::kMinNoiseMultiplier, rdp_sigmas[i] / 8), rdp_sigmas[i], f.candidate_epsilon,
          "per-candidate epsilon");
    }
    f.sigmas.push_back(cache[key]);
  }
  f.configs = with_sigmas(in.configs, f.sigmas);
  for (const auto& c : f.configs) {
    privacy::PldAccountant accountant;
    accountant.compose_subsampled_gaussian(c.sampling, static_cast<double>(c.lot_size) / in.n, c.noise_multiplier,
                                           learn::training_steps(c, in.n));
    const auto bracket = accountant.epsilon_bracket(f.training_delta);
    if (bracket.epsilon >= f.training_epsilon) {
      f.training_epsilon = bracket.epsilon;
      f.training_optimistic = bracket.optimistic;
      f.discretization = bracket.discretization;
    }
  }
  f.training_rdp = uniform_training_rdp(f.configs, in.n, in.orders);
  f.total_rdp = compose(tuning_rdp, f.training_rdp);
  // Both bounds hold: the basic composition of the two parts and the RDP composition of the whole.
  const auto rdp_total = privacy::rdp_to_epsilon(in.orders, f.total_rdp, s.delta, s.conversion);
  const double split_total = f.tuning_epsilon + f.training_epsilon;
  f.total = split_total <= rdp_total.epsilon
                ? privacy::EpsilonResult{split_total, s.delta, std::numeric_limits<double>::quiet_NaN(), s.conversion}
                : rdp_total;
  return f;
}

}  // namespace

FinalTraining calibrate_final_training(const PlanInputs& in, const std::vector<double>& tuning_rdp) {
  auto rdp = rdp_final_training(in, tuning_rdp);
  const bool poisson = std::all_of(in.configs.begin(), in.configs.end(), [](const learn::TrainConfig& c) {
    return c.sampling == privacy::Sampling::poisson;
  });
  // PLD accounts Poisson lots only, and its split pays basic composition (ε_T + ε_F) where RDP
  // composes tuning and training more cheaply: it is used when it needs no more noise than RDP for
  // any candidate (then its total meets the target tightly).
  if (in.settings.accountant != privacy::AccountantKind::pld || !poisson) return rdp;
  FinalTraining pld;
  try {
    pld = pld_final_training(in, tuning_rdp);
  } catch (const InputError&) {  // the tuning step alone needs the whole target at δ/2: RDP still may do
    return rdp;
  }
  for (std::size_t i = 0; i < pld.sigmas.size(); ++i)
    if (pld.sigmas[i] > rdp.sigmas[i]) return rdp;
  return pld;
}

nlohmann::json final_training_component(const TuningContext& context, const FinalTraining& f) {
  auto c =
      rdp_component("final training on all rows (max over the candidates' curves)", context.orders, f.training_rdp);
  c["per_candidate_epsilon"] = json_number(f.candidate_epsilon);
  c["noise_multipliers"] = f.sigmas;
  c["note"] = "the final run is chosen privately, so its curve is bounded uniformly over the candidates";
  if (f.accountant == privacy::AccountantKind::pld) {
    c["accountant"] = "pld";
    c["delta"] = json_number(f.training_delta);
    c["epsilon"] = json_number(f.training_epsilon);
    c["epsilon_optimistic"] = json_number(f.training_optimistic);
    c["discretization"] = json_number(f.discretization);
    c["note"] =
        "each candidate's sigma is the smallest for which its run alone is (per_candidate_epsilon, delta)-DP "
        "by the PLD accountant; epsilon is the largest candidate's PLD epsilon at this delta (the final run is "
        "chosen privately, so it is bounded uniformly over the candidates); rdp is the same runs' RDP curve";
  }
  return c;
}

nlohmann::json retraining_split(const PlanInputs& in, const std::vector<double>& tuning_rdp,
                                const FinalTraining& final_training) {
  auto split = budget_split(in, tuning_rdp, final_training.training_rdp, final_training.total);
  if (final_training.accountant == privacy::AccountantKind::pld) {
    split["tuning_epsilon"] = json_number(final_training.tuning_epsilon);
    split["training_epsilon"] = json_number(final_training.training_epsilon);
    split["tuning_delta"] = json_number(final_training.tuning_delta);
    split["training_delta"] = json_number(final_training.training_delta);
    split["note"] = std::isnan(final_training.total.order)
                        ? "the tuning step by its RDP bound at tuning_delta, the final training by the PLD accountant "
                          "at training_delta: epsilon = tuning_epsilon + training_epsilon (basic composition)"
                        : "the RDP composition of tuning and training gave a smaller epsilon than the PLD split "
                          "(tuning_epsilon + training_epsilon at delta/2 each), so the RDP total is certified";
  }
  split["tuning_share"] = json_number(in.settings.tuning_share);
  return split;
}

}  // namespace dpareto::select
