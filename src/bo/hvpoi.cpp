#include "dpareto/bo/hvpoi.hpp"

#include <limits>

#include "box_sum.hpp"
#include "dpareto/bo/acquisition_registry.hpp"
#include "standard_normal.hpp"

namespace dpareto::bo {
namespace {

// Φ((t − μ)/s), with Φ(−inf) = 0 and Φ(+inf) = 1; a point mass (s = 0, an objective computed
// exactly) is P(μ ≤ t).
double cdf_at(double t, double mean, double sd) {
  if (t == -kInf) return 0.0;
  if (t == kInf) return 1.0;
  if (sd == 0) return mean <= t ? 1.0 : 0.0;
  return normal_cdf((t - mean) / sd);
}

class HvPoI : public Acquisition {
 public:
  std::string name() const override { return "hvpoi"; }
  std::string label() const override { return "HVPoI"; }
  double value(const ImprovementRegion& region, const GpPrediction& p) const override {
    const double hvi = region.mean_hvi(p.mean);
    if (hvi <= 0) return 0.0;
    return hvi * probability_of_improvement(region.gp_boxes, p.mean, p.sd);
  }
  bool may_improve(const ImprovementRegion& region, const pareto::Point& mean) const override {
    return region.mean_hvi(mean) > 0;
  }
};

const AcquisitionRegistration hvpoi_registration("hvpoi", [] { return std::make_unique<HvPoI>(); });

}  // namespace

double probability_of_improvement(const std::vector<pareto::Box>& boxes, const pareto::Point& mean,
                                  const pareto::Point& sd) {
  return box_sum(boxes, [&](std::size_t d, double t) { return cdf_at(t, mean[d], sd[d]); });
}

}  // namespace dpareto::bo
