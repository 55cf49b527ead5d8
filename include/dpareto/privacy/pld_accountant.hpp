#pragma once
// A privacy-loss-distribution (PLD) accountant for DP-SGD with Poisson sampling (issue 15):
// numerically tight (ε, δ) for the composition of subsampled Gaussian steps, with a certified
// bracket [optimistic, pessimistic] around the exact value.
//
// - Each Poisson event (rate q, noise multiplier σ, T steps, add/remove neighbours) is one step's
//   PLD on a grid of width h, built pessimistically by "connect the dots" (Doroshenko et al. 2022)
//   and optimistically by merging onto the grid (pld.hpp in src/privacy/ explains both), composed
//   by FFT (Koskela, Jälkö, Honkela 2020) with a truncation window and floating-point error bound
//   that go into δ. Both neighbouring directions (remove: (1−q)N(0,σ²)+qN(1,σ²) vs N(0,σ²); add:
//   the reverse) are composed; ε is the larger of the two (δ likewise).
// - Events with q = 1 only (full-batch Gaussian): composed exactly as one Gaussian of noise
//   (Σ T/σ²)^{−1/2} (Dong, Roth, Su 2019: μ-GDP composes to sqrt(Σμ²)-GDP) and read out by analytic_gaussian.hpp,
//   unless `exact_full_batch` is false.
// - Fixed-size lots (replace-one, Sampling::fixed_size*) and compose_rdp curves go into an RDP
//   part. With both parts, ε(δ) = min over δ = δ₁ + δ₂ (a small grid of splits) of ε_PLD(δ₁) +
//   ε_RDP(δ₂) (basic composition), and δ(ε) likewise over ε = ε₁ + ε₂.
// - Every answer is also capped by the RDP accountant of everything composed (Poisson steps
//   included, at the same orders and conversion), so the PLD accountant never reports more than
//   RdpAccountant would.
// EpsilonResult::order / DeltaResult::order is NaN when the PLD side gives the answer, the
// minimizing RDP order when the pure-RDP cap does.
// The composed PLDs are built on the first query after a composition (then cached): const queries
// may run concurrently; composing while another thread queries may not (as for RdpAccountant).
// docs/privacy.md "PLD accountant" has the construction, the defaults and a tightness table.
#include <memory>
#include <mutex>
#include <vector>

#include "dpareto/privacy/accountant.hpp"

namespace dpareto::privacy {

// Automatic grid width: 1e-4 in loss, finer when one step's loss spread is small (at most 1/32 of
// its standard deviation), coarser when the composed loss is so wide that ~2^21 points would not
// cover it.
inline constexpr double kAutoDiscretization = 0;
// Truncation: composed mass outside the FFT window, counted into δ.
inline constexpr double kPldTailMass = 1e-15;

struct PldEpsilon {
  double epsilon;     // reported upper bound: min(pld, rdp)
  double optimistic;  // lower bound on the exact ε (of the Poisson part; 0 without one)
  double delta;
  double discretization;  // grid width h used (0: exact or no Poisson part)
  double pld;             // the PLD-based upper bound alone (with the RDP part by δ-splitting)
  double rdp;             // the RDP accountant's ε of everything composed
};

struct PldDelta {
  double delta;       // reported upper bound: min(pld, rdp)
  double optimistic;  // lower bound on the exact δ(ε) (of the Poisson part; 0 without one)
  double epsilon;
  double discretization;
  double pld;
  double rdp;
};

class PldAccountant final : public Accountant {
 public:
  // discretization: grid width h > 0 in privacy-loss units, or kAutoDiscretization.
  // Throws InputError for h < 0 or not finite.
  explicit PldAccountant(double discretization = kAutoDiscretization, std::vector<double> orders = default_orders(),
                         Conversion conversion = Conversion::improved, bool exact_full_batch = true);
  PldAccountant(const PldAccountant&) = delete;
  PldAccountant& operator=(const PldAccountant&) = delete;
  ~PldAccountant() override;

  // Sampling::poisson: PLD part (q in (0, 1], σ > 0 finite, steps >= 1; steps = 0 or q = 0 add
  // nothing); fixed_size, fixed_size_general: RDP part. InputError naming the value otherwise.
  void compose_subsampled_gaussian(Sampling sampling, double q, double sigma, long long steps) override;
  void compose_rdp(const RdpCurve& curve) override;
  EpsilonResult epsilon(double delta) const override;
  DeltaResult delta(double epsilon) const override;
  // The same answers with the bracket. InputError for δ outside (0, 1) / ε < 0 or not finite.
  PldEpsilon epsilon_bracket(double delta) const;
  PldDelta delta_bracket(double epsilon) const;

  double discretization() const { return discretization_; }  // as requested (0 = automatic)

 private:
  struct Event {
    double q, sigma;
    long long steps;
  };
  struct Composed;  // the composed PLDs, built on first use
  const Composed& composed(bool optimistic) const;
  double pld_epsilon_part(double delta, bool optimistic) const;
  double pld_delta_part(double epsilon, bool optimistic) const;
  double combined_epsilon(double delta) const;
  double combined_delta(double epsilon) const;

  double discretization_;
  Conversion conversion_;
  bool exact_full_batch_;
  std::vector<Event> poisson_;
  RdpCurve rdp_other_, rdp_all_;
  bool has_other_ = false;
  mutable std::mutex mutex_;
  mutable std::unique_ptr<Composed> pessimistic_, optimistic_;
};

// ε(δ) of T Poisson-subsampled Gaussian steps (rate q, noise multiplier σ) for each T in `steps`:
// what a default PldAccountant composing T steps reports (the smaller of its PLD and RDP bounds),
// from one discretization and one forward FFT per direction (used for the ε after every epoch of a
// run). Every T is composed on the grid the accountant chooses for the largest T — never finer
// than T's own — so each answer is an upper bound on the exact ε, equal to the separate accounting
// of the largest T and within the discretization's slack (docs/privacy.md) of the others.
// InputError as compose_subsampled_gaussian and epsilon() would raise it.
std::vector<EpsilonResult> pld_subsampled_gaussian_epsilons(double q, double sigma, const std::vector<long long>& steps,
                                                            double delta);

}  // namespace dpareto::privacy
