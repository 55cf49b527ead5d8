#pragma once
// RDP of private hyperparameter tuning by random stopping (DESIGN.md §3.5): run K candidates,
// each (α, ε(α))-RDP, K random, release the best. Curves are given and returned at `orders`.
#include <optional>
#include <variant>
#include <vector>

#include "dpareto/privacy/rdp_curve.hpp"

namespace dpareto::privacy {

// The law of the number of runs K.
struct PoissonStopping {
  double mu;  // >= 1 (below 1 the Poisson bound is not valid)
};
// P(K = k) = (1−γ)^k / (γ^{−η} − 1) · Π_{l<k} (l+η)/(l+1), k >= 1; η ∈ (−1, ∞), γ ∈ (0, 1);
// η = 1 is geometric, η = 0 logarithmic: P(K = k) = (1−γ)^k / (k log(1/γ)).
struct TruncatedNegativeBinomialStopping {
  double eta;
  double gamma;
};
using StoppingRule = std::variant<PoissonStopping, TruncatedNegativeBinomialStopping>;

// The one function both `dpareto tune` and `dpareto account tuning` use: random stopping by
// `rule` over runs whose curve is `training` composed with an ε_s-DP score when `score_epsilon` is
// given (its pure-DP RDP min(ε_s, αε_s²/2), Bun & Steinke 2016 Prop. 3.3).
RdpCurve random_stopping_rdp(const StoppingRule& rule, const RdpCurve& training, std::optional<double> score_epsilon);

// The run's curve alone: `training` plus the score's pure-DP RDP.
RdpCurve scored_run_rdp(const RdpCurve& training, double score_epsilon);

// K ~ Poisson(μ) (Papernot & Steinke 2022, Thm 6; as stated in Koskela & Kulkarni 2023, Thm 5):
// ε'(α) = ε(α) + μ δ̂ + log(μ)/(α−1), where the candidate is (ε̂, δ̂)-DP with
// e^{ε̂} = 1 + 1/(α−1); δ̂ comes from the candidate's own curve (improved conversion, minimized
// over `orders`).
std::vector<double> poisson_stopping_rdp(const std::vector<double>& orders, const std::vector<double>& candidate_rdp,
                                         double mu);

// K ~ truncated negative binomial(η, γ), η in (−1, ∞), γ in (0, 1) (Papernot & Steinke 2022,
// Thm 2): ε'(α) = ε(α) + (1+η)(1 − 1/α̂) ε(α̂) + (1+η) log(1/γ)/α̂ + log(E[K])/(α−1),
// minimized over α̂ in `orders`.
std::vector<double> truncated_negative_binomial_stopping_rdp(const std::vector<double>& orders,
                                                             const std::vector<double>& candidate_rdp, double eta,
                                                             double gamma);

// E[K] = η(1−γ)/(γ(1−γ^η)) for η ≠ 0, (1/γ − 1)/log(1/γ) for η = 0 (the logarithmic law).
double truncated_negative_binomial_mean(double eta, double gamma);

}  // namespace dpareto::privacy
