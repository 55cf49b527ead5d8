#include "dpareto/problems/known_epsilon_declaration.hpp"

#include <cmath>
#include <limits>
#include <set>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::problems {
namespace {

KnownEpsilonDeclaration::Value parse_value(const nlohmann::json& value, const space::Space& space,
                                           const std::string& where) {
  if (value.is_string()) {
    try {
      return {space.index_of(value.get<std::string>()), 0};
    } catch (const InputError&) {
      throw InputError(where + ": \"" + printable(value.get<std::string>()) + "\" names no parameter of the space");
    }
  }
  if (!value.is_number()) throw InputError(where + ": expected a parameter name or a number, got " + value.dump());
  return {std::nullopt, value.get<double>()};
}

double value_of(const KnownEpsilonDeclaration::Value& v, const space::Params& params) {
  return v.parameter ? params.at(*v.parameter) : v.constant;
}

}  // namespace

KnownEpsilonDeclaration parse_known_epsilon(const nlohmann::json& declaration, const space::Space& space,
                                            const std::string& source) {
  const std::string where = source + ": \"known_epsilon\"";
  if (!declaration.is_object()) throw InputError(where + ": expected an object, got " + declaration.dump());
  static const std::set<std::string> known{"mechanism", "examples", "delta",           "sampling",
                                           "epochs",    "lot_size", "noise_multiplier"};
  for (const auto& [key, value] : declaration.items())
    if (!known.count(key))
      throw InputError(where + ": unknown key \"" + printable(key) +
                       "\" (known: mechanism, examples, delta, sampling, epochs, lot_size, noise_multiplier)");
  for (const char* key : {"mechanism", "examples", "delta", "epochs", "lot_size", "noise_multiplier"})
    if (!declaration.contains(key)) throw InputError(where + ": no \"" + key + "\"");
  const auto& mechanism = declaration.at("mechanism");
  if (mechanism != "dp-sgd")
    throw InputError(where + ": mechanism " + mechanism.dump() + " is not one dpareto accounts (dp-sgd)");
  KnownEpsilonDeclaration d;
  const double examples = number_from_json(declaration.at("examples"), where + ".examples");
  if (!(examples >= 1 && examples <= 1e15 && examples == std::floor(examples)))
    throw InputError(where + ".examples: " + format_number(examples) + " is not a whole number >= 1");
  d.examples = static_cast<long long>(examples);
  d.delta = number_from_json(declaration.at("delta"), where + ".delta");
  if (!(d.delta > 0 && d.delta < 1))
    throw InputError(where + ".delta: " + format_number(d.delta) + " is not in (0, 1)");
  if (declaration.contains("sampling")) {
    if (!declaration.at("sampling").is_string())
      throw InputError(where + ".sampling: expected poisson, fixed or fixed-general");
    d.sampling = privacy::parse_sampling(declaration.at("sampling").get<std::string>(), where + ".sampling");
  }
  d.epochs = parse_value(declaration.at("epochs"), space, where + ".epochs");
  d.lot_size = parse_value(declaration.at("lot_size"), space, where + ".lot_size");
  d.noise_multiplier = parse_value(declaration.at("noise_multiplier"), space, where + ".noise_multiplier");
  // Every setting of the space must be accountable: checked on the ranges, once, here.
  const auto check_range = [&](const KnownEpsilonDeclaration::Value& v, const char* key, double lo, double hi) {
    const double low = v.parameter ? space.parameter(*v.parameter).low : v.constant;
    const double high = v.parameter ? space.parameter(*v.parameter).high : v.constant;
    if (!(low >= lo && high <= hi))
      throw InputError(where + "." + key + ": " +
                       (v.parameter ? "parameter '" + space.parameter(*v.parameter).name + "' ranges over [" +
                                          format_number(low) + ", " + format_number(high) + "]"
                                    : format_number(low)) +
                       ", outside [" + format_number(lo) + ", " + format_number(hi) + "]");
  };
  check_range(d.epochs, "epochs", 1, 1e9);
  check_range(d.lot_size, "lot_size", 1, static_cast<double>(d.examples));
  check_range(d.noise_multiplier, "noise_multiplier", std::numeric_limits<double>::min(),
              std::numeric_limits<double>::max());
  return d;
}

nlohmann::json known_epsilon_to_json(const KnownEpsilonDeclaration& d, const space::Space& space) {
  const auto value = [&](const KnownEpsilonDeclaration::Value& v) -> nlohmann::json {
    if (v.parameter) return space.parameter(*v.parameter).name;
    return v.constant;
  };
  return {{"mechanism", "dp-sgd"},
          {"examples", d.examples},
          {"delta", d.delta},
          {"sampling", privacy::to_string(d.sampling)},
          {"epochs", value(d.epochs)},
          {"lot_size", value(d.lot_size)},
          {"noise_multiplier", value(d.noise_multiplier)}};
}

double KnownEpsilonDeclaration::epsilon(const space::Params& params, const std::vector<double>& orders) const {
  const double epochs_value = value_of(epochs, params), lot_value = value_of(lot_size, params);
  const double sigma = value_of(noise_multiplier, params);
  const std::string where = "known_epsilon: ";
  if (!(epochs_value >= 1 && epochs_value <= 1e9))
    throw InputError(where + "epochs " + format_number(epochs_value) + " is outside [1, 1e9]");
  if (!(lot_value >= 1 && lot_value <= static_cast<double>(examples)))
    throw InputError(where + "lot_size " + format_number(lot_value) +
                     " is outside [1, examples = " + std::to_string(examples) + "]");
  if (!(sigma > 0 && std::isfinite(sigma)))
    throw InputError(where + "noise_multiplier " + format_number(sigma) + " is not a positive number");
  const long long lot = std::llround(lot_value);
  const long long steps = privacy::dpsgd_steps(examples, lot, std::llround(epochs_value));
  return privacy::dpsgd_epsilon(sampling, static_cast<double>(lot) / static_cast<double>(examples), sigma, steps, delta,
                                orders)
      .epsilon;
}

KnownEpsilonDeclaration parse_recorded_known_epsilon(const std::string& text, const space::Space& space,
                                                     const std::string& source) {
  return parse_known_epsilon(nlohmann::json::parse(text, nullptr, false), space, source);
}

}  // namespace dpareto::problems
