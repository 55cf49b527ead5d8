#include "dpareto/bo/training_stop_rule.hpp"

#include <algorithm>
#include <utility>

namespace dpareto::bo {

TrainingStopRule::TrainingStopRule(const std::vector<Observation>& told) {
  std::vector<std::pair<double, double>> points;  // (ε, utility) of every ok observation
  for (const Observation& o : told)
    if (o.ok) points.emplace_back(o.values[0], o.values[1]);
  std::sort(points.begin(), points.end(),
            [](const auto& a, const auto& b) { return a.first < b.first || (a.first == b.first && a.second > b.second); });
  for (const auto& [epsilon, utility] : points)
    if (front_utility_.empty() || utility > front_utility_.back()) {
      front_epsilon_.push_back(epsilon);
      front_utility_.push_back(utility);
    }
  // Each ok evaluation with its intermediate results: the utilities in training order (theirs, then
  // the evaluation's own, its last epoch).
  const auto add_training = [&](const std::vector<double>& u) {
    if (u.size() > largest_rise_.size() + 1) {
      largest_rise_.resize(u.size() - 1, -1.0);
      trainings_past_.resize(u.size() - 1, 0);
    }
    double best_after = u.back();  // max_{j > k} u_j, walking k down
    for (std::size_t k = u.size() - 1; k-- > 0;) {
      largest_rise_[k] = std::max(largest_rise_[k], best_after - u[k]);
      ++trainings_past_[k];
      best_after = std::max(best_after, u[k]);
    }
  };
  for (std::size_t i = 0; i < told.size();) {
    const Observation& evaluation = told[i++];
    std::vector<double> utilities;
    for (; i < told.size() && told[i].intermediate; ++i)
      if (told[i].ok) utilities.push_back(told[i].values[1]);
    if (evaluation.intermediate || !evaluation.ok) continue;
    utilities.push_back(evaluation.values[1]);
    add_training(utilities);
  }
}

bool TrainingStopRule::go_on(int count, int of, double utility, double next_epsilon) const {
  if (count < 1 || 2 * count > of || static_cast<std::size_t>(count) > largest_rise_.size() ||
      trainings_past_[static_cast<std::size_t>(count) - 1] < kMinTrainings)
    return true;
  // F(next ε): the best utility at ε ≤ next_epsilon (none: anything improves the front).
  const auto above = std::upper_bound(front_epsilon_.begin(), front_epsilon_.end(), next_epsilon);
  if (above == front_epsilon_.begin()) return true;
  const double bar = front_utility_[static_cast<std::size_t>(above - front_epsilon_.begin()) - 1];
  return utility + largest_rise_[static_cast<std::size_t>(count) - 1] > bar;
}

}  // namespace dpareto::bo
