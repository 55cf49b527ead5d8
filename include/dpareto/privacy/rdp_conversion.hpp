#pragma once
// RDP -> (ε, δ)-DP conversions, minimized over the RDP orders (DESIGN.md §3.3).
// classic:  ε = ε(α) + log(1/δ)/(α−1)                                (Mironov 2017, Prop. 3)
// improved: ε = ε(α) + log((α−1)/α) − (log δ + log α)/(α−1)          (Canonne, Kamath, Steinke
//           2020, Prop. 12; Balle et al. 2020, Thm 21; Koskela–Kulkarni 2023, Lemma 3)
// Orders where the curve is +inf contribute ε = +inf; a NaN in the curve is a NumericalError.
// A zero at any order means identical output distributions: ε = 0 (δ = 0) exactly.
#include <string>
#include <vector>

namespace dpareto::privacy {

enum class Conversion { improved, classic };

struct EpsilonResult {
  double epsilon;  // >= 0, may be +inf
  double delta;
  double order;  // the minimizing RDP order
  Conversion conversion;
};

struct DeltaResult {
  double delta;  // in [0, 1]
  double epsilon;
  double order;  // the minimizing RDP order
  Conversion conversion;
};

// Smallest ε over the orders at which the curve guarantees (ε, δ)-DP; δ in (0, 1).
EpsilonResult rdp_to_epsilon(const std::vector<double>& orders, const std::vector<double>& rdp, double delta,
                             Conversion conversion = Conversion::improved);

// Smallest δ over the orders for a given ε >= 0 (the inverse of rdp_to_epsilon at each order).
DeltaResult rdp_to_delta(const std::vector<double>& orders, const std::vector<double>& rdp, double epsilon,
                         Conversion conversion = Conversion::improved);

// Names for CLI/JSON: "improved" / "classic"; parsing throws InputError naming `source`.
const char* to_string(Conversion conversion);
Conversion parse_conversion(const std::string& text, const std::string& source);

}  // namespace dpareto::privacy
