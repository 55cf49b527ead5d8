#pragma once
// Propose-test hyperparameter tuning with doubling step (Ding & Wu 2022, Alg. 1; DESIGN.md §3.5).
//
// Utilities come from subsample-and-aggregate: u_s = (1/k) Σ_i u_s^(i), u_s^(i) ∈ [0, 1] the
// validation utility of candidate s trained on partition i, so one record changes u_s by ≤ 1/k.
// Each iteration proposes û = u + step·g + Lap(2/(kε₀)) and walks the candidates in order; the
// first with u_s + Lap(4/(kε₀)) >= û is recorded, u grows by step·g and step doubles; if none
// passes, step halves (⌊step/2⌋). The loop ends when step = 0 or u >= 1. Each iteration is ε₀-DP
// (their Theorem), so the tuning costs T·ε₀ for T iterations.
//
// Privacy must not depend on the observed count, so ε uses the data-independent bound
// T <= 2M − 1, M = ⌈(1 − u₀)/g⌉ (the least M with u₀ + M·g >= 1); see propose_test_iteration_bound.
//
// Floating-point safety: utilities are put on an integer grid with R points per 1/k
// (q_s = Σ_i ⌊R·u_s^(i)⌋, sensitivity exactly R) and the noise is the exact discrete Laplace of
// scale 2R/ε₀ and 4R/ε₀ grid points (CKS20 Alg. 2); integer shifts by the sensitivity cost the
// same e^{ε₀/2} factors as in Ding–Wu's proof, so each iteration stays ε₀-DP.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "dpareto/privacy/secure_noise.hpp"

namespace dpareto::select {

struct ProposeTestOptions {
  std::size_t partitions = 10;                   // k
  double epsilon0 = 0.1;                         // ε₀ per iteration
  double granularity = 0.01;                     // g ∈ (0, 1)
  double utility_floor = 0;                      // u₀ ∈ [0, 1)
  std::uint64_t grid_per_sensitivity = 1 << 16;  // R
};

// validation utility in [0, 1] of (candidate, partition); learners plug in here.
using PartitionUtility = std::function<double(std::size_t candidate, std::size_t partition)>;

// The bookkeeping of Alg. 1 lines 12–31 in whole units of g: u = u₀ + units·g, step ∈ {0, 1, 2, 4, ...}.
class DoublingState {
 public:
  DoublingState(double utility_floor, double granularity);
  bool done() const { return step_ == 0 || reached_one(); }
  double utility() const;   // u
  double proposal() const;  // u + step·g, the threshold before noise
  std::uint64_t step() const { return step_; }
  // One iteration's outcome: accumulated (u += step·g, step *= 2) or not (step = ⌊step/2⌋).
  void advance(bool accumulated);

 private:
  bool reached_one() const { return utility() >= 1; }
  double utility_floor_;
  double granularity_;
  std::uint64_t units_ = 0;
  std::uint64_t step_ = 1;
};

// M: the least integer with u₀ + M·g >= 1 in the same arithmetic DoublingState uses.
std::uint64_t units_to_one(double utility_floor, double granularity);

// The data-independent bound 2M − 1 on the iterations of Alg. 1 (derivation in
// docs/select.md; it is attained by the outcome sequence True, False, True, ...).
std::uint64_t propose_test_iteration_bound(double utility_floor, double granularity);

struct ProposeTestResult {
  std::optional<std::size_t> selected;  // s*; empty if no iteration ever accumulated
  std::uint64_t iterations = 0;         // observed count (for analysis only, never for ε)
  std::uint64_t iteration_bound = 0;    // 2M − 1
  double utility_reached = 0;           // final u (a released, noisy quantity)
  struct Point {
    double utility;
    std::uint64_t step;
  };
  std::vector<Point> path;  // (u, step) after each iteration (Ding–Wu Fig. 1)
};

// Runs Alg. 1 lines 1–31 over `candidates` candidates. Throws InputError for invalid options, no
// candidates, or a utility outside [0, 1] (naming candidate and partition).
ProposeTestResult propose_test_select(std::size_t candidates, const PartitionUtility& utility,
                                      const ProposeTestOptions& options, privacy::RandomSource& source);

// Pure DP of the tuning: bound·ε₀ by basic composition.
double propose_test_epsilon(const ProposeTestOptions& options);

// RDP of the tuning at each order: bound · min(ε₀, αε₀²/2) (ε₀-DP implies (α, ε₀)-RDP and
// ε₀²/2-zCDP, Bun & Steinke 2016 Prop. 3.3), to compose with the final training.
std::vector<double> propose_test_rdp(const ProposeTestOptions& options, const std::vector<double>& orders);

}  // namespace dpareto::select
