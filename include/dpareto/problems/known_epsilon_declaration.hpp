#pragma once
// space.json's "known_epsilon" (issue 18 item 1): the external oracle trains by DP-SGD, so dpareto
// accounts its ε itself from the hyperparameters, without running it, and `explore --known-epsilon`
// can weigh ε exactly inside the acquisition:
//   "known_epsilon": {"mechanism": "dp-sgd", "examples": 60000, "delta": 1e-5, "sampling": "poisson",
//                     "epochs": "epochs", "lot_size": "batch", "noise_multiplier": "sigma"}
// epochs, lot_size and noise_multiplier each name a parameter of the space or give a number;
// sampling is poisson (default), fixed or fixed-general (privacy::Sampling). Steps = epochs ×
// round(examples / lot_size), q = lot_size / examples, as the built-in DP-training problems count
// them; ε by RDP at δ = delta.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/space/space.hpp"

namespace dpareto::problems {

struct KnownEpsilonDeclaration {
  // A parameter of the space (its index) or a constant.
  struct Value {
    std::optional<std::size_t> parameter;
    double constant = 0;
  };
  privacy::Sampling sampling = privacy::Sampling::poisson;
  long long examples = 0;
  double delta = 0;
  Value epochs, lot_size, noise_multiplier;

  // ε of the setting on `orders` (privacy::default_orders() for what is recorded,
  // privacy::search_orders() inside the acquisition). InputError naming the value for a setting the
  // declaration cannot account (epochs or lot size below 1, a lot above the examples, σ <= 0).
  double epsilon(const space::Params& params, const std::vector<double>& orders) const;
};

// InputError naming `source` and the key for anything else than the format above: an unknown key or
// mechanism, a name that is no parameter of `space`, examples not a whole number >= 1, delta outside
// (0, 1), or a range that holds settings it cannot account (epochs or lot size below 1, a lot above
// the examples, σ <= 0).
KnownEpsilonDeclaration parse_known_epsilon(const nlohmann::json& declaration, const space::Space& space,
                                            const std::string& source);
nlohmann::json known_epsilon_to_json(const KnownEpsilonDeclaration& declaration, const space::Space& space);
// A declaration as a problem's settings record it (known_epsilon_to_json's text), read back with
// parse_known_epsilon's checks (text that is no JSON is refused as not an object).
KnownEpsilonDeclaration parse_recorded_known_epsilon(const std::string& text, const space::Space& space,
                                                     const std::string& source);

}  // namespace dpareto::problems
