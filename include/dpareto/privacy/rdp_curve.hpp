#pragma once
// An RDP curve as one value: the orders α > 1 and ε(α) at each, kept together so that two curves
// can only be composed at the same orders (DESIGN.md §3.3). Composition adds (Mironov 2017,
// Prop. 1); a uniform bound over mechanisms is the pointwise maximum (Koskela & Kulkarni 2023,
// Lemma 1); conversion to (ε, δ) minimizes over the orders (rdp_conversion.hpp).
#include <vector>

#include "dpareto/privacy/rdp_conversion.hpp"

namespace dpareto::privacy {

class RdpCurve {
 public:
  RdpCurve() = default;
  // InputError unless the lengths match, the orders are > 1 and the values >= 0 (+inf allowed).
  RdpCurve(std::vector<double> orders, std::vector<double> values);
  // ε(α) = 0 at every order: nothing spent yet.
  static RdpCurve zero(std::vector<double> orders);

  const std::vector<double>& orders() const { return orders_; }
  const std::vector<double>& values() const { return values_; }
  bool empty() const { return orders_.empty(); }

  // Composition with `other` at the same orders (InputError if they differ).
  RdpCurve& operator+=(const RdpCurve& other);
  friend RdpCurve operator+(RdpCurve a, const RdpCurve& b) { return a += b; }
  // k-fold composition of this mechanism (k >= 0).
  RdpCurve times(double k) const;
  // The pointwise maximum at the same orders: a bound valid for whichever of the two ran.
  static RdpCurve max(const RdpCurve& a, const RdpCurve& b);

  EpsilonResult epsilon(double delta, Conversion conversion = Conversion::improved) const;
  DeltaResult delta(double epsilon, Conversion conversion = Conversion::improved) const;

 private:
  std::vector<double> orders_, values_;
  void check_same_orders(const RdpCurve& other) const;
};

}  // namespace dpareto::privacy
