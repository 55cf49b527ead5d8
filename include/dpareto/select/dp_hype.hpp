#pragma once
// DP-HYPE (Liebenow, Peinemann, Mohammadi 2025, Fig. 1, Thm 4.1): distributed private voting over
// p candidate hyperparameters. Each of n clients votes for its top-k candidates (a 0/1 vector with
// k ones), adds noise N(0, σ²/n) to every entry, and the noisy votes are summed by secure
// aggregation, so the server sees only the total, which carries N(0, σ²). The argmax is released.
// Client-level add/remove sensitivity of the vote vector is √k (their Lemma 4.1), so
// ε(α) = αk/(2σ²) — independent of p.
//
// Floating-point safety: votes are fixed-point integers with `scale` grid points per vote and the
// per-client noise is the exact discrete Gaussian N_Z(0, σ²·scale²/n) (CKS20 Alg. 3) drawn from a
// RandomSource. A sum of n discrete Gaussians is not itself a discrete Gaussian; its RDP follows
// Kairouz, Liu, Steinke 2021 ("The Distributed Discrete Gaussian Mechanism", Thm 1), whose
// correction τ = 10 Σ_{j=1}^{n−1} exp(−2π² s² j/(j+1)) (s² the per-client grid variance)
// underflows to 0 for any grid std s >= 6, so the curve equals αk/(2σ²) (checked in dp_hype_rdp).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "dpareto/privacy/rdp_conversion.hpp"
#include "dpareto/privacy/secure_noise.hpp"

namespace dpareto::select {

struct DpHypeOptions {
  std::size_t top_k = 1;                      // k: votes per client
  double sigma = 1;                           // std of the noise on the summed vote vector, in votes
  std::uint64_t fixed_point_scale = 1 << 20;  // grid points per vote
};

// A client's vote: 1 at the k smallest losses, 0 elsewhere. Ties go to the lower index, or, with
// `tie_break`, to a uniformly random one (the candidates are visited in a random order drawn from
// it), so that a candidate file's order does not decide between equally good candidates.
// Throws InputError for k = 0, k > p or a NaN loss.
std::vector<std::uint8_t> top_k_vote(std::span<const double> losses, std::size_t k,
                                     privacy::RandomSource* tie_break = nullptr);

struct DpHypeOutcome {
  std::size_t selected;             // argmax of the noisy total (ties: the lower index)
  std::vector<double> noisy_votes;  // the decoded noisy total the server sees
};

// One DP-HYPE round on client_losses[client][candidate]: votes (ties broken at random from
// `noise`), per-client discrete Gaussian noise from `noise`, masking with pairwise keys from `keys`, secure sum,
// decoding, argmax. Throws InputError for fewer than 2 clients, ragged losses or invalid options.
DpHypeOutcome dp_hype_select(const std::vector<std::vector<double>>& client_losses, const DpHypeOptions& options,
                             privacy::RandomSource& noise, privacy::RandomSource& keys);

// Who the neighbouring datasets differ in, and so Δ₂² of the summed vote vector (in votes):
//   client         one client added or removed: the sum moves by a 0/1 vector with k ones, Δ₂² = k
//                  (the paper's client-level guarantee);
//   record         one row of one client added, removed or replaced: that client's vote may move
//                  from one top-k set to another, Δ₂² = 2k — the guarantee that composes with
//                  record-level DP-SGD, as long as a row's client does not depend on the row;
//   record_moving  one row replaced when the row's client depends on its content (label-skewed
//                  clients): the old row leaves client A, the new one joins client B, so two votes
//                  may each move between top-k sets in the same direction, Δ = 2(1_S' − 1_S) and
//                  Δ₂² = 8k (= (√(2k) + √(2k))²). Add/remove of a row still changes one client.
enum class VoteNeighbours { client, record, record_moving };

// Δ₂² of the vote sum under `neighbours` for top-k votes (above).
double vote_sensitivity_squared(VoteNeighbours neighbours, std::size_t top_k);

// The record-level relation of a tuning run: record_moving when clients are assigned by label and
// neighbours replace a row (fixed-size lots), record otherwise.
VoteNeighbours record_vote_neighbours(bool client_depends_on_row, bool replace_one);

// RDP of one round at each order: α·ρ with ρ from Kairouz–Liu–Steinke 2021 Thm 1
// (= αΔ₂²/(2σ²) up to the τ terms, which vanish at the default scale): αk/(2σ²) for clients,
// αk/σ² for records, 4αk/σ² for records that move between clients. `candidates` enters only through τ.
std::vector<double> dp_hype_rdp(const std::vector<double>& orders, const DpHypeOptions& options, std::size_t clients,
                                std::size_t candidates, VoteNeighbours neighbours = VoteNeighbours::client);

// RDP of one round when a whole client is added or removed, with its noise share: the total
// carries N(0, σ²) with n clients and N(0, σ²(n−1)/n) without the removed one, so the two outputs
// are Gaussians of different variances. Closed form for isotropic Gaussians in d = candidates
// dimensions (Gil, Alajaji, Linder 2013): with s² = ασ₂² + (1−α)σ₁²,
//   D_α(N(μ₁, σ₁²I) ‖ N(μ₂, σ₂²I)) = α‖μ₁−μ₂‖²/(2s²) + d/(1−α)·ln(s/(σ₁^{1−α} σ₂^α)),
// maximized over both directions with ‖μ₁−μ₂‖² = k; +∞ where s² <= 0 (α >= n in the direction
// "with the client" ‖ "without"). The continuous Gaussian stands in for the sum of the clients'
// discrete Gaussians (informational: the certificate composes the record level).
std::vector<double> dp_hype_client_removal_rdp(const std::vector<double>& orders, const DpHypeOptions& options,
                                               std::size_t clients, std::size_t candidates);

// Smallest σ (relative accuracy 1e-9) for which αk/(2σ²), converted at δ with the improved
// conversion over `orders`, is at most target_epsilon.
double dp_hype_sigma(std::size_t top_k, double target_epsilon, double delta, const std::vector<double>& orders);

}  // namespace dpareto::select
