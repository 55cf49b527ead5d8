#pragma once
// An acquisition on fitted surrogates as a function of unit-cube points, for maximize(). The dense
// stage predicts means first and variances (a triangular solve each) only where the acquisition
// may improve; where it is zero on every candidate (HVPoI where every mean is dominated), the
// `fallback` (EHVI, positive everywhere) ranks them instead and drives the local refinement.
#include "dpareto/bo/acquisition.hpp"
#include "dpareto/bo/maximize.hpp"
#include "dpareto/bo/surrogates.hpp"

namespace dpareto::bo {

class SurrogateAcquisition : public UnitFunction {
 public:
  SurrogateAcquisition(const Surrogates& surrogates, const ImprovementRegion& region, const Acquisition& acquisition,
                       const Acquisition& fallback);
  double value(const std::vector<double>& x) override;
  std::vector<double> values(const Eigen::MatrixXd& X) override;

 private:
  const Surrogates& surrogates_;
  const ImprovementRegion& region_;
  const Acquisition& acquisition_;
  const Acquisition& fallback_;
  const Acquisition* active_;
};

}  // namespace dpareto::bo
