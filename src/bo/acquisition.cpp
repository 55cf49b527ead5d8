#include "dpareto/bo/acquisition.hpp"

#include <algorithm>

namespace dpareto::bo {

pareto::Point floored_sd(const GpPrediction& p) {
  pareto::Point sd = p.sd;
  for (double& s : sd) s = std::max(s, 1e-12);
  return sd;
}

}  // namespace dpareto::bo
