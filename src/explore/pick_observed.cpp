#include <algorithm>
#include <cmath>
#include <optional>

#include "dpareto/core/error.hpp"
#include "dpareto/explore/pick.hpp"
#include "dpareto/explore/robust_front.hpp"

namespace dpareto::explore {

PickResult pick_observed(const study::RunData& run, const Target& target) {
  const auto front = study::run_front(run.records, run.info.objectives);
  if (front.empty()) throw InputError("the run has no successful evaluation to pick from");
  auto point_of = [&](std::size_t i) {
    const auto& r = run.records[i];
    OperatingPoint p;
    p.names = run.info.parameter_names;
    p.params = r.params;
    p.epsilon = r.epsilon;
    p.utility = r.utility;
    p.utility_min = r.utility_min;
    p.utility_max = r.utility_max;
    p.source = "observed";
    p.record_id = r.id;
    p.further = r.further;
    return p;
  };
  auto meets = [&](const study::EvaluationRecord& r) { return target.met_by(r.epsilon, r.utility, r.further); };
  // better(a, b): a is the preferred pick among points meeting the target.
  auto better = [&](const study::EvaluationRecord& a, const study::EvaluationRecord& b) {
    if (target.kind == Target::Kind::max_epsilon)
      return a.utility > b.utility || (a.utility == b.utility && a.epsilon < b.epsilon);
    return a.epsilon < b.epsilon || (a.epsilon == b.epsilon && a.utility > b.utility);
  };
  std::optional<std::size_t> best;
  for (const std::size_t i : front)
    if (meets(run.records[i]) && (!best || better(run.records[i], run.records[*best]))) best = i;
  PickResult result;
  if (!best) {
    // Closest achievable: the most private front point, or the most useful one; among the points
    // within the target's limits where any is, so that the suggestion keeps the limits the user set.
    std::vector<std::size_t> candidates;
    for (const std::size_t i : front)
      if (target.within_limits(run.records[i].further)) candidates.push_back(i);
    if (candidates.empty()) candidates = front;
    std::size_t closest = candidates.front();
    for (const std::size_t i : candidates) {
      const auto& r = run.records[i];
      const auto& c = run.records[closest];
      if (target.kind == Target::Kind::max_epsilon ? r.epsilon < c.epsilon : r.utility > c.utility) closest = i;
    }
    result.point = point_of(closest);
    return result;
  }
  result.reached = true;
  result.point = point_of(*best);
  const double log_eps = std::log(std::max(result.point.epsilon, 1e-300));
  std::vector<std::size_t> others;
  for (const std::size_t i : front)
    if (i != *best && meets(run.records[i])) others.push_back(i);
  std::stable_sort(others.begin(), others.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(std::log(std::max(run.records[a].epsilon, 1e-300)) - log_eps) <
           std::abs(std::log(std::max(run.records[b].epsilon, 1e-300)) - log_eps);
  });
  for (const std::size_t i : others) result.alternatives.push_back(point_of(i));
  return result;
}

PickResult pick_robust(const RunModel& model, const study::RunData& run, const Target& target) {
  PickResult result = pick_observed(robust_run(model, run), target);
  auto observed = [&](OperatingPoint& p) {
    const auto it =
        std::find_if(run.records.begin(), run.records.end(), [&](const auto& r) { return r.id == p.record_id; });
    p.robust_utility = p.utility;
    p.utility = it->utility;
  };
  observed(result.point);
  for (auto& p : result.alternatives) observed(p);
  return result;
}

}  // namespace dpareto::explore
