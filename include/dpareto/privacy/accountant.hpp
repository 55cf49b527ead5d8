#pragma once
// The accountant seam (issue 19): something that composes privacy events and answers ε(δ) and
// δ(ε). RdpAccountant implements it with RDP curves now; a PLD accountant is one more
// implementation of the same interface.
#include <vector>

#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/rdp_curve.hpp"

namespace dpareto::privacy {

class Accountant {
 public:
  virtual ~Accountant() = default;
  // `steps` runs of the Gaussian mechanism with noise multiplier sigma on lots drawn by `sampling`
  // at rate q (DP-SGD; dpsgd_accountant.hpp).
  virtual void compose_subsampled_gaussian(Sampling sampling, double q, double sigma, long long steps) = 0;
  // A mechanism known by its RDP curve (tuning bounds, pure-DP scores, votes).
  virtual void compose_rdp(const RdpCurve& curve) = 0;
  virtual EpsilonResult epsilon(double delta) const = 0;
  virtual DeltaResult delta(double epsilon) const = 0;
};

class RdpAccountant final : public Accountant {
 public:
  explicit RdpAccountant(std::vector<double> orders = default_orders(), Conversion conversion = Conversion::improved);
  void compose_subsampled_gaussian(Sampling sampling, double q, double sigma, long long steps) override;
  void compose_rdp(const RdpCurve& curve) override;
  EpsilonResult epsilon(double delta) const override;
  DeltaResult delta(double epsilon) const override;
  // Everything composed so far.
  const RdpCurve& curve() const { return curve_; }

 private:
  RdpCurve curve_;
  Conversion conversion_;
};

}  // namespace dpareto::privacy
