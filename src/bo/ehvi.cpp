#include "dpareto/bo/ehvi.hpp"

#include <algorithm>

#include "box_sum.hpp"
#include "dpareto/bo/acquisition_registry.hpp"

namespace dpareto::bo {
namespace {

class Ehvi : public Acquisition {
 public:
  std::string name() const override { return "ehvi"; }
  std::string label() const override { return "EHVI"; }
  double value(const ImprovementRegion& region, const GpPrediction& p) const override {
    std::vector<AxisLaw> laws;
    for (std::size_t d = 0; d < p.sd.size(); ++d) laws.push_back(axis_law(region, d, p.mean[d], p.sd[d]));
    return expected_hypervolume_improvement(region.geometry_boxes, laws);
  }
};

const AcquisitionRegistration registration("ehvi", [] { return std::make_unique<Ehvi>(); });

}  // namespace

double expected_hypervolume_improvement(const std::vector<pareto::Box>& boxes, const std::vector<AxisLaw>& laws) {
  // ψ_d once at each distinct bound of dimension d, in ascending order.
  std::vector<std::vector<double>> bounds(laws.size()), psi(laws.size());
  for (std::size_t d = 0; d < laws.size(); ++d) {
    for (const auto& b : boxes) bounds[d].insert(bounds[d].end(), {b.lower[d], b.upper[d]});
    std::sort(bounds[d].begin(), bounds[d].end());
    bounds[d].erase(std::unique(bounds[d].begin(), bounds[d].end()), bounds[d].end());
    psi[d] = expected_shortfall(laws[d], bounds[d]);
  }
  return box_sum(boxes, [&](std::size_t d, double t) {
    return psi[d][std::lower_bound(bounds[d].begin(), bounds[d].end(), t) - bounds[d].begin()];
  });
}

}  // namespace dpareto::bo
