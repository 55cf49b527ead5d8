// dpareto account dpsgd|gaussian|tuning: privacy accounting from the command line (privacy module).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "accountant_flag.hpp"
#include "cli_options.hpp"
#include "command.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/privacy/analytic_gaussian.hpp"
#include "dpareto/privacy/composition.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/pld_accountant.hpp"
#include "dpareto/privacy/random_stopping_bound.hpp"
#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/select/candidate_file.hpp"
#include "dpareto/select/tuning_plan.hpp"
#include "pld_text.hpp"
#include "problem_flags.hpp"
#include "tuning_flags.hpp"

namespace dpareto::apps {
namespace {

// The example of `account dpsgd --help`, and of `account --help`.
constexpr const char* kDpsgdExample =
    "dpareto account dpsgd --sampling poisson --q 0.01 --sigma 4 --steps 10000 --delta 1e-5";

using privacy::Conversion;
using privacy::Sampling;

double flag_in_open(const po::variables_map& vm, const char* flag, double lo, double hi) {
  const double v = vm[flag].as<double>();
  if (!(v > lo && v < hi))
    throw InputError(std::string("--") + flag + " " + format_number(v) + " must be in (" + format_number(lo) + ", " +
                     format_number(hi) + ")");
  return v;
}

// The flags shared by `account dpsgd`, `account tuning` (the base DP-SGD run).
void add_dpsgd_flags(po::options_description& options) {
  options.add_options()("sampling", po::value<std::string>()->required(),
                        "poisson (rate q, add/remove), fixed (lot m of n without replacement, q = m/n, replace-one; "
                        "Gaussian-specific bound) or fixed-general (the same with WBK19's general bound, as DPareto)")(
      "q", po::value<double>()->required(), "sampling rate q (poisson) or lot fraction m/n (fixed), in [0, 1]")(
      "sigma", po::value<double>()->required(), "noise multiplier (noise std / L2 sensitivity), > 0")(
      "steps", po::value<long long>()->required(), "number of steps T >= 0")("delta", po::value<double>()->required(),
                                                                             "target delta in (0, 1)")(
      "orders", po::value<std::string>(), "comma-separated RDP orders > 1 (default: the built-in grid)")(
      "conversion", po::value<std::string>()->default_value("improved"), "RDP -> (eps, delta): improved or classic")(
      "rdp", "also print the RDP curve")("json", "print one JSON object");
}

struct DpsgdFlags {
  Sampling sampling;
  double q, sigma, delta;
  long long steps;
  std::vector<double> orders;
  Conversion conversion;
};

DpsgdFlags read_dpsgd_flags(const po::variables_map& vm) {
  DpsgdFlags f;
  f.sampling = privacy::parse_sampling(vm["sampling"].as<std::string>(), "--sampling");
  f.q = vm["q"].as<double>();
  if (!(f.q >= 0 && f.q <= 1)) throw InputError("--q " + format_number(f.q) + " must be in [0, 1]");
  f.sigma = vm["sigma"].as<double>();
  if (!(f.sigma > 0) || std::isinf(f.sigma))
    throw InputError("--sigma " + format_number(f.sigma) + " must be a finite number > 0");
  f.steps = vm["steps"].as<long long>();
  if (f.steps < 0) throw InputError("--steps " + std::to_string(f.steps) + " must be >= 0");
  f.delta = flag_in_open(vm, "delta", 0, 1);
  f.orders =
      vm.count("orders") ? parse_number_list(vm["orders"].as<std::string>(), "--orders") : privacy::default_orders();
  for (double a : f.orders)
    if (!(a > 1)) throw InputError("--orders: order " + format_number(a) + " must be > 1");
  f.conversion = privacy::parse_conversion(vm["conversion"].as<std::string>(), "--conversion");
  return f;
}

// --rdp: the curve as [[order, value], ...] (JSON) or an order/rdp table (text).
nlohmann::json rdp_json(const std::vector<double>& orders, const std::vector<double>& rdp) {
  nlohmann::json curve = nlohmann::json::array();
  for (std::size_t i = 0; i < rdp.size(); ++i) curve.push_back({json_number(orders[i]), json_number(rdp[i])});
  return curve;
}

void print_rdp_table(const std::vector<double>& orders, const std::vector<double>& rdp) {
  std::cout << "order\trdp\n";
  for (std::size_t i = 0; i < rdp.size(); ++i)
    std::cout << readable_number(orders[i]) << "\t" << readable_rounded_up(rdp[i]) << "\n";
}

void print_epsilon(const privacy::EpsilonResult& r, const DpsgdFlags& f, const std::vector<double>& rdp,
                   const po::variables_map& vm, nlohmann::json json) {
  if (vm.count("json")) {
    json["epsilon"] = json_number(r.epsilon);
    json["delta"] = json_number(r.delta);
    json["order"] = json_number(r.order);
    json["conversion"] = privacy::to_string(r.conversion);
    json["sampling"] = privacy::to_string(f.sampling);
    if (vm.count("rdp")) json["rdp"] = rdp_json(f.orders, rdp);
    std::cout << json.dump() << "\n";
    return;
  }
  std::cout << "epsilon = " << readable_rounded_up(r.epsilon) << " at delta = " << readable_rounded_up(r.delta)
            << " (order " << readable_number(r.order) << ", " << privacy::to_string(r.conversion) << " conversion, "
            << privacy::to_string(f.sampling) << " sampling)\n";
  if (vm.count("rdp")) print_rdp_table(f.orders, rdp);
}

// ε by the PLD accountant: the bracket, then (with --rdp) the RDP curve it is capped by.
void print_pld_epsilon(const DpsgdFlags& f, const std::vector<double>& rdp, const po::variables_map& vm) {
  privacy::PldAccountant accountant(privacy::kAutoDiscretization, f.orders, f.conversion);
  accountant.compose_subsampled_gaussian(f.sampling, f.q, f.sigma, f.steps);
  const privacy::PldEpsilon r = accountant.epsilon_bracket(f.delta);
  if (vm.count("json")) {
    nlohmann::json json = pld_json(r);
    json["delta"] = json_number(r.delta);
    json["conversion"] = privacy::to_string(f.conversion);
    json["sampling"] = privacy::to_string(f.sampling);
    if (vm.count("rdp")) json["rdp"] = rdp_json(f.orders, rdp);
    std::cout << json.dump() << "\n";
    return;
  }
  std::cout << "epsilon = " << pld_epsilon_text(r) << " at delta = " << readable_rounded_up(r.delta) << " ("
            << privacy::to_string(f.sampling) << " sampling; RDP: " << readable_rounded_up(r.rdp) << ")\n";
  if (vm.count("rdp")) print_rdp_table(f.orders, rdp);
}

int run_dpsgd(int argc, char** argv) {
  po::options_description options("account dpsgd options");
  add_dpsgd_flags(options);
  add_accountant_flag(options);
  const auto vm = parse_command_line(
      "dpareto account dpsgd --sampling poisson|fixed --q Q --sigma S --steps T --delta D [--orders A,B,...] "
      "[--conversion improved|classic] [--accountant rdp|pld] [--rdp] [--json]",
      kDpsgdExample, options, argc, argv);
  if (!vm) return 0;
  const DpsgdFlags f = read_dpsgd_flags(*vm);
  const auto kind = accountant_from(*vm);
  const auto rdp = privacy::dpsgd_rdp(f.sampling, f.q, f.sigma, f.steps, f.orders);
  if (kind == privacy::AccountantKind::pld) {
    print_pld_epsilon(f, rdp, *vm);
    return 0;
  }
  print_epsilon(privacy::rdp_to_epsilon(f.orders, rdp, f.delta, f.conversion), f, rdp, *vm, nlohmann::json::object());
  return 0;
}

// `account tuning --method M`: what `dpareto tune` with the same flags would certify, from the
// problem's row count and the split sizes alone (select/tuning_plan.hpp).
int run_tuning_plan(int argc, char** argv) {
  po::options_description options("account tuning --method options");
  add_problem_flags(options);
  add_tuning_flags(options);
  options.add_options()("rows", po::value<int>(), "training rows n (default: the problem's)")(
      "validation-rows", po::value<int>(),
      "random-stopping, grid: validation rows (default round(f n)); subsampled: "
      "validation rows of X1 (default round(f |X1|))")(
      "subsample-rows", po::value<int>(), "subsampled: |X1| (default round(q n))")("json", "print one JSON object");
  const auto vm = parse_command_line(
      "dpareto account tuning --method random-stopping|grid|subsampled|propose-test|dp-hype --problem NAME "
      "--candidates FILE --target-epsilon E --delta D [method flags as for tune] [--rows N] [--validation-rows V] "
      "[--subsample-rows S] [--json]",
      "dpareto account tuning --method random-stopping --problem synthetic-logreg-sgd --set split=private "
      "--candidates cands.json --target-epsilon 1 --delta 1e-5",
      options, argc, argv);
  if (!vm) return 0;
  const select::TuningSettings settings = tuning_settings(*vm);
  const auto candidates = select::read_candidate_file((*vm)["candidates"].as<std::string>());
  const auto problem = make_problem_from(*vm);
  const auto* dp = dynamic_cast<const problems::DpTrainingProblem*>(problem.get());
  if (dp == nullptr)
    throw InputError("--problem " + problem->name() + " is not a DP-training problem (tune needs one)");
  auto configs = select::tuning_candidates(*dp, candidates).configs;
  const auto size_flag = [&](const char* flag, int fallback) {
    if (!vm->count(flag)) return fallback;
    const int v = (*vm)[flag].as<int>();
    if (v < 1) throw InputError(std::string("--") + flag + " " + std::to_string(v) + " must be >= 1");
    return v;
  };
  const int rows = size_flag("rows", dp->data().train.size());
  for (auto& c : configs) c.lot_size = std::min(c.lot_size, rows);
  select::check_settings_fit(settings, configs.size(), rows, dp->name(), candidates.source);
  select::TuningSizes sizes = select::expected_sizes(settings, rows);
  sizes.subsample_rows = size_flag("subsample-rows", sizes.subsample_rows);
  sizes.validation_rows = size_flag("validation-rows", sizes.validation_rows);
  const auto plan = select::plan_tuning(configs, settings, sizes);

  nlohmann::json json = plan.details;
  json["method"] = select::to_string(settings.method);
  json["epsilon"] = json_number(plan.total.epsilon);
  json["delta"] = json_number(plan.total.delta);
  json["order"] = json_number(plan.total.order);
  json["conversion"] = privacy::to_string(plan.total.conversion);
  json["noise_multipliers"] = plan.noise_multipliers;
  if (vm->count("json")) {
    std::cout << json.dump() << "\n";
    return 0;
  }
  std::cout << json["method"].get<std::string>()
            << " (planned, as tune would certify): epsilon = " << readable_rounded_up(plan.total.epsilon)
            << " at delta = " << readable_rounded_up(plan.total.delta) << " (order "
            << readable_number(plan.total.order) << ", " << privacy::to_string(plan.total.conversion)
            << "); split: tuning " << readable_json(json["split"]["tuning_epsilon"], true) << ", training "
            << readable_json(json["split"]["training_epsilon"], true) << "\n";
  std::cout << "noise multipliers (per candidate): " << readable_json(json["noise_multipliers"], true) << "\n";
  if (json.contains("rows")) std::cout << "rows: " << readable_json(json["rows"]) << "\n";
  return 0;
}

int run_tuning(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--method" || std::string(argv[i]).starts_with("--method="))
      return run_tuning_plan(argc, argv);
  po::options_description options("account tuning options");
  options.add_options()("distribution", po::value<std::string>()->required(),
                        "law of the number of runs K: poisson (--mu) or tnb (--eta, --gamma)")(
      "mu", po::value<double>(), "Poisson mean of K, >= 1")("eta", po::value<double>(),
                                                            "truncated negative binomial eta > -1")(
      "gamma", po::value<double>(), "truncated negative binomial gamma in (0, 1)")(
      "score-epsilon", po::value<double>(),
      "each run also releases an epsilon-DP score (e.g. dpareto tune's noisy validation count)");
  add_dpsgd_flags(options);
  const auto vm = parse_command_line(
      "dpareto account tuning --distribution poisson|tnb (--mu M | --eta H --gamma G) --sampling poisson|fixed --q Q "
      "--sigma S --steps T --delta D [--score-epsilon E] [--orders ...] [--conversion ...] [--rdp] [--json]",
      "dpareto account tuning --distribution poisson --mu 10 --sampling poisson --q 0.01 --sigma 4 --steps 1000 "
      "--delta 1e-5",
      options, argc, argv);
  if (!vm) return 0;
  const DpsgdFlags f = read_dpsgd_flags(*vm);
  const privacy::RdpCurve training(f.orders, privacy::dpsgd_rdp(f.sampling, f.q, f.sigma, f.steps, f.orders));
  std::optional<double> score;
  if (vm->count("score-epsilon")) {
    score = (*vm)["score-epsilon"].as<double>();
    if (!(*score > 0) || std::isinf(*score))
      throw InputError("--score-epsilon " + format_number(*score) + " must be a finite number > 0");
  }
  const std::string distribution = (*vm)["distribution"].as<std::string>();
  nlohmann::json json = {{"distribution", distribution}};
  privacy::StoppingRule rule;
  if (distribution == "poisson") {
    if (!vm->count("mu")) throw InputError("--distribution poisson needs --mu");
    const double mu = (*vm)["mu"].as<double>();
    if (!(mu >= 1) || std::isinf(mu))
      throw InputError("--mu " + format_number(mu) +
                       " must be a finite number >= 1 (the privacy bound holds only from 1 on)");
    rule = privacy::PoissonStopping{mu};
    json["expected_runs"] = json_number(mu);
  } else if (distribution == "tnb") {
    if (!vm->count("eta") || !vm->count("gamma")) throw InputError("--distribution tnb needs --eta and --gamma");
    const double eta = (*vm)["eta"].as<double>();
    if (!(eta > -1) || std::isinf(eta))
      throw InputError("--eta " + format_number(eta) + " must be a finite number > -1");
    const double gamma = flag_in_open(*vm, "gamma", 0, 1);
    rule = privacy::TruncatedNegativeBinomialStopping{eta, gamma};
    json["expected_runs"] = json_number(privacy::truncated_negative_binomial_mean(eta, gamma));
  } else {
    throw InputError("--distribution '" + distribution + "' is not poisson or tnb");
  }
  // The same function `dpareto tune` certifies with.
  const auto rdp = privacy::random_stopping_rdp(rule, training, score).values();
  const auto result = privacy::rdp_to_epsilon(f.orders, rdp, f.delta, f.conversion);
  if (!vm->count("json"))
    std::cout << "random-stopping tuning (" << distribution << ", E[K] = " << readable_json(json["expected_runs"])
              << "): ";
  print_epsilon(result, f, rdp, *vm, json);
  return 0;
}

int run_gaussian(int argc, char** argv) {
  po::options_description options("account gaussian options");
  options.add_options()("eps", po::value<double>()->required(), "target epsilon >= 0")(
      "delta", po::value<double>()->required(), "target delta in (0, 1)")(
      "sensitivity", po::value<double>()->default_value(1.0), "L2 sensitivity > 0")("json", "print one JSON object");
  const auto vm = parse_command_line("dpareto account gaussian --eps E --delta D [--sensitivity S] [--json]",
                                     "dpareto account gaussian --eps 1 --delta 1e-5", options, argc, argv);
  if (!vm) return 0;
  const double eps = (*vm)["eps"].as<double>();
  if (!(eps >= 0) || std::isinf(eps)) throw InputError("--eps " + format_number(eps) + " must be a finite number >= 0");
  const double delta = flag_in_open(*vm, "delta", 0, 1);
  const double sensitivity = (*vm)["sensitivity"].as<double>();
  if (!(sensitivity > 0) || std::isinf(sensitivity))
    throw InputError("--sensitivity " + format_number(sensitivity) + " must be a finite number > 0");
  const double analytic = privacy::analytic_gaussian_sigma(eps, delta, sensitivity);
  const bool classic_valid = eps > 0 && eps < 1;
  const double classic = classic_valid ? privacy::classic_gaussian_sigma(eps, delta, sensitivity) : NAN;
  if (vm->count("json")) {
    std::cout
        << nlohmann::json{{"sigma_analytic", json_number(analytic)}, {"sigma_classic", json_number(classic)}}.dump()
        << "\n";
  } else {
    std::cout << "sigma (analytic Gaussian) = " << readable_rounded_up(analytic) << "; sigma (classic) = "
              << (classic_valid ? readable_rounded_up(classic) : std::string("not valid (needs 0 < eps < 1)")) << "\n";
  }
  return 0;
}

int run_account(int argc, char** argv) {
  return dispatch_actions(
      "account", kDpsgdExample,
      {{"dpsgd", "epsilon of DP-SGD (subsampled Gaussian, RDP accountant)", run_dpsgd},
       {"gaussian", "sigma of the Gaussian mechanism for (eps, delta): analytic and classic", run_gaussian},
       {"tuning",
        "epsilon of hyperparameter tuning: random stopping over DP-SGD runs, or (--method) what tune would certify",
        run_tuning}},
      argc, argv);
}

CommandRegistration account_registration("account",
                                         "privacy accounting: DP-SGD epsilon, Gaussian sigma, tuning epsilon",
                                         run_account);

}  // namespace
}  // namespace dpareto::apps
