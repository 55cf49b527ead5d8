#include "dpareto/explore/surrogate_maps.hpp"

#include <algorithm>
#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/pareto/hypervolume.hpp"
#include "dpareto/pareto/objective_axis.hpp"

namespace dpareto::explore {
namespace {

// The value of parameter p at unit coordinate u, on its scale, not rounded (integers relaxed as
// the GPs see them).
double display_value(const space::Parameter& p, double u) {
  if (p.scale == space::Scale::log) return std::exp(std::log(p.low) + u * (std::log(p.high) - std::log(p.low)));
  return p.low + u * (p.high - p.low);
}

plot::SurrogateAxis axis_of(const space::Parameter& p) {
  return {p.name, p.scale == space::Scale::log, display_value(p, 0), display_value(p, 1)};
}

// Index of the front record whose removal loses the most hypervolume (on the run's axis).
std::size_t most_contributing_front_record(const study::RunData& run) {
  pareto::EpsilonAxis axis;
  axis.kind = run.info.hv_axis == "log" ? pareto::EpsilonAxis::Kind::log10 : pareto::EpsilonAxis::Kind::linear;
  axis.floor = run.info.log_floor;
  const auto front = study::run_front(run.records, run.info.objectives);
  const pareto::Point reference = axis.map(run.info.objectives.reference());
  std::vector<pareto::Point> points;
  for (const std::size_t i : front)
    points.push_back(axis.map(study::objective_point(run.records[i], run.info.objectives)));
  const double total = pareto::hypervolume(points, reference);
  std::size_t best = front.front();
  double best_loss = -1;
  for (std::size_t k = 0; k < front.size(); ++k) {
    auto without = points;
    without.erase(without.begin() + static_cast<std::ptrdiff_t>(k));
    const double loss = total - pareto::hypervolume(without, reference);
    if (loss > best_loss) {
      best_loss = loss;
      best = front[k];
    }
  }
  return best;
}

}  // namespace

plot::SurrogateMaps surrogate_maps(const plot::LabelledRun& run, const RunModel& model, const SurrogateGrid& grid) {
  plot::require_plottable(run);
  const bo::Explorer& explorer = *model.explorer;
  const space::Space& space = explorer.space();
  if (space.dimension() < 2)
    throw InputError(run.directory + ": the surrogate figure needs at least 2 parameters, problem '" +
                     run.data.info.problem + "' has " + std::to_string(space.dimension()));
  const std::size_t ix = grid.x_parameter.empty() ? 0 : space.index_of(grid.x_parameter);
  const std::size_t iy = grid.y_parameter.empty() ? (ix == 0 ? 1 : 0) : space.index_of(grid.y_parameter);
  if (ix == iy)
    throw InputError("surrogate figure: --x and --y name the same parameter '" + space.parameter(ix).name + "'");
  const auto& px = space.parameter(ix);
  const auto& py = space.parameter(iy);
  plot::SurrogateMaps maps;
  maps.acquisition_label = explorer.acquisition().label();
  maps.x = axis_of(px);
  maps.y = axis_of(py);

  // The slice: other parameters fixed at the front point contributing most hypervolume.
  const auto& anchor = run.data.records[most_contributing_front_record(run.data)];
  const std::vector<double> anchor_unit = space.to_unit(model.params_of(anchor));
  maps.anchor_id = anchor.id;
  for (std::size_t i = 0; i < space.dimension(); ++i)
    if (i != ix && i != iy)
      maps.slice += (maps.slice.empty() ? "" : ", ") + space.parameter(i).name + " = " +
                    readable_number(model.params_of(anchor)[i]);

  const int n = std::clamp(grid.resolution, 4, 400);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      std::vector<double> u = anchor_unit;
      u[ix] = (i + 0.5) / n;  // cell centres: the image covers the bounds exactly
      u[iy] = (j + 0.5) / n;
      const double x = display_value(px, u[ix]), y = display_value(py, u[iy]);
      const auto prediction = explorer.predict(u);
      // GP space: (log ε, −logit u).
      maps.epsilon.push_back({x, y, std::exp(prediction.mean[0])});
      maps.error.push_back({x, y, 1 - 1 / (1 + std::exp(prediction.mean[1]))});
      maps.acquisition.push_back({x, y, explorer.acquisition_at(u)});
    }
  for (const auto& r : run.data.records) {
    if (!r.ok()) continue;
    const auto params = model.params_of(r);
    maps.evaluated.emplace_back(params[ix], params[iy]);
  }
  return maps;
}

}  // namespace dpareto::explore
