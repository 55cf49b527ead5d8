#include "dpareto/bo/acquisition.hpp"

#include <cmath>
#include <limits>

#include "dpareto/gp/output_transform.hpp"

namespace dpareto::bo {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }
double normal_pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI); }

// Φ((t − μ)/s), with Φ(−inf) = 0 and Φ(+inf) = 1.
double cdf_at(double t, double mean, double sd) {
  if (t == -kInf) return 0.0;
  if (t == kInf) return 1.0;
  return normal_cdf((t - mean) / sd);
}

// ψ(t) = E[(t − Y)^+] for Y ~ N(μ, s²) = (t − μ)Φ(z) + s φ(z); ψ(−inf) = 0.
double psi(double t, double mean, double sd) {
  if (t == -kInf) return 0.0;
  const double z = (t - mean) / sd;
  return (t - mean) * normal_cdf(z) + sd * normal_pdf(z);
}

// Cell bound on the epsilon axis -> log epsilon (GP space). Infinite bounds stay infinite.
double axis_to_log_epsilon(double value, const pareto::EpsilonAxis& axis) {
  if (std::isinf(value)) return value;
  if (axis.kind == pareto::EpsilonAxis::Kind::log10) return value * std::log(10.0);
  return gp::forward(gp::Transform::log, value);
}

// Error bound -> −logit(1 − error): decreasing in utility, so "smaller is better" is kept.
double error_to_negative_logit(double error) {
  if (std::isinf(error)) return error;
  return -gp::forward(gp::Transform::logit, 1.0 - error);
}

}  // namespace

double probability_of_improvement(const std::vector<pareto::Cell>& cells, const pareto::Point2& mean,
                                  const pareto::Point2& sd) {
  double poi = 0;
  for (const auto& c : cells)
    poi += (cdf_at(c.a_high, mean[0], sd[0]) - cdf_at(c.a_low, mean[0], sd[0])) * cdf_at(c.b_high, mean[1], sd[1]);
  return poi;
}

double expected_hypervolume_improvement(const std::vector<pareto::Cell>& cells,
                                        const pareto::Point2& mean, const pareto::Point2& sd) {
  double ehvi = 0;
  for (const auto& c : cells)
    ehvi += (psi(c.a_high, mean[0], sd[0]) - psi(c.a_low, mean[0], sd[0])) * psi(c.b_high, mean[1], sd[1]);
  return ehvi;
}

double hypervolume_improvement(const std::vector<pareto::Cell>& cells, const pareto::Point2& m) {
  double hvi = 0;
  for (const auto& c : cells)
    if (c.a_high > m[0] && c.b_high > m[1]) hvi += (c.a_high - std::max(c.a_low, m[0])) * (c.b_high - m[1]);
  return hvi;
}

std::vector<pareto::Cell> cells_to_gp_space(const std::vector<pareto::Cell>& cells,
                                            const pareto::EpsilonAxis& axis) {
  std::vector<pareto::Cell> out;
  out.reserve(cells.size());
  for (const auto& c : cells)
    out.push_back({axis_to_log_epsilon(c.a_low, axis), axis_to_log_epsilon(c.a_high, axis),
                   error_to_negative_logit(c.b_high)});
  return out;
}

double acquisition_value(AcquisitionKind kind, const std::vector<pareto::Cell>& geometry_cells,
                         const std::vector<pareto::Cell>& gp_cells, const pareto::EpsilonAxis& axis,
                         const GpPrediction& p) {
  const pareto::Point2 mean{p.mean_log_epsilon, -p.mean_logit_utility};
  const pareto::Point2 sd{std::max(p.sd_log_epsilon, 1e-12), std::max(p.sd_logit_utility, 1e-12)};
  if (kind == AcquisitionKind::ehvi) return expected_hypervolume_improvement(gp_cells, mean, sd);
  // HVPoI (DPareto eq. 3): HVI at the predictive mean mapped back to objective space and onto the
  // hypervolume axes, times the PoI of the cells mapped into GP space (exact: monotone maps).
  const double epsilon = gp::inverse(gp::Transform::log, p.mean_log_epsilon);
  const double error = 1.0 - gp::inverse(gp::Transform::logit, p.mean_logit_utility);
  const double hvi = hypervolume_improvement(geometry_cells, axis.map({epsilon, error}));
  if (hvi <= 0) return 0.0;
  return hvi * probability_of_improvement(gp_cells, mean, sd);
}

}  // namespace dpareto::bo
