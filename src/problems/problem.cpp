#include "dpareto/problems/problem.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <numeric>

#include "dpareto/core/json_number.hpp"
#include "dpareto/core/stop_request.hpp"

namespace dpareto::problems {

double mean_within_range(const std::vector<double>& values, double lo, double hi) {
  return std::clamp(std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size()), lo, hi);
}

Evaluation Problem::evaluate(const space::Params& params, std::uint64_t seed) const {
  Evaluation e;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  try {
    e.delta = delta();
    e.epsilon = privacy(params);
    const UtilityResult u = utility(params, seed);
    e.utility = u.utility;
    e.utility_min = u.utility_min;
    e.utility_max = u.utility_max;
    e.message = u.message;
  } catch (const Interrupted&) {
    throw;  // a requested stop is not the oracle's failure
  } catch (const std::exception& ex) {
    e.seconds = elapsed();
    e.message = std::string("oracle error: ") + ex.what();
    return e;
  }
  e.seconds = elapsed();
  auto fail = [&](const std::string& why) {
    e.ok = false;
    e.message = why + (e.message.empty() ? "" : "; " + e.message);
    return e;
  };
  if (std::isnan(e.epsilon) || e.epsilon < 0)
    return fail("invalid epsilon " + format_number(e.epsilon) + " from the privacy oracle");
  for (double u : {e.utility, e.utility_min, e.utility_max})
    if (!std::isfinite(u) || u < 0 || u > 1)
      return fail("invalid utility " + format_number(u) + " from the utility oracle (must be in [0, 1])");
  if (!(e.utility_min <= e.utility && e.utility <= e.utility_max))
    return fail("utility " + format_number(e.utility) + " outside its own [utility_min, utility_max] = [" +
                format_number(e.utility_min) + ", " + format_number(e.utility_max) + "]");
  e.ok = true;
  return e;
}

}  // namespace dpareto::problems
