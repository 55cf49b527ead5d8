#include "dpareto/plot/staircase.hpp"

#include "dpareto/pareto/dominance.hpp"

namespace dpareto::plot {

std::vector<pareto::Point2> staircase(const std::vector<pareto::Point2>& points, double x_end, double y_top) {
  const std::vector<pareto::Point2> front = pareto::pareto_front(points);
  std::vector<pareto::Point2> vertices;
  if (front.empty()) return vertices;
  vertices.reserve(2 * front.size() + 1);
  if (!std::isnan(y_top)) vertices.push_back({front.front()[0], y_top});
  for (std::size_t i = 0; i < front.size(); ++i) {
    if (i > 0) vertices.push_back({front[i][0], front[i - 1][1]});
    vertices.push_back(front[i]);
  }
  if (!std::isnan(x_end)) vertices.push_back({x_end, front.back()[1]});
  return vertices;
}

}  // namespace dpareto::plot
