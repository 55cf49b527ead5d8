#include "dpareto/bo/acquisition.hpp"

#include <algorithm>

namespace dpareto::bo {

pareto::Point2 gp_space_mean(const GpPrediction& p) {
  return {p.mean_log_epsilon, -p.mean_logit_utility};
}

pareto::Point2 gp_space_sd(const GpPrediction& p) {
  return {std::max(p.sd_log_epsilon, 1e-12), std::max(p.sd_logit_utility, 1e-12)};
}

}  // namespace dpareto::bo
