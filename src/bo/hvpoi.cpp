#include "dpareto/bo/hvpoi.hpp"

#include <limits>

#include "dpareto/bo/acquisition_registry.hpp"
#include "standard_normal.hpp"

namespace dpareto::bo {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Φ((t − μ)/s), with Φ(−inf) = 0 and Φ(+inf) = 1.
double cdf_at(double t, double mean, double sd) {
  if (t == -kInf) return 0.0;
  if (t == kInf) return 1.0;
  return normal_cdf((t - mean) / sd);
}

class HvPoI : public Acquisition {
 public:
  std::string name() const override { return "hvpoi"; }
  std::string label() const override { return "HVPoI"; }
  double value(const ImprovementRegion& region, const GpPrediction& p) const override {
    const double hvi = region.mean_hvi(p.mean_log_epsilon, p.mean_logit_utility);
    if (hvi <= 0) return 0.0;
    return hvi * probability_of_improvement(region.gp_cells, gp_space_mean(p), gp_space_sd(p));
  }
  bool may_improve(const ImprovementRegion& region, double mean_log_epsilon, double mean_logit_utility) const override {
    return region.mean_hvi(mean_log_epsilon, mean_logit_utility) > 0;
  }
};

const AcquisitionRegistration registration("hvpoi", [] { return std::make_unique<HvPoI>(); });

}  // namespace

double probability_of_improvement(const std::vector<pareto::Cell>& cells, const pareto::Point2& mean,
                                  const pareto::Point2& sd) {
  double poi = 0;
  for (const auto& c : cells)
    poi += (cdf_at(c.a_high, mean[0], sd[0]) - cdf_at(c.a_low, mean[0], sd[0])) * cdf_at(c.b_high, mean[1], sd[1]);
  return poi;
}

}  // namespace dpareto::bo
