#include "dpareto/bo/ehvi.hpp"

#include <limits>

#include "box_sum.hpp"
#include "dpareto/bo/acquisition_registry.hpp"
#include "standard_normal.hpp"

namespace dpareto::bo {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ψ(t) = E[(t − Y)^+] for Y ~ N(μ, s²) = (t − μ)Φ(z) + s φ(z); ψ(−inf) = 0.
double psi(double t, double mean, double sd) {
  if (t == -kInf) return 0.0;
  const double z = (t - mean) / sd;
  return (t - mean) * normal_cdf(z) + sd * normal_pdf(z);
}

class Ehvi : public Acquisition {
 public:
  std::string name() const override { return "ehvi"; }
  std::string label() const override { return "EHVI"; }
  double value(const ImprovementRegion& region, const GpPrediction& p) const override {
    return expected_hypervolume_improvement(region.gp_boxes, p.mean, floored_sd(p));
  }
};

const AcquisitionRegistration registration("ehvi", [] { return std::make_unique<Ehvi>(); });

}  // namespace

double expected_hypervolume_improvement(const std::vector<pareto::Box>& boxes, const pareto::Point& mean,
                                        const pareto::Point& sd) {
  return box_sum(boxes, [&](std::size_t d, double t) { return psi(t, mean[d], sd[d]); });
}

}  // namespace dpareto::bo
