#include "dpareto/privacy/pld_accountant.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "argument_checks.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/analytic_gaussian.hpp"
#include "log_math.hpp"
#include "pld.hpp"

namespace dpareto::privacy {

using detail::Estimate;
using detail::Neighbour;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// δ = δ₁ + δ₂ (ε = ε₁ + ε₂) splits between the PLD and the RDP part: the share of the PLD part.
// 60 shares from 0.001 to 0.999, denser at the ends; the composed PLD is built once, so each split
// costs two readouts.
const std::vector<double>& splits() {
  static const std::vector<double> shares = [] {
    std::vector<double> f{0.001, 0.002, 0.005, 0.01};
    for (int k = 1; k < 50; ++k) f.push_back(k / 50.0);
    for (double g : {0.99, 0.995, 0.998, 0.999}) f.push_back(g);
    return f;
  }();
  return shares;
}

// One step's loss standard deviation, roughly: q sqrt(e^{1/σ²} − 1) (the χ² divergence of the
// remove pair), at most the q = 1 value 1/σ. Only used to choose h.
double loss_scale(double q, double sigma) {
  const double s = q * std::sqrt(std::expm1(1 / (sigma * sigma)));
  return std::isfinite(s) ? std::min(s, 1 / sigma) : 1 / sigma;
}

// kAutoDiscretization's grid width for Poisson events {(q, σ) -> steps}.
double automatic_discretization(const std::map<std::pair<double, double>, long long>& events) {
  double variance = 0, range = 0, h = 1e-4;
  for (const auto& [key, steps] : events) {
    const double s = loss_scale(key.first, key.second);
    h = std::min(h, s / 32);
    variance += static_cast<double>(steps) * s * s;
    range = std::max(range, detail::single_step_loss_range(key.first, key.second));
  }
  return std::max({h, 64 * std::sqrt(variance) / (1 << 21), range / (1 << 22)});
}

void check_finite_epsilon(double epsilon) {
  if (!(epsilon >= 0) || std::isinf(epsilon))
    throw InputError("epsilon = " + format_number(epsilon) + " must be a finite number >= 0");
}

}  // namespace

struct PldAccountant::Composed {
  bool exact = false;
  double mu = 0;  // exact: the composition is N(0, 1) vs N(μ, 1)
  double h = 0;
  detail::DiscretePld remove, add;
};

PldAccountant::PldAccountant(double discretization, std::vector<double> orders, Conversion conversion,
                             bool exact_full_batch)
    : discretization_(discretization),
      conversion_(conversion),
      exact_full_batch_(exact_full_batch),
      rdp_other_(RdpCurve::zero(orders)),
      rdp_all_(RdpCurve::zero(std::move(orders))) {
  if (!(discretization >= 0) || std::isinf(discretization))
    throw InputError("PLD discretization h = " + format_number(discretization) +
                     " must be a finite number > 0 (or 0: automatic)");
}

PldAccountant::~PldAccountant() = default;

void PldAccountant::compose_subsampled_gaussian(Sampling sampling, double q, double sigma, long long steps) {
  if (sampling != Sampling::poisson) {  // replace-one, fixed-size lots: no PLD here, RDP part
    const RdpCurve curve(rdp_all_.orders(), dpsgd_rdp(sampling, q, sigma, steps, rdp_all_.orders()));
    rdp_other_ += curve;
    rdp_all_ += curve;
    has_other_ = true;
    return;
  }
  if (!(q > 0 && q <= 1))
    throw InputError("sampling rate q = " + format_number(q) + " must be in (0, 1] for the PLD accountant");
  if (!(sigma > 0) || !std::isfinite(sigma))
    throw InputError("noise multiplier sigma = " + format_number(sigma) + " must be a finite number > 0");
  if (steps < 1) throw InputError("steps = " + std::to_string(steps) + " must be >= 1 for the PLD accountant");
  rdp_all_ += RdpCurve(rdp_all_.orders(), dpsgd_rdp(sampling, q, sigma, steps, rdp_all_.orders()));
  std::lock_guard<std::mutex> lock(mutex_);
  poisson_.push_back({q, sigma, steps});
  pessimistic_.reset();
  optimistic_.reset();
}

void PldAccountant::compose_rdp(const RdpCurve& curve) {
  rdp_other_ += curve;
  rdp_all_ += curve;
  has_other_ = true;
}

const PldAccountant::Composed& PldAccountant::composed(bool optimistic) const {
  std::unique_ptr<Composed>& slot = optimistic ? optimistic_ : pessimistic_;
  if (slot) return *slot;
  auto c = std::make_unique<Composed>();
  // Equal (q, σ) events are one event of summed steps.
  std::map<std::pair<double, double>, long long> events;
  for (const Event& e : poisson_) events[{e.q, e.sigma}] += e.steps;
  c->exact =
      exact_full_batch_ && std::all_of(poisson_.begin(), poisson_.end(), [](const Event& e) { return e.q == 1; });
  if (c->exact) {
    double precision = 0;  // Σ T/σ²: Gaussians compose to one of sensitivity/σ = sqrt of it
    for (const auto& [key, steps] : events) precision += static_cast<double>(steps) / (key.second * key.second);
    c->mu = std::sqrt(precision);
  } else {
    const double h = discretization_ == kAutoDiscretization ? automatic_discretization(events) : discretization_;
    c->h = h;
    const Estimate estimate = optimistic ? Estimate::optimistic : Estimate::pessimistic;
    for (Neighbour direction : {Neighbour::remove, Neighbour::add}) {
      std::vector<detail::DiscretePld> steps_pld;
      steps_pld.reserve(events.size());
      for (const auto& [key, steps] : events)
        steps_pld.push_back(detail::subsampled_gaussian_pld(key.first, key.second, direction, estimate, h));
      std::vector<detail::PldPower> parts;
      std::size_t i = 0;
      for (const auto& [key, steps] : events) parts.push_back({&steps_pld[i++], steps});
      (direction == Neighbour::remove ? c->remove : c->add) = detail::compose(parts, kPldTailMass);
    }
  }
  slot = std::move(c);
  return *slot;
}

double PldAccountant::pld_epsilon_part(double delta, bool optimistic) const {
  const Composed& c = composed(optimistic);
  if (c.exact) return analytic_gaussian_epsilon(1 / c.mu, delta, 1);
  const Estimate e = optimistic ? Estimate::optimistic : Estimate::pessimistic;
  return std::max(detail::pld_epsilon(c.remove, delta, e), detail::pld_epsilon(c.add, delta, e));
}

double PldAccountant::pld_delta_part(double epsilon, bool optimistic) const {
  const Composed& c = composed(optimistic);
  if (c.exact) return analytic_gaussian_delta(epsilon, 1 / c.mu, 1);
  const Estimate e = optimistic ? Estimate::optimistic : Estimate::pessimistic;
  return std::max(detail::pld_delta(c.remove, epsilon, e), detail::pld_delta(c.add, epsilon, e));
}

// The PLD-side upper bound: the Poisson part alone, or with the RDP part by basic composition.
double PldAccountant::combined_epsilon(double delta) const {
  if (!has_other_) return pld_epsilon_part(delta, false);
  double best = detail::kInf;
  for (double f : splits())
    best =
        std::min(best, pld_epsilon_part(f * delta, false) + rdp_other_.epsilon((1 - f) * delta, conversion_).epsilon);
  return best;
}

double PldAccountant::combined_delta(double epsilon) const {
  if (!has_other_) return pld_delta_part(epsilon, false);
  double best = 1;
  for (double f : splits())
    best = std::min(best, pld_delta_part(f * epsilon, false) + rdp_other_.delta((1 - f) * epsilon, conversion_).delta);
  return best;
}

EpsilonResult PldAccountant::epsilon(double delta) const {
  detail::check_delta_open(delta);
  const EpsilonResult rdp = rdp_all_.epsilon(delta, conversion_);
  std::lock_guard<std::mutex> lock(mutex_);
  if (poisson_.empty()) return rdp;
  const double pld = combined_epsilon(delta);
  if (!(pld < rdp.epsilon)) return rdp;
  return {pld, delta, kNaN, conversion_};
}

DeltaResult PldAccountant::delta(double epsilon) const {
  check_finite_epsilon(epsilon);
  const DeltaResult rdp = rdp_all_.delta(epsilon, conversion_);
  std::lock_guard<std::mutex> lock(mutex_);
  if (poisson_.empty()) return rdp;
  const double pld = combined_delta(epsilon);
  if (!(pld < rdp.delta)) return rdp;
  return {pld, epsilon, kNaN, conversion_};
}

PldEpsilon PldAccountant::epsilon_bracket(double delta) const {
  detail::check_delta_open(delta);
  const double rdp = rdp_all_.epsilon(delta, conversion_).epsilon;
  std::lock_guard<std::mutex> lock(mutex_);
  if (poisson_.empty()) return {rdp, 0, delta, 0, rdp, rdp};
  const double pld = combined_epsilon(delta);
  const double optimistic = pld_epsilon_part(delta, true);
  const Composed& c = composed(false);
  return {std::min(pld, rdp), optimistic, delta, c.exact ? 0 : c.h, pld, rdp};
}

PldDelta PldAccountant::delta_bracket(double epsilon) const {
  check_finite_epsilon(epsilon);
  const double rdp = rdp_all_.delta(epsilon, conversion_).delta;
  std::lock_guard<std::mutex> lock(mutex_);
  if (poisson_.empty()) return {rdp, 0, epsilon, 0, rdp, rdp};
  const double pld = combined_delta(epsilon);
  const double optimistic = pld_delta_part(epsilon, true);
  const Composed& c = composed(false);
  return {std::min(pld, rdp), optimistic, epsilon, c.exact ? 0 : c.h, pld, rdp};
}

std::vector<EpsilonResult> pld_subsampled_gaussian_epsilons(double q, double sigma, const std::vector<long long>& steps,
                                                            double delta) {
  detail::check_delta_open(delta);
  if (steps.empty()) return {};
  const long long most = *std::max_element(steps.begin(), steps.end());
  if (q == 1 || *std::min_element(steps.begin(), steps.end()) < 1) {  // closed form / the accountant's own errors
    std::vector<EpsilonResult> out;
    for (long long t : steps) {
      PldAccountant accountant;
      accountant.compose_subsampled_gaussian(Sampling::poisson, q, sigma, t);
      out.push_back(accountant.epsilon(delta));
    }
    return out;
  }
  // Validates q and σ as compose_subsampled_gaussian does; the RDP cap of T steps is T times it.
  const RdpCurve rdp_step(default_orders(), dpsgd_rdp(Sampling::poisson, q, sigma, 1, default_orders()));
  if (!(q > 0)) throw InputError("sampling rate q = " + format_number(q) + " must be in (0, 1] for the PLD accountant");
  const double h = automatic_discretization({{{q, sigma}, most}});
  std::vector<std::vector<long long>> counts;
  for (long long t : steps) counts.push_back({t});
  std::vector<double> pld(steps.size(), 0.0);
  for (Neighbour direction : {Neighbour::remove, Neighbour::add}) {
    const detail::DiscretePld step = detail::subsampled_gaussian_pld(q, sigma, direction, Estimate::pessimistic, h);
    detail::compose_each({&step}, counts, kPldTailMass, [&](std::size_t j, detail::DiscretePld& composed) {
      pld[j] = std::max(pld[j], detail::pld_epsilon(composed, delta, Estimate::pessimistic));
    });
  }
  std::vector<EpsilonResult> out;
  for (std::size_t j = 0; j < steps.size(); ++j) {
    const EpsilonResult rdp = rdp_step.times(static_cast<double>(steps[j])).epsilon(delta, Conversion::improved);
    out.push_back(pld[j] < rdp.epsilon ? EpsilonResult{pld[j], delta, kNaN, Conversion::improved} : rdp);
  }
  return out;
}

}  // namespace dpareto::privacy
