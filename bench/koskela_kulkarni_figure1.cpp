// Koskela & Kulkarni 2023, Fig. 1: (ε, δ = 1e-5) of tuning on a Poisson subsample X₁ (rate q) as a
// function of q, for DP-SGD with Poisson lots γ = 0.01, σ = 2, 50 epochs (T = 50/γ = 5000 steps)
// and random stopping with K ~ Poisson(μ), μ ∈ {15, 45}:
// - base curve ε_base(α): one DP-SGD run (γ, σ, T) — every candidate and the final model;
// - tuning curve ε_tune(α): random stopping over that candidate curve (their Thm 5);
// - variant 1 (tune on X₁, final model on X∖X₁, eq. 3.1): their Thm 1, max of eqs. 3.6/3.7 with
//   ε_tune and ε_base;
// - variant 2 (tune on X₁, final model on X, eq. 3.2): their Thm 4 applied to ε_tune with rate q,
//   plus ε_base (composition);
// - baseline: random stopping on the full data (Thm 5 = ε_tune), no further run.
// RDP is tracked at the integer orders 2..256 (Thms 1 and 4 hold at integer orders only) and
// converted with the improved conversion (their Lemma 3 / eq. 2.2), minimized over those orders.
// Writes DIR/figure1.csv (mu,q,variant1_epsilon,variant2_epsilon,baseline_epsilon,
// variant1_order,variant2_order,baseline_order,single_run_epsilon) and prints a table.
// Usage: bench_koskela_kulkarni_figure1 [DIR]     (default out/koskela_kulkarni)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/random_stopping_bound.hpp"
#include "dpareto/privacy/rdp_conversion.hpp"
#include "dpareto/privacy/subsampled_tuning.hpp"

using namespace dpareto::privacy;

namespace {

constexpr double kGamma = 0.01, kSigma = 2.0, kEpochs = 50, kDelta = 1e-5;
constexpr int kMaxOrder = 256;

// A curve at orders 2..max as the by-order table of subsampled_tuning.hpp (index = order).
std::vector<double> by_order(const std::vector<double>& curve) {
  std::vector<double> table(2, 0.0);
  table.insert(table.end(), curve.begin(), curve.end());
  return table;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "out/koskela_kulkarni";
  std::filesystem::create_directories(dir);
  std::vector<double> orders;
  for (int a = 2; a <= kMaxOrder; ++a) orders.push_back(a);
  const auto steps = static_cast<long long>(kEpochs / kGamma + 0.5);
  const auto base = dpsgd_rdp(Sampling::poisson, kGamma, kSigma, steps, orders);
  const auto base_table = by_order(base);
  const auto single = rdp_to_epsilon(orders, base, kDelta);

  std::vector<double> qs{0.001, 0.002, 0.005};           // the rise from one DP-SGD run at q -> 0
  for (int i = 1; i <= 10; ++i) qs.push_back(0.01 * i);  // 0.01 .. 0.10
  for (int i = 3; i <= 20; ++i) qs.push_back(0.05 * i);  // 0.15 .. 1.00
  qs.insert(qs.begin() + 13, 0.125);

  std::ofstream csv(dir + "/figure1.csv");
  csv << "mu,q,variant1_epsilon,variant2_epsilon,baseline_epsilon,variant1_order,variant2_order,baseline_order,"
         "single_run_epsilon\n";
  std::printf("DP-SGD Poisson gamma = %g, sigma = %g, T = %lld steps, delta = %g, integer orders 2..%d\n", kGamma,
              kSigma, steps, kDelta, kMaxOrder);
  std::printf("one DP-SGD run: epsilon = %.4f (order %g)\n", single.epsilon, single.order);
  for (double mu : {15.0, 45.0}) {
    const auto tune = poisson_stopping_rdp(orders, base, mu);
    const auto tune_table = by_order(tune);
    const auto baseline = rdp_to_epsilon(orders, tune, kDelta);
    // The plain composition tuning + one more run (what variant 2 would be at q = 1 if Thm 4
    // reduced to the identity there; it keeps a log 3/(α−1) term).
    std::vector<double> composed(orders.size());
    for (std::size_t i = 0; i < orders.size(); ++i) composed[i] = tune[i] + base[i];
    const auto plain = rdp_to_epsilon(orders, composed, kDelta);
    std::printf(
        "\nmu = %g: baseline (Thm 5, full data) epsilon = %.4f (order %g); baseline + one more run, "
        "plain composition: %.4f (order %g)\n",
        mu, baseline.epsilon, baseline.order, plain.epsilon, plain.order);
    std::printf("%6s %10s %6s %10s %6s\n", "q", "variant1", "order", "variant2", "order");
    for (double q : qs) {
      const auto v1 = subsampled_tuning_rdp(orders, tune_table, base_table, q);
      auto v2 = poisson_subsampled_rdp(orders, tune_table, q);
      for (std::size_t i = 0; i < orders.size(); ++i) v2[i] += base[i];
      const auto e1 = rdp_to_epsilon(orders, v1, kDelta), e2 = rdp_to_epsilon(orders, v2, kDelta);
      csv << mu << ',' << q << ',' << e1.epsilon << ',' << e2.epsilon << ',' << baseline.epsilon << ',' << e1.order
          << ',' << e2.order << ',' << baseline.order << ',' << single.epsilon << '\n';
      std::printf("%6.3f %10.4f %6g %10.4f %6g\n", q, e1.epsilon, e1.order, e2.epsilon, e2.order);
    }
  }
  std::printf("wrote %s/figure1.csv\n", dir.c_str());
}
