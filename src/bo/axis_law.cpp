#include "dpareto/bo/axis_law.hpp"

#include <algorithm>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <stdexcept>

#include "standard_normal.hpp"

namespace dpareto::bo {
namespace {

double sigmoid(double z) {
  return pareto::inverse(pareto::Transform::logit, z);
}
double sigmoid_slope(double z) {
  return sigmoid(z) * sigmoid(-z);
}
double logit(double y) {
  return std::log(y) - std::log1p(-y);
}
double half_sine(double z) {  // ½(1 + sin 2z), z clamped to [−π/4, π/4]
  return pareto::inverse(pareto::Transform::arcsine, z);
}
double half_sine_slope(double z) {
  return std::abs(z) < pareto::kArcsineBound ? std::cos(2 * z) : 0.0;
}
double half_arcsine(double y) {  // ½ asin(2y − 1), the utility transform's own
  return pareto::forward(pareto::Transform::arcsine, y);
}

// Y = link(X) for a link rising from 0 to 1, flat outside [lo, hi] (σ' < 4.3e-18 beyond |z| = 40;
// ½(1 + sin 2z) is constant beyond ±π/4, where Y has its point masses at 0 and 1).
struct UnitLink {
  double (*value)(double);
  double (*slope)(double);
  double (*inverse)(double);  // on (0, 1)
  double lo, hi;
};

const UnitLink& link_of(AxisLaw::Kind kind) {
  static const UnitLink logistic{sigmoid, sigmoid_slope, logit, -40, 40};
  static const UnitLink sine{half_sine, half_sine_slope, half_arcsine, -pareto::kArcsineBound, pareto::kArcsineBound};
  return kind == AxisLaw::Kind::logit_normal ? logistic : sine;
}

// (t − m)Φ(z) + s φ(z), z = (t − m)/s: E[(t − X)⁺] for X ~ N(m, s²).
double normal_shortfall(double t, double m, double s) {
  const double z = (t - m) / s;
  return (t - m) * normal_cdf(z) + s * normal_pdf(z);
}

double log_normal_shortfall(double t, double m, double s) {
  if (t <= 0) return 0.0;
  const double z = (std::log(t) - m) / s;
  const double tail = normal_cdf(z - s);  // e^{m + s²/2} Φ(z − s) as one exponential: no inf · 0
  const double second = tail > 0 ? std::exp(m + 0.5 * s * s + std::log(tail)) : 0.0;
  return std::max(0.0, t * normal_cdf(z) - second);
}

// ∫_a^b Φ((z − m)/s) link'(z) dz for a ≤ b: link(b) − link(max(a, m + 8s)) above the band m ± 8s,
// nothing below it, and Gauss–Kronrod inside it (and inside [lo, hi]). The quadrature runs in
// u = z − m so that Φ's argument u/s stays exact however small s is beside m, split at u = 0 and
// u = −m (the centres of Φ's step and of link''s bump), each piece mapped onto [−1, 1]: Boost.Math
// 1.74 compares the Kronrod error on [−1, 1] with a tolerance scaled by the width, so a narrow
// piece would never converge.
double unit_link_piece(double a, double b, double m, double s, const UnitLink& link) {
  double sum = b - m > 8 * s ? link.value(b) - link.value(std::max(a, m + 8 * s)) : 0.0;
  const double lo = std::max({a - m, -8 * s, link.lo - m}), hi = std::min({b - m, 8 * s, link.hi - m});
  if (lo >= hi) return sum;
  const auto integrand = [m, s, &link](double u) { return normal_cdf(u / s) * link.slope(m + u); };
  double from = lo;
  for (double to : {std::min(0.0, -m), std::max(0.0, -m), hi}) {
    if (to <= from || to > hi) continue;
    const double mid = 0.5 * (from + to), half = 0.5 * (to - from);
    const auto piece = [&](double x) { return integrand(mid + half * x); };
    sum += half * boost::math::quadrature::gauss_kronrod<double, 15>::integrate(piece, -1.0, 1.0, 15, 1e-10);
    from = to;
  }
  return sum;
}

bool has_unit_link(AxisLaw::Kind kind) {
  return kind == AxisLaw::Kind::logit_normal || kind == AxisLaw::Kind::arcsine_normal;
}

// The value of a point mass (sd 0) on the axis: Y = g(mean).
double point_mass_value(const AxisLaw& law) {
  switch (law.kind) {
    case AxisLaw::Kind::normal:
      return std::max(law.floor, law.mean);
    case AxisLaw::Kind::log_normal:
      return std::exp(law.mean);
    case AxisLaw::Kind::logit_normal:
    case AxisLaw::Kind::arcsine_normal:
      return link_of(law.kind).value(law.mean);
  }
  return law.mean;
}

}  // namespace

AxisLaw axis_law(const ImprovementRegion& region, std::size_t d, double gp_mean, double gp_sd) {
  if (region.gp_space_geometry) return {AxisLaw::Kind::normal, gp_mean, gp_sd};
  const pareto::Objective& o = region.objectives[d];
  const bool log_axis = d == 0 && region.axis.kind == pareto::EpsilonAxis::Kind::log10;
  if (o.surrogate == pareto::Transform::log && !o.complement) {
    if (!log_axis) return {AxisLaw::Kind::log_normal, gp_mean, gp_sd};
    const double ln10 = std::log(10.0);  // log10 ε = ln ε / ln 10, clipped at the floor
    return {AxisLaw::Kind::normal, gp_mean / ln10, gp_sd / ln10, region.axis.to_axis(region.axis.floor)};
  }
  // GP space orients ±logit so that σ(Z) is the objective (utility: 1 − σ(−Z) = σ(Z)); likewise the
  // arcsine's link h(z) = ½(1 + sin 2z), 1 − h(−Z) = h(Z).
  if (pareto::is_unit_interval_transform(o.surrogate) && !log_axis)
    return {o.surrogate == pareto::Transform::logit ? AxisLaw::Kind::logit_normal : AxisLaw::Kind::arcsine_normal,
            gp_mean, gp_sd};
  if (o.surrogate == pareto::Transform::identity && !log_axis)
    return {AxisLaw::Kind::normal, o.complement ? 1 + gp_mean : gp_mean, gp_sd};
  throw std::logic_error("axis_law: objective '" + o.name + "' has no predictive law on its hypervolume axis");
}

std::vector<double> expected_shortfall(const AxisLaw& law, const std::vector<double>& ascending) {
  std::vector<double> psi;
  psi.reserve(ascending.size());
  if (law.sd == 0) {
    const double y = point_mass_value(law);
    for (double t : ascending) psi.push_back(t == -kInf ? 0.0 : std::max(0.0, t - y));
    return psi;
  }
  double z_before = -kInf, integral = 0;  // logit/arcsine-normal: the integral up to the previous point
  for (double t : ascending) {
    if (t == -kInf) {
      psi.push_back(0.0);
      continue;
    }
    switch (law.kind) {
      case AxisLaw::Kind::normal:
        psi.push_back(t <= law.floor ? 0.0
                                     : normal_shortfall(t, law.mean, law.sd) -
                                           (law.floor == -kInf ? 0.0 : normal_shortfall(law.floor, law.mean, law.sd)));
        break;
      case AxisLaw::Kind::log_normal:
        psi.push_back(log_normal_shortfall(t, law.mean, law.sd));
        break;
      case AxisLaw::Kind::logit_normal:
      case AxisLaw::Kind::arcsine_normal: {
        if (t <= 0) {
          psi.push_back(0.0);
          break;
        }
        const UnitLink& link = link_of(law.kind);
        const double y = std::min(t, 1.0);
        const double z = y < 1 ? link.inverse(y) : kInf;
        integral += unit_link_piece(z_before, z, law.mean, law.sd, link);
        z_before = z;
        psi.push_back(integral + (t - y));
        break;
      }
    }
  }
  return psi;
}

std::vector<double> expected_shortfall_upper(const AxisLaw& law, const std::vector<double>& ascending) {
  if (!has_unit_link(law.kind) || law.sd == 0) return expected_shortfall(law, ascending);
  // The partition: the points, and 21 quantiles link(m + k s / 2), k = −10..10, where F rises.
  const UnitLink& link = link_of(law.kind);
  std::vector<double> grid;
  for (int k = -10; k <= 10; ++k) grid.push_back(link.value(law.mean + 0.5 * k * law.sd));
  const auto cdf = [&](double y) { return y >= 1 ? 1.0 : normal_cdf((link.inverse(y) - law.mean) / law.sd); };
  std::vector<double> upper;
  upper.reserve(ascending.size());
  double from = 0, sum = 0;  // Y = link(X) ≥ 0
  auto step_to = [&](double y) {
    if (y <= from) return;
    sum += (y - from) * cdf(y);
    from = y;
  };
  std::size_t g = 0;
  for (double t : ascending) {
    for (; g < grid.size() && grid[g] < t; ++g) step_to(grid[g]);
    step_to(t);
    upper.push_back(sum);
  }
  return upper;
}

}  // namespace dpareto::bo
