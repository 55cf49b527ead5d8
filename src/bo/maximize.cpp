#include "dpareto/bo/maximize.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <nlopt.hpp>
#include <numeric>

#include "point_vectors.hpp"

namespace dpareto::bo {
namespace {

// NLopt local refinement from `start` inside the unit cube; the point and value it ended at.
UnitPoint refine(UnitFunction& function, const UnitPoint& start, const MaximizeOptions& options) {
  const auto d = static_cast<unsigned>(start.x.size());
  nlopt::opt opt(d >= 2 ? nlopt::LN_BOBYQA : nlopt::LN_COBYLA, d);
  opt.set_lower_bounds(0.0);
  opt.set_upper_bounds(1.0);
  opt.set_maxeval(options.local_evaluations);
  opt.set_xtol_rel(options.xtol_rel);
  if (options.initial_step > 0) opt.set_initial_step(options.initial_step);
  opt.set_max_objective(
      [](unsigned dim, const double* x, double*, void* data) {
        return static_cast<UnitFunction*>(data)->value(std::vector<double>(x, x + dim));
      },
      &function);
  UnitPoint end{start.x, start.value, start.index};
  try {
    opt.optimize(end.x, end.value);
  } catch (const std::exception&) {
    // NLopt reports round-off limits as exceptions; keep the point it reached.
    end.value = function.value(end.x);
  }
  return end;
}

}  // namespace

double max_norm_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s = std::max(s, std::abs(a[i] - b[i]));
  return s;
}

std::vector<double> UnitFunction::values(const Eigen::MatrixXd& X) {
  std::vector<double> out(static_cast<std::size_t>(X.rows()));
  for (Eigen::Index i = 0; i < X.rows(); ++i) out[static_cast<std::size_t>(i)] = value(row_of(X, i));
  return out;
}

Maximization maximize(UnitFunction& function, const space::Space& space, Rng& rng, const MaximizeOptions& options) {
  // Dense stage.
  const auto d = static_cast<Eigen::Index>(space.dimension());
  const Eigen::Index random = std::max(options.dense_candidates, 0);
  const Eigen::Index n = random + static_cast<Eigen::Index>(options.also_screened.size());
  Eigen::MatrixXd C(n, d);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (Eigen::Index i = 0; i < random; ++i)
    for (Eigen::Index j = 0; j < d; ++j) C(i, j) = unit(rng);
  for (Eigen::Index i = random; i < n; ++i)
    for (Eigen::Index j = 0; j < d; ++j) C(i, j) = options.also_screened[static_cast<std::size_t>(i - random)][j];
  const std::vector<double> values = function.values(C);
  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return values[a] > values[b]; });
  Maximization result;
  result.screened.reserve(order.size());
  for (const Eigen::Index i : order) {
    auto x = row_of(C, i);
    if (options.snap) x = space.to_unit(space.from_unit(x));
    result.screened.push_back({std::move(x), values[i], static_cast<std::size_t>(i)});
  }

  // Local stage from the best (distinct) screened points.
  std::vector<std::size_t> starts;
  for (std::size_t k = 0; k < result.screened.size(); ++k) {
    if (static_cast<int>(starts.size()) >= options.local_starts) break;
    const auto& x = result.screened[k].x;
    if (std::none_of(starts.begin(), starts.end(), [&](std::size_t s) {
          return max_norm_distance(result.screened[s].x, x) < options.start_separation;
        }))
      starts.push_back(k);
  }
  std::vector<std::size_t> refined;  // the starts that are refined
  for (const std::size_t s : starts) {
    result.refinements.push_back({s, std::nullopt});
    if (options.skip_at_or_below && result.screened[s].value <= *options.skip_at_or_below) continue;
    refined.push_back(result.refinements.size() - 1);
    if (!function.concurrent()) {
      function.begin_local(result.screened[s].x);
      result.refinements.back().optimum = refine(function, result.screened[s], options);
    }
  }
  if (function.concurrent()) {
    for (const std::size_t r : refined) function.begin_local(result.screened[result.refinements[r].start].x);
    // No exception may cross the parallel region: the first refinement's is rethrown after it.
    std::vector<std::exception_ptr> failures(refined.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (std::size_t k = 0; k < refined.size(); ++k) {
      Maximization::Refinement& refinement = result.refinements[refined[k]];
      try {
        refinement.optimum = refine(function, result.screened[refinement.start], options);
      } catch (...) {
        failures[k] = std::current_exception();
      }
    }
    for (const auto& failure : failures)
      if (failure) std::rethrow_exception(failure);
  }
  return result;
}

std::vector<UnitPoint> Maximization::ranked() const {
  std::vector<UnitPoint> out;
  out.reserve(screened.size() + refinements.size());
  std::vector<bool> started(screened.size(), false);
  for (const auto& r : refinements) {
    started[r.start] = true;
    out.push_back(screened[r.start]);
    if (r.optimum && r.optimum->value > screened[r.start].value) out.push_back(*r.optimum);
  }
  for (std::size_t k = 0; k < screened.size(); ++k)
    if (!started[k]) out.push_back(screened[k]);
  std::stable_sort(out.begin(), out.end(), [](const UnitPoint& a, const UnitPoint& b) { return a.value > b.value; });
  return out;
}

}  // namespace dpareto::bo
