#include "dpareto/bo/ehvi.hpp"

#include <limits>

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
    return expected_hypervolume_improvement(region.gp_cells, gp_space_mean(p), gp_space_sd(p));
  }
};

const AcquisitionRegistration registration("ehvi", [] { return std::make_unique<Ehvi>(); });

}  // namespace

double expected_hypervolume_improvement(const std::vector<pareto::Cell>& cells, const pareto::Point2& mean,
                                        const pareto::Point2& sd) {
  double ehvi = 0;
  for (const auto& c : cells)
    ehvi += (psi(c.a_high, mean[0], sd[0]) - psi(c.a_low, mean[0], sd[0])) * psi(c.b_high, mean[1], sd[1]);
  return ehvi;
}

}  // namespace dpareto::bo
