#include "dpareto/privacy/rdp_curve.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"

namespace dpareto::privacy {

RdpCurve::RdpCurve(std::vector<double> orders, std::vector<double> values)
    : orders_(std::move(orders)), values_(std::move(values)) {
  if (orders_.size() != values_.size())
    throw InputError("RDP curve: " + std::to_string(orders_.size()) + " orders but " + std::to_string(values_.size()) +
                     " values");
  for (std::size_t i = 0; i < orders_.size(); ++i) {
    if (!(orders_[i] > 1) || !std::isfinite(orders_[i]))
      throw InputError("RDP curve: order " + format_number(orders_[i]) + " must be a finite number > 1");
    if (!(values_[i] >= 0))
      throw InputError("RDP curve: value " + format_number(values_[i]) + " at order " + format_number(orders_[i]) +
                       " must be >= 0");
  }
}

RdpCurve RdpCurve::zero(std::vector<double> orders) {
  std::vector<double> values(orders.size(), 0.0);
  return RdpCurve(std::move(orders), std::move(values));
}

void RdpCurve::check_same_orders(const RdpCurve& other) const {
  if (orders_ != other.orders_)
    throw InputError("RDP curves at different orders cannot be composed (" + std::to_string(orders_.size()) + " and " +
                     std::to_string(other.orders_.size()) + " orders)");
}

RdpCurve& RdpCurve::operator+=(const RdpCurve& other) {
  check_same_orders(other);
  for (std::size_t i = 0; i < values_.size(); ++i) values_[i] += other.values_[i];
  return *this;
}

RdpCurve RdpCurve::times(double k) const {
  if (!(k >= 0) || !std::isfinite(k))
    throw InputError("RDP curve: composition count " + format_number(k) + " must be >= 0");
  RdpCurve out = *this;
  for (double& v : out.values_) v = k == 0 ? 0.0 : k * v;
  return out;
}

RdpCurve RdpCurve::max(const RdpCurve& a, const RdpCurve& b) {
  a.check_same_orders(b);
  RdpCurve out = a;
  for (std::size_t i = 0; i < out.values_.size(); ++i) out.values_[i] = std::max(a.values_[i], b.values_[i]);
  return out;
}

EpsilonResult RdpCurve::epsilon(double delta, Conversion conversion) const {
  return rdp_to_epsilon(orders_, values_, delta, conversion);
}

DeltaResult RdpCurve::delta(double epsilon, Conversion conversion) const {
  return rdp_to_delta(orders_, values_, epsilon, conversion);
}

}  // namespace dpareto::privacy
