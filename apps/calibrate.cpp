// dpareto calibrate dpsgd|steps: the smallest noise multiplier, or the largest number of steps,
// meeting a target (eps, delta) (privacy module, calibration.hpp).
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accountant_flag.hpp"
#include "cli_options.hpp"
#include "command.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "pld_text.hpp"

namespace dpareto::apps {
namespace {

// The example of `calibrate dpsgd --help`, and of `calibrate --help`.
constexpr const char* kSigmaExample =
    "dpareto calibrate dpsgd --eps 1 --delta 1e-5 --q 0.01 --steps 10000 --sampling poisson";

struct Target {
  privacy::Sampling sampling;
  double q, epsilon, delta;
  std::vector<double> orders;
  privacy::Conversion conversion;
  privacy::AccountantKind accountant;
};

void add_target_flags(po::options_description& options) {
  options.add_options()("eps", po::value<double>()->required(), "target epsilon > 0")(
      "delta", po::value<double>()->required(), "target delta in (0, 1)")(
      "q", po::value<double>()->required(), "sampling rate q (poisson) or lot fraction m/n (fixed), in (0, 1]")(
      "sampling", po::value<std::string>()->required(), "poisson, fixed or fixed-general")(
      "orders", po::value<std::string>(), "comma-separated RDP orders > 1 (default: the built-in grid)")(
      "conversion", po::value<std::string>()->default_value("improved"), "improved or classic")(
      "json", "print one JSON object");
  add_accountant_flag(options);
}

Target read_target(const po::variables_map& vm) {
  Target t;
  t.sampling = privacy::parse_sampling(vm["sampling"].as<std::string>(), "--sampling");
  t.q = vm["q"].as<double>();
  if (!(t.q > 0 && t.q <= 1)) throw InputError("--q " + format_number(t.q) + " must be in (0, 1]");
  t.epsilon = vm["eps"].as<double>();
  if (!(t.epsilon > 0) || std::isinf(t.epsilon))
    throw InputError("--eps " + format_number(t.epsilon) + " must be a finite number > 0");
  t.delta = vm["delta"].as<double>();
  if (!(t.delta > 0 && t.delta < 1)) throw InputError("--delta " + format_number(t.delta) + " must be in (0, 1)");
  t.orders =
      vm.count("orders") ? parse_number_list(vm["orders"].as<std::string>(), "--orders") : privacy::default_orders();
  for (double a : t.orders)
    if (!(a > 1)) throw InputError("--orders: order " + format_number(a) + " must be > 1");
  t.conversion = privacy::parse_conversion(vm["conversion"].as<std::string>(), "--conversion");
  t.accountant = accountant_from(vm);
  if (t.accountant == privacy::AccountantKind::pld &&
      (vm.count("orders") || t.conversion != privacy::Conversion::improved))
    throw InputError(
        "--accountant pld uses the default orders and the improved conversion (drop --orders/--conversion)");
  return t;
}

// ε at (σ, T) by the PLD accountant, with its bracket.
privacy::PldEpsilon pld_epsilon(const Target& t, double sigma, long long steps) {
  privacy::PldAccountant accountant;
  accountant.compose_subsampled_gaussian(t.sampling, t.q, sigma, steps);
  return accountant.epsilon_bracket(t.delta);
}

int run_sigma(int argc, char** argv) {
  po::options_description options("calibrate dpsgd options");
  add_target_flags(options);
  options.add_options()("steps", po::value<long long>()->required(), "number of steps T >= 1");
  const auto vm = parse_command_line(
      "dpareto calibrate dpsgd --eps E --delta D --q Q --steps T --sampling poisson|fixed [--orders ...] "
      "[--conversion ...] [--accountant rdp|pld] [--json]",
      kSigmaExample, options, argc, argv);
  if (!vm) return 0;
  const Target t = read_target(*vm);
  const long long steps = (*vm)["steps"].as<long long>();
  if (steps < 1) throw InputError("--steps " + std::to_string(steps) + " must be >= 1");
  if (t.accountant == privacy::AccountantKind::pld) {
    const double sigma = privacy::calibrate_sigma(t.accountant, t.sampling, t.q, steps, t.epsilon, t.delta);
    const privacy::PldEpsilon r = pld_epsilon(t, sigma, steps);
    if (vm->count("json")) {
      nlohmann::json json = pld_json(r);
      json["sigma"] = json_number(sigma);
      std::cout << json.dump() << "\n";
    } else {
      std::cout << "sigma = " << readable_rounded_up(sigma) << " (epsilon = " << pld_epsilon_text(r)
                << " at delta = " << readable_rounded_up(t.delta) << ")\n";
    }
    return 0;
  }
  const double sigma = privacy::calibrate_sigma(t.sampling, t.q, steps, t.epsilon, t.delta, t.orders, t.conversion);
  const auto achieved = privacy::dpsgd_epsilon(t.sampling, t.q, sigma, steps, t.delta, t.orders, t.conversion);
  if (vm->count("json"))
    std::cout << nlohmann::json{{"sigma", json_number(sigma)}, {"epsilon", json_number(achieved.epsilon)}}.dump()
              << "\n";
  else
    std::cout << "sigma = " << readable_rounded_up(sigma) << " (epsilon = " << readable_rounded_up(achieved.epsilon)
              << " at delta = " << readable_rounded_up(t.delta) << ", order " << readable_number(achieved.order)
              << ")\n";
  return 0;
}

int run_steps(int argc, char** argv) {
  po::options_description options("calibrate steps options");
  add_target_flags(options);
  options.add_options()("sigma", po::value<double>()->required(), "noise multiplier > 0");
  const auto vm = parse_command_line(
      "dpareto calibrate steps --eps E --delta D --q Q --sigma S --sampling poisson|fixed [--orders ...] "
      "[--conversion ...] [--accountant rdp|pld] [--json]",
      "dpareto calibrate steps --eps 1 --delta 1e-5 --q 0.01 --sigma 1 --sampling poisson", options, argc, argv);
  if (!vm) return 0;
  const Target t = read_target(*vm);
  const double sigma = (*vm)["sigma"].as<double>();
  if (!(sigma > 0) || std::isinf(sigma))
    throw InputError("--sigma " + format_number(sigma) + " must be a finite number > 0");
  if (t.accountant == privacy::AccountantKind::pld) {
    const long long steps = privacy::max_steps(t.accountant, t.sampling, t.q, sigma, t.epsilon, t.delta);
    if (vm->count("json")) {
      nlohmann::json json =
          steps == 0 ? nlohmann::json{{"accountant", "pld"}, {"epsilon", 0}} : pld_json(pld_epsilon(t, sigma, steps));
      json["steps"] = steps;
      std::cout << json.dump() << "\n";
    } else {
      std::cout << "steps = " << steps
                << " (epsilon = " << (steps == 0 ? std::string("0") : pld_epsilon_text(pld_epsilon(t, sigma, steps)))
                << " at delta = " << readable_rounded_up(t.delta) << ")\n";
    }
    return 0;
  }
  const long long steps = privacy::max_steps(t.sampling, t.q, sigma, t.epsilon, t.delta, t.orders, t.conversion);
  const double eps =
      steps == 0 ? 0.0 : privacy::dpsgd_epsilon(t.sampling, t.q, sigma, steps, t.delta, t.orders, t.conversion).epsilon;
  if (vm->count("json"))
    std::cout << nlohmann::json{{"steps", steps}, {"epsilon", json_number(eps)}}.dump() << "\n";
  else
    std::cout << "steps = " << steps << " (epsilon = " << readable_rounded_up(eps)
              << " at delta = " << readable_rounded_up(t.delta) << ")\n";
  return 0;
}

int run_calibrate(int argc, char** argv) {
  return dispatch_actions(
      "calibrate", kSigmaExample,
      {{"dpsgd", "smallest noise multiplier sigma meeting (eps, delta) for given q, steps", run_sigma},
       {"steps", "largest number of steps meeting (eps, delta) for given q, sigma", run_steps}},
      argc, argv);
}

CommandRegistration calibrate_registration("calibrate", "noise multiplier or number of steps for a target (eps, delta)",
                                           run_calibrate);

}  // namespace
}  // namespace dpareto::apps
