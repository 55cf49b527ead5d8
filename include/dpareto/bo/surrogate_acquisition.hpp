#pragma once
// An acquisition on fitted surrogates as a function of unit-cube points, for maximize(). The dense
// stage predicts means first and variances (a triangular solve each) only where the acquisition
// may improve; where it is zero on every candidate (HVPoI where every mean is dominated), the
// `fallback` (EHVI, positive everywhere) ranks them instead and drives the local refinement. The
// values are computed in parallel; the fallback's exactly for the kExactRanks best candidates only
// (found with its cheap upper bound, Acquisition::upper_bound), the others keep their bounds, which
// rank them below those: the local starts and the first proposals come from that top. The local
// refinements run in parallel too (concurrent()).
//
// With `snap_to`, every unit point is scored at the setting it rounds to (space::Space::from_unit:
// integers rounded): an objective computed exactly (known ε) is that setting's, and the GPs must
// describe the same setting. Unsnapped, the utility GP at a fractional epoch or C beside the exact ε
// of the rounded one is a trade-off no setting has, which the maximizer finds and the rounded
// proposal does not deliver (SVT, 20 seeds: 0.2–0.35 pp of hypervolume).
//
// With `log_seconds` (a GP on the log training seconds of the evaluations: ExplorerOptions::cost_aware),
// every value is divided by the predicted seconds e^{mean} at the same setting: acquisition per
// second. Where the fallback ranks, the bounds are divided too before the top is chosen, so the top
// kExactRanks are the best exact values per second and every bound left is below them.
#include "dpareto/bo/acquisition.hpp"
#include "dpareto/bo/maximize.hpp"
#include "dpareto/bo/surrogates.hpp"
#include "dpareto/space/space.hpp"

namespace dpareto::bo {

class SurrogateAcquisition : public UnitFunction {
 public:
  SurrogateAcquisition(const Surrogates& surrogates, const ImprovementRegion& region, const Acquisition& acquisition,
                       const Acquisition& fallback, const space::Space* snap_to = nullptr,
                       const gp::GaussianProcess* log_seconds = nullptr);
  double value(const std::vector<double>& x) override;
  std::vector<double> values(const Eigen::MatrixXd& X) override;
  bool concurrent() const override { return true; }  // value() reads the fitted surrogates only
  static constexpr std::size_t kExactRanks = 64;

 private:
  // The acquisition of each prediction over its predicted seconds (`seconds`, 1 each without a cost GP).
  std::vector<double> all_values(const std::vector<GpPrediction>& predictions, const std::vector<double>& seconds) const;
  std::vector<double> top_values(const std::vector<GpPrediction>& predictions, const std::vector<double>& seconds) const;
  const Surrogates& surrogates_;
  const ImprovementRegion& region_;
  const Acquisition& acquisition_;
  const Acquisition& fallback_;
  const Acquisition* active_;
  const space::Space* snap_to_;
  const gp::GaussianProcess* log_seconds_;
  std::vector<double> snapped(const std::vector<double>& x) const;
  Eigen::MatrixXd snapped_rows(const Eigen::MatrixXd& X) const;
};

}  // namespace dpareto::bo
