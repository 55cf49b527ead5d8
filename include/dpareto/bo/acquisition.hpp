#pragma once
// A multi-objective acquisition (Couckuyt et al. 2014; DESIGN.md §3.2, §3.7): the value of a
// Gaussian prediction of every objective against the improvement region. Each acquisition is one
// file that registers itself by name (hvpoi.cpp, ehvi.cpp; acquisition_registry.hpp).
#include <limits>
#include <string>

#include "dpareto/bo/improvement_region.hpp"
#include "dpareto/pareto/point.hpp"

namespace dpareto::bo {

// A Gaussian prediction of every objective in GP space (pareto::Objective::to_gp), oriented so
// that smaller is better: mean (log ε, −logit u, ...) and its sd. sd 0 is a point mass, taken
// exactly by every acquisition: an objective computed without training (issue 18: ε from the
// accountant), not modelled. A GP's sd is floored at kMinGpSd (Surrogates), so that a noiseless
// GP still gives a proper normal.
struct GpPrediction {
  pareto::Point mean, sd;
};

inline constexpr double kMinGpSd = 1e-12;

class Acquisition {
 public:
  virtual ~Acquisition() = default;
  virtual std::string name() const = 0;   // as registered: "hvpoi"
  virtual std::string label() const = 0;  // in figures: "HVPoI"
  virtual double value(const ImprovementRegion& region, const GpPrediction& prediction) const = 0;
  // False when the value is 0 wherever the predictive mean is this one, whatever the variances: a
  // cheap screen (means only) before predictive variances are computed.
  virtual bool may_improve(const ImprovementRegion& /*region*/, const pareto::Point& /*mean*/) const { return true; }
  // A value at least value(region, prediction), cheaper to compute where the acquisition has one
  // (EHVI: no quadrature); +inf where it has none. Lets a ranking skip candidates that cannot reach its top.
  virtual double upper_bound(const ImprovementRegion& /*region*/, const GpPrediction& /*prediction*/) const {
    return std::numeric_limits<double>::infinity();
  }
  // True when the value integrates the whole predictive distribution (EHVI), so that it is only as
  // good as the predictive sd: the explorer then fits the noisy objectives' GPs with input warping
  // (gp/input_warping.hpp), whose sd follows a function that is flat in places and steep in others.
  virtual bool rests_on_spread() const { return false; }
};

}  // namespace dpareto::bo
