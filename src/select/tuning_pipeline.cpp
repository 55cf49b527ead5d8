#include "dpareto/select/tuning_pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "certificate_dependence.hpp"
#include "dpareto/core/did_you_mean.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/select/tuning_accounting.hpp"
#include "dpareto/select/tuning_data.hpp"
#include "dpareto/select/tuning_plan.hpp"
#include "tuning_context.hpp"

namespace dpareto::select {
namespace {

constexpr std::pair<TuningMethod, const char*> kMethodNames[] = {{TuningMethod::random_stopping, "random-stopping"},
                                                                 {TuningMethod::grid, "grid"},
                                                                 {TuningMethod::subsampled, "subsampled"},
                                                                 {TuningMethod::propose_test, "propose-test"},
                                                                 {TuningMethod::dp_hype, "dp-hype"}};

void check_open_unit(double v, const char* flag) {
  if (!(v > 0 && v < 1)) throw InputError(std::string(flag) + " " + format_number(v) + " must be in (0, 1)");
}

void check_positive(double v, const char* flag) {
  if (!(v > 0) || std::isinf(v))
    throw InputError(std::string(flag) + " " + format_number(v) + " must be a finite number > 0");
}

}  // namespace

TuningMethod parse_tuning_method(const std::string& text, const std::string& source) {
  std::vector<std::string> names;
  for (const auto& [method, name] : kMethodNames) {
    if (text == name) return method;
    names.emplace_back(name);
  }
  throw InputError(source + " '" + text + "' is not random-stopping, grid, subsampled, propose-test or dp-hype" +
                   did_you_mean(text, names));
}

const char* to_string(TuningMethod method) {
  for (const auto& [m, name] : kMethodNames)
    if (m == method) return name;
  return "?";
}

StoppingRule effective_stopping(const TuningSettings& settings, std::size_t candidates) {
  return settings.stopping ? *settings.stopping : StoppingRule(PoissonStopping{2.5 * static_cast<double>(candidates)});
}

double effective_score_epsilon(const TuningSettings& settings, int validation_rows) {
  if (settings.score_epsilon) return *settings.score_epsilon;
  return std::min(std::sqrt(2.0) / (0.005 * validation_rows), 0.1 * settings.target_epsilon);
}

void check_tuning_settings(const TuningSettings& s) {
  check_positive(s.target_epsilon, "--target-epsilon");
  check_open_unit(s.delta, "--delta");
  check_open_unit(s.validation_fraction, "--validation-fraction");
  if (s.score_epsilon) check_positive(*s.score_epsilon, "--score-epsilon");
  if (s.stopping) check_stopping_rule(*s.stopping);
  check_open_unit(s.subsample_rate, "--subsample-rate");
  if (s.subsampled_variant != 1 && s.subsampled_variant != 2)
    throw InputError("--variant " + std::to_string(s.subsampled_variant) + " must be 1 or 2");
  check_open_unit(s.tuning_share, "--tuning-share");
  if (s.partitions < 2) throw InputError("--partitions " + std::to_string(s.partitions) + " must be >= 2");
  check_open_unit(s.granularity, "--granularity");
  if (!(s.utility_floor >= 0 && s.utility_floor < 1))
    throw InputError("--utility-floor " + format_number(s.utility_floor) + " must be in [0, 1)");
  if (s.clients < 2) throw InputError("--clients " + std::to_string(s.clients) + " must be >= 2");
  if (s.top_k < 1) throw InputError("--top-k " + std::to_string(s.top_k) + " must be >= 1");
  if (!(s.label_skew >= 0 && s.label_skew <= 1))
    throw InputError("--label-skew " + format_number(s.label_skew) + " must be in [0, 1]");
}

TuningOutcome tune(const problems::DpTrainingProblem& problem, const CandidateFile& candidates,
                   const TuningSettings& settings, const SpendingHook& before_spending) {
  check_tuning_settings(settings);
  auto [params, configs] = tuning_candidates(problem, candidates);
  TuningContext context{problem,
                        settings,
                        candidates,
                        std::move(params),
                        std::move(configs),
                        {},
                        nullptr,
                        privacy::default_orders(),
                        before_spending,
                        candidate_scope(candidates, problem, settings.candidates_from_private_front)};
  const int n = problem.data().train.size();
  context.rows.resize(static_cast<std::size_t>(n));
  std::iota(context.rows.begin(), context.rows.end(), 0);
  check_settings_fit(settings, context.params.size(), n, problem.name(), candidates.source);
  context.source = privacy::make_random_source(settings.seed);
  switch (settings.method) {
    case TuningMethod::random_stopping:
    case TuningMethod::grid:
      return tune_random_stopping_or_grid(context);
    case TuningMethod::subsampled:
      return tune_subsampled(context);
    case TuningMethod::propose_test:
      return tune_propose_test(context);
    case TuningMethod::dp_hype:
      return tune_dp_hype(context);
  }
  throw Error("tune: unknown method");
}

nlohmann::json rdp_component(const std::string& name, const std::vector<double>& orders,
                             const std::vector<double>& rdp) {
  nlohmann::json curve = nlohmann::json::array();
  for (std::size_t i = 0; i < orders.size(); ++i) curve.push_back({json_number(orders[i]), json_number(rdp[i])});
  return {{"name", name}, {"rdp", curve}};
}

nlohmann::json assumptions(privacy::Sampling sampling) {
  const bool poisson = sampling == privacy::Sampling::poisson;
  return {
      {"neighbouring",
       poisson ? "add/remove one training row (Poisson lots, every split assigns rows independently); an epsilon under "
                 "add/remove is not comparable with one under replace-one (a replacement is a removal and an addition)"
               : "replace one training row (fixed-size lots, every split assigns rows independently); an epsilon under "
                 "replace-one is not comparable with one under add/remove"},
      {"public",
       "the number of training rows and the size of every split drawn from them (validation, subsample, partitions, "
       "clients) are treated as public; the sampling rate q = lot/rows and the step count T = epochs x round(rows/lot) "
       "are computed from those sizes"},
      {"floating_point",
       "the DP-SGD noise is continuous Gaussian sampled in double precision (Box-Muller on 53-bit uniforms) and added "
       "to float32 gradient sums; the proofs are for real-valued noise, and floating-point samples can leak through "
       "their low-order bits (Mironov 2012): see docs/learn.md"},
      {"discrete_noise",
       "score, threshold and vote noise are exact discrete Laplace / Gaussian samples (Canonne-Kamath-Steinke 2020) at "
       "exactly the accounted scale (the exact rational of the double parameter, never rounded down)"}};
}

nlohmann::json certificate_header(const TuningContext& context, const privacy::EpsilonResult& total,
                                  const FinalTraining* final_training) {
  const bool seeded = context.source->reproducible();
  nlohmann::json c;
  c["method"] = to_string(context.settings.method);
  c["problem"] = context.problem.name();
  c["candidates"] = context.params.size();
  c["candidate_file"] = context.file.source;
  c["training_rows"] = context.n();
  c["sampling"] = privacy::to_string(context.configs.front().sampling);
  c["epsilon"] = json_number(total.epsilon);
  c["target_epsilon"] = json_number(context.settings.target_epsilon);
  c["delta"] = json_number(total.delta);
  c["order"] = json_number(total.order);
  c["conversion"] = privacy::to_string(total.conversion);
  const auto& s = context.settings;
  const bool pld = final_training != nullptr && final_training->accountant == privacy::AccountantKind::pld;
  c["accountant"] = pld ? "pld" : "rdp";
  c["accountant_note"] =
      pld ? "the tuning step's bound (a theorem in RDP) at delta/2 plus the final training's PLD bound at delta/2 "
            "(privacy-loss distribution, pessimistic discretization, both neighbour directions)"
      : final_training == nullptr
          ? "RDP: random stopping's bound (Papernot-Steinke; Koskela-Kulkarni) is a theorem in RDP, so the whole "
            "procedure is accounted in RDP whatever --accountant says"
      : s.accountant == privacy::AccountantKind::pld
          ? "RDP: tuning and final training composed in RDP and converted once; --accountant pld was asked for, but "
            "the PLD split (delta/2 each, basic composition) needed more noise for some candidate here, or the lots "
            "are not Poisson"
          : "RDP: tuning and final training composed in RDP and converted once (--accountant rdp)";
  c["randomness"] = seeded ? "seeded (not for release)" : "secure";
  c["test_split"] = context.settings.test_split_public ? "public" : "private";
  c["candidates_source"] = context.scope.source;
  c["covers"] = context.scope.covers;
  c["candidates_measured_on"] = context.file.measured_on ? to_json(*context.file.measured_on) : nlohmann::json(nullptr);
  c["data_roles"] = context.problem.data_roles_text();
  c["randomness_note"] =
      std::string("every decision, row split, lot and training seed comes from the ") +
      (seeded ? "ChaCha20 stream of --seed" : "OS CSPRNG (getrandom)") +
      "; each training run's lots and Gaussian noise are the ChaCha20 keystream under a 256-bit key drawn from it";
  c["assumptions"] = assumptions(context.configs.front().sampling);
  return c;
}

nlohmann::json budget_split(const PlanInputs& in, const std::vector<double>& tuning_rdp,
                            const std::vector<double>& training_rdp, const privacy::EpsilonResult& total) {
  const auto alone = [&](const std::vector<double>& curve) {
    return privacy::rdp_to_epsilon(in.orders, curve, in.settings.delta, in.settings.conversion).epsilon;
  };
  return {{"tuning_epsilon", json_number(alone(tuning_rdp))},
          {"training_epsilon", json_number(alone(training_rdp))},
          {"epsilon", json_number(total.epsilon)},
          {"note",
           "each part converted on its own at delta; the total is converted once from the composed RDP "
           "curve, so it is less than the sum"}};
}

nlohmann::json trained_with(const learn::TrainConfig& config, int rows) {
  return {{"rows", rows},
          {"lot_size", config.lot_size},
          {"epochs", config.epochs},
          {"steps", learn::training_steps(config, rows)},
          {"learning_rate", json_number(config.learning_rate)},
          {"noise_multiplier", json_number(config.noise_multiplier)},
          {"clip_norm", json_number(config.clip_norm)}};
}

TuningOutcome finish(const TuningContext& context, nlohmann::json c, std::optional<std::size_t> selected,
                     double selected_sigma, std::optional<Eigen::VectorXf> weights,
                     std::optional<double> validation_utility, const std::string& why) {
  TuningOutcome out;
  out.architecture = context.net().architecture().name;
  c["validation_utility"] = validation_utility ? json_number(*validation_utility) : nlohmann::json(nullptr);
  if (!selected || !weights) {
    c["selected"] = nullptr;
    c["test_utility"] = nullptr;
    c["note"] = why + ": nothing is released (the privacy cost above is still spent)";
    out.certificate = with_data_dependence(std::move(c));
    return out;
  }
  const auto& space = context.problem.space();
  nlohmann::json params = nlohmann::json::object();
  for (std::size_t d = 0; d < space.dimension(); ++d) {
    const auto& name = space.parameter(d).name;
    params[name] = json_number(name == "noise_multiplier" ? selected_sigma : context.params[*selected][d]);
  }
  c["selected"] = params;
  c["selected_index"] = *selected;
  const auto& s = context.settings;
  if (s.test_split_public || s.release_test_utility) {
    c["test_utility"] =
        json_number(learn::accuracy(context.net(), *weights, context.problem.data().test, context.threads()));
    c["test_utility_note"] =
        s.test_split_public
            ? "accuracy on the problem's test split, declared public (--test-split public), for information (not "
              "used in the selection)"
            : "UNACCOUNTED RELEASE: accuracy on the test split declared private (--test-split private), released by "
              "--release-test-utility; epsilon above does not cover it";
  } else {
    c["test_utility"] = nullptr;
    c["test_utility_note"] =
        "the test split is declared private (--test-split private): its accuracy would be a release this certificate "
        "does not account for, so it is not computed";
  }
  out.certificate = with_data_dependence(std::move(c));
  out.weights = std::move(weights);
  return out;
}

std::string tuning_budget_name(const TuningSettings& settings) {
  return "the tuning budget (--tuning-share " + format_number(settings.tuning_share) + " x --target-epsilon " +
         format_number(settings.target_epsilon) + ")";
}

learn::TrainResult train_final(TuningContext& context, learn::TrainConfig config, const std::vector<int>& rows) {
  const learn::Dataset data = context.data().subset(rows);
  auto result = train_keyed(context.net(), data, config, *context.source);
  // A property of the output itself, so reporting it is post-processing.
  if (!result.params.allFinite())
    throw Error("the final training run diverged (non-finite weights); nothing is released");
  return result;
}

}  // namespace dpareto::select
