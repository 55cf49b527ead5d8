#include "dpareto/select/dp_hype.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/select/secure_aggregation.hpp"

namespace dpareto::select {

namespace {

void check_options(const DpHypeOptions& options) {
  if (!(options.sigma > 0) || !std::isfinite(options.sigma)) {
    throw InputError("DP-HYPE sigma = " + format_number(options.sigma) + " must be a finite number > 0");
  }
  if (options.fixed_point_scale == 0 || options.fixed_point_scale > (std::uint64_t(1) << 40)) {
    throw InputError("DP-HYPE fixed-point scale " + std::to_string(options.fixed_point_scale) +
                     " must be in [1, 2^40]");
  }
}

}  // namespace

std::vector<std::uint8_t> top_k_vote(std::span<const double> losses, std::size_t k, privacy::RandomSource* tie_break) {
  if (k == 0 || k > losses.size()) {
    throw InputError("DP-HYPE top-k = " + std::to_string(k) + " must be in [1, " + std::to_string(losses.size()) + "]");
  }
  for (std::size_t i = 0; i < losses.size(); ++i) {
    if (std::isnan(losses[i])) throw InputError("DP-HYPE loss of candidate " + std::to_string(i) + " is NaN");
  }
  std::vector<std::size_t> order(losses.size());
  std::iota(order.begin(), order.end(), 0);
  if (tie_break != nullptr) order = privacy::uniform_permutation(losses.size(), *tie_break);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return losses[a] < losses[b]; });
  std::vector<std::uint8_t> vote(losses.size(), 0);
  for (std::size_t i = 0; i < k; ++i) vote[order[i]] = 1;
  return vote;
}

DpHypeOutcome dp_hype_select(const std::vector<std::vector<double>>& client_losses, const DpHypeOptions& options,
                             privacy::RandomSource& noise, privacy::RandomSource& keys) {
  check_options(options);
  const std::size_t n = client_losses.size();
  if (n < 2) throw InputError("DP-HYPE needs at least 2 clients, got " + std::to_string(n));
  const std::size_t p = client_losses.front().size();
  const auto scale = static_cast<std::int64_t>(options.fixed_point_scale);
  // Per-client grid variance σ²·scale²/n, exactly.
  const privacy::Rational sigma = privacy::exact_rational(options.sigma, "DP-HYPE sigma");
  const privacy::Rational client_variance{sigma.num * sigma.num * scale * scale, sigma.den * sigma.den * n};

  const SecureAggregation aggregation(n, p, keys);
  std::vector<std::vector<std::uint64_t>> masked;
  masked.reserve(n);
  std::vector<std::int64_t> values(p);
  for (std::size_t client = 0; client < n; ++client) {
    if (client_losses[client].size() != p) {
      throw InputError("DP-HYPE client " + std::to_string(client) + " has " +
                       std::to_string(client_losses[client].size()) + " losses, expected " + std::to_string(p));
    }
    const auto vote = top_k_vote(client_losses[client], options.top_k, &noise);
    for (std::size_t c = 0; c < p; ++c) {
      values[c] = vote[c] * scale + privacy::discrete_gaussian(noise, client_variance);
    }
    masked.push_back(aggregation.mask(client, values));
  }
  const std::vector<std::int64_t> total = aggregation.sum(masked);

  DpHypeOutcome outcome;
  outcome.selected = static_cast<std::size_t>(std::max_element(total.begin(), total.end()) - total.begin());
  outcome.noisy_votes.reserve(p);
  for (std::int64_t t : total) outcome.noisy_votes.push_back(double(t) / double(scale));
  return outcome;
}

double vote_sensitivity_squared(VoteNeighbours neighbours, std::size_t top_k) {
  const double k = double(top_k);
  switch (neighbours) {
    case VoteNeighbours::client:
      return k;
    case VoteNeighbours::record:
      return 2 * k;
    case VoteNeighbours::record_moving:
      return 8 * k;
  }
  throw Error("DP-HYPE: unknown neighbouring relation");
}

VoteNeighbours record_vote_neighbours(bool client_depends_on_row, bool replace_one) {
  return client_depends_on_row && replace_one ? VoteNeighbours::record_moving : VoteNeighbours::record;
}

std::vector<double> dp_hype_rdp(const std::vector<double>& orders, const DpHypeOptions& options, std::size_t clients,
                                std::size_t candidates, VoteNeighbours neighbours) {
  check_options(options);
  if (clients < 1 || candidates < 1) throw InputError("DP-HYPE accounting needs at least one client and candidate");
  const double k = vote_sensitivity_squared(neighbours, options.top_k);  // Δ₂² in votes
  const double n = double(clients);
  const double scale = double(options.fixed_point_scale);
  const double grid_variance = options.sigma * options.sigma * scale * scale / n;  // per client
  // Kairouz, Liu, Steinke 2021 ("The Distributed Discrete Gaussian Mechanism for Federated Learning
  // with Secure Aggregation", ICML), Thm 1: for n clients each adding N_Z(0, s²) per coordinate with
  // s >= 1/2, the sum is ½ε²-concentrated DP (so α·ε²/2-RDP at every α) with
  //   ε = min{ √(Δ₂²/(n s²) + τd/2), Δ₂/(√n s) + τ√d },  τ = 10 Σ_{k=1}^{n−1} exp(−2π² s² k/(k+1)).
  // Outside s >= 1/2 the theorem says nothing, so such a grid is refused.
  if (!(grid_variance >= 0.25))
    throw InputError("DP-HYPE: per-client discrete Gaussian std " + format_number(std::sqrt(grid_variance)) +
                     " (sigma " + format_number(options.sigma) + " x scale " +
                     std::to_string(options.fixed_point_scale) + " / sqrt(" + std::to_string(clients) +
                     " clients)) is below 1/2, where KLS21 Thm 1 does not hold");
  double tau = 0;
  for (std::size_t j = 1; j < clients; ++j) {
    tau += 10 * std::exp(-2 * std::numbers::pi * std::numbers::pi * grid_variance * double(j) / double(j + 1));
  }
  // Here Δ₂² = k·scale² (k the vote's Δ₂² in votes) and n s² = n·grid_variance = σ_vote²·scale².
  const double d = double(candidates);
  const double ratio = k * scale * scale / (n * grid_variance);
  const double eps = std::min(std::sqrt(ratio + tau * d / 2), std::sqrt(ratio) + tau * std::sqrt(d));
  std::vector<double> rdp;
  rdp.reserve(orders.size());
  for (double alpha : orders) rdp.push_back(alpha * eps * eps / 2);
  return rdp;
}

std::vector<double> dp_hype_client_removal_rdp(const std::vector<double>& orders, const DpHypeOptions& options,
                                               std::size_t clients, std::size_t candidates) {
  check_options(options);
  if (clients < 2 || candidates < 1)
    throw InputError("DP-HYPE client removal needs at least two clients and a candidate");
  const double with = options.sigma * options.sigma;
  const double without = with * double(clients - 1) / double(clients);
  const double k = double(options.top_k), d = double(candidates);
  const auto divergence = [&](double alpha, double v1, double v2) {
    const double s2 = alpha * v2 + (1 - alpha) * v1;
    if (!(s2 > 0)) return std::numeric_limits<double>::infinity();
    return alpha * k / (2 * s2) +
           d / (1 - alpha) * (0.5 * std::log(s2) - 0.5 * (1 - alpha) * std::log(v1) - 0.5 * alpha * std::log(v2));
  };
  std::vector<double> rdp;
  rdp.reserve(orders.size());
  for (double alpha : orders)
    rdp.push_back(std::max(divergence(alpha, with, without), divergence(alpha, without, with)));
  return rdp;
}

double dp_hype_sigma(std::size_t top_k, double target_epsilon, double delta, const std::vector<double>& orders) {
  if (!(target_epsilon > 0) || !std::isfinite(target_epsilon)) {
    throw InputError("DP-HYPE target epsilon = " + format_number(target_epsilon) + " must be a finite number > 0");
  }
  if (top_k == 0) throw InputError("DP-HYPE top-k must be >= 1");
  auto epsilon = [&](double sigma) {
    std::vector<double> rdp;
    for (double alpha : orders) rdp.push_back(alpha * double(top_k) / (2 * sigma * sigma));
    return privacy::rdp_to_epsilon(orders, rdp, delta).epsilon;
  };
  double lo = 1, hi = 1;
  while (lo > 1e-12 && epsilon(lo) <= target_epsilon) lo /= 2;
  while (epsilon(hi) > target_epsilon) {
    lo = hi;
    hi *= 2;
    if (hi > 1e12) throw NumericalError("DP-HYPE: no sigma meets epsilon " + format_number(target_epsilon));
  }
  while (hi - lo > 1e-9 * hi) {
    const double mid = 0.5 * (lo + hi);
    (epsilon(mid) > target_epsilon ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace dpareto::select
