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
    return expected_hypervolume_improvement(region.geometry_boxes, laws(region, p));
  }
  double upper_bound(const ImprovementRegion& region, const GpPrediction& p) const override {
    return expected_hypervolume_improvement_bound(region.geometry_boxes, laws(region, p));
  }
  bool rests_on_spread() const override { return true; }

 private:
  static std::vector<AxisLaw> laws(const ImprovementRegion& region, const GpPrediction& p) {
    std::vector<AxisLaw> laws;
    for (std::size_t d = 0; d < p.sd.size(); ++d) laws.push_back(axis_law(region, d, p.mean[d], p.sd[d]));
    return laws;
  }
};

const AcquisitionRegistration ehvi_registration("ehvi", [] { return std::make_unique<Ehvi>(); });

}  // namespace

namespace {

// Σ_boxes Π_d [S_d(u_d) − S_d(l_d)] with S_d = shortfall(law_d, bounds) computed once at each
// distinct bound of dimension d, in ascending order.
template <typename Shortfall>
double box_sum_of_shortfalls(const std::vector<pareto::Box>& boxes, const std::vector<AxisLaw>& laws,
                             Shortfall shortfall) {
  std::vector<std::vector<double>> bounds(laws.size()), psi(laws.size());
  for (std::size_t d = 0; d < laws.size(); ++d) {
    for (const auto& b : boxes) bounds[d].insert(bounds[d].end(), {b.lower[d], b.upper[d]});
    std::sort(bounds[d].begin(), bounds[d].end());
    bounds[d].erase(std::unique(bounds[d].begin(), bounds[d].end()), bounds[d].end());
    psi[d] = shortfall(laws[d], bounds[d]);
  }
  return box_sum(boxes, [&](std::size_t d, double t) {
    return psi[d][std::lower_bound(bounds[d].begin(), bounds[d].end(), t) - bounds[d].begin()];
  });
}

}  // namespace

double expected_hypervolume_improvement(const std::vector<pareto::Box>& boxes, const std::vector<AxisLaw>& laws) {
  return box_sum_of_shortfalls(boxes, laws, expected_shortfall);
}

double expected_hypervolume_improvement_bound(const std::vector<pareto::Box>& boxes, const std::vector<AxisLaw>& laws) {
  return box_sum_of_shortfalls(boxes, laws, expected_shortfall_upper);
}

}  // namespace dpareto::bo
