#include "dpareto/problems/problem.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <numeric>

#include "dpareto/core/json_number.hpp"
#include "dpareto/core/seconds_since.hpp"
#include "dpareto/core/stop_request.hpp"

namespace dpareto::problems {

double mean_within_range(const std::vector<double>& values, double lo, double hi) {
  return std::clamp(std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size()), lo, hi);
}

namespace {

// Why a (epsilon, utility range) triple is no result ("" when it is one).
std::string result_problem(double epsilon, double utility, double lo, double hi) {
  if (std::isnan(epsilon) || epsilon < 0) return "invalid epsilon " + format_number(epsilon);
  for (double u : {utility, lo, hi})
    if (!std::isfinite(u) || u < 0 || u > 1) return "invalid utility " + format_number(u) + " (must be in [0, 1])";
  if (!(lo <= utility && utility <= hi))
    return "utility " + format_number(utility) + " outside its own [utility_min, utility_max] = [" + format_number(lo) +
           ", " + format_number(hi) + "]";
  return "";
}

}  // namespace

std::string intermediate_results_problem(const Evaluation& e) {
  double previous = 0;
  for (std::size_t i = 0; i < e.intermediate.size(); ++i) {
    const IntermediateResult& r = e.intermediate[i];
    const std::string where =
        "intermediate result " + std::to_string(i + 1) + " of " + std::to_string(e.intermediate.size()) + ": ";
    const double epsilon = r.epsilon.value_or(std::nan(""));
    if (const std::string why = result_problem(epsilon, r.utility, r.utility_min, r.utility_max); !why.empty())
      return where + why;
    if (epsilon < previous)
      return where + "epsilon " + format_number(epsilon) + " below the earlier " + format_number(previous) +
             " (epsilon only grows over a training)";
    if (epsilon > e.epsilon)
      return where + "epsilon " + format_number(epsilon) + " above the final result's " + format_number(e.epsilon);
    previous = epsilon;
  }
  return "";
}

Evaluation Problem::evaluate(const space::Params& params, std::uint64_t seed, const GoOn& go_on) const {
  Evaluation e;
  const auto start = std::chrono::steady_clock::now();
  try {
    e.delta = delta();
    const auto utility_start = std::chrono::steady_clock::now();
    const UtilityResult u = go_on ? utility_until(params, seed, go_on) : utility(params, seed);
    e.further["train_seconds"] = seconds_since(utility_start);
    // After the training, so that a stopped one is not accounted for epochs it never trained.
    e.stopped_at = u.stopped_at;
    e.epsilon = u.stopped_at.empty() ? privacy(params) : u.stopped_epsilon;
    e.utility = u.utility;
    e.utility_min = u.utility_min;
    e.utility_max = u.utility_max;
    e.message = u.message;
    e.intermediate = u.intermediate;
    for (IntermediateResult& r : e.intermediate)
      if (!r.epsilon) r.epsilon = privacy(r.params);
  } catch (const Interrupted&) {
    throw;  // a requested stop is not the oracle's failure
  } catch (const std::exception& ex) {
    e.seconds = seconds_since(start);
    e.message = std::string("oracle error: ") + ex.what();
    return e;
  }
  e.seconds = seconds_since(start);
  auto fail = [&](const std::string& why) {
    e.ok = false;
    e.message = why + (e.message.empty() ? "" : "; " + e.message);
    return e;
  };
  if (const std::string why = result_problem(e.epsilon, e.utility, e.utility_min, e.utility_max); !why.empty())
    return fail(why + " from the oracles");
  if (const std::string why = intermediate_results_problem(e); !why.empty()) return fail(why);
  e.ok = true;
  return e;
}

}  // namespace dpareto::problems
