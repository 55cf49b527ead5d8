#include <utility>

#include "dpareto/privacy/accountant.hpp"

namespace dpareto::privacy {

RdpAccountant::RdpAccountant(std::vector<double> orders, Conversion conversion)
    : curve_(RdpCurve::zero(std::move(orders))), conversion_(conversion) {}

void RdpAccountant::compose_subsampled_gaussian(Sampling sampling, double q, double sigma, long long steps) {
  curve_ += RdpCurve(curve_.orders(), dpsgd_rdp(sampling, q, sigma, steps, curve_.orders()));
}

void RdpAccountant::compose_rdp(const RdpCurve& curve) {
  curve_ += curve;
}

EpsilonResult RdpAccountant::epsilon(double delta) const {
  return curve_.epsilon(delta, conversion_);
}

DeltaResult RdpAccountant::delta(double epsilon) const {
  return curve_.delta(epsilon, conversion_);
}

}  // namespace dpareto::privacy
