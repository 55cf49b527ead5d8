// bench_pld_accounting: timings of the PLD accountant beside the RDP one (docs/privacy.md quotes
// them), and the tightness table of docs/privacy.md. Prints figures, asserts nothing.
#include <cstdio>
#include <vector>

#include "best_of_timing.hpp"
#include "dpareto/privacy/accountant.hpp"
#include "dpareto/privacy/calibration.hpp"
#include "dpareto/privacy/pld_accountant.hpp"

using namespace dpareto::privacy;
using dpareto::bench::best_of;

int main() {
  const double q = 0.01, sigma = 1.1, delta = 1e-5;
  const long long steps = 10000;
  double rdp = 0;
  const auto t_rdp = best_of(11, [&](int) { rdp = dpsgd_epsilon(Sampling::poisson, q, sigma, steps, delta).epsilon; });
  std::printf("epsilon, q=%g sigma=%g T=%lld delta=%g:\n", q, sigma, steps, delta);
  std::printf("  RDP (default orders, improved):   %8.2f ms  eps = %.6f\n", 1e3 * t_rdp.wall, rdp);
  PldEpsilon bracket{};
  const auto t_pld = best_of(7, [&](int) {
    PldAccountant accountant;  // a fresh accountant each run: discretize, compose, read out
    accountant.compose_subsampled_gaussian(Sampling::poisson, q, sigma, steps);
    bracket.epsilon = accountant.epsilon(delta).epsilon;
  });
  std::printf("  PLD epsilon(delta):               %8.2f ms  eps = %.6f\n", 1e3 * t_pld.wall, bracket.epsilon);
  const auto t_bracket = best_of(5, [&](int) {
    PldAccountant accountant;
    accountant.compose_subsampled_gaussian(Sampling::poisson, q, sigma, steps);
    bracket = accountant.epsilon_bracket(delta);
  });
  std::printf("  PLD epsilon_bracket(delta):       %8.2f ms  eps = %.6f, optimistic %.6f, h = %g\n",
              1e3 * t_bracket.wall, bracket.epsilon, bracket.optimistic, bracket.discretization);

  double s_rdp = 0, s_pld = 0;
  const auto c_rdp = best_of(5, [&](int) { s_rdp = calibrate_sigma(Sampling::poisson, q, steps, 1.0, delta); });
  const auto c_pld =
      best_of(3, [&](int) { s_pld = calibrate_sigma(AccountantKind::pld, Sampling::poisson, q, steps, 1.0, delta); });
  std::printf("sigma calibration, q=%g T=%lld target (1, %g):\n", q, steps, delta);
  std::printf("  RDP: %8.2f ms  sigma = %.8f\n", 1e3 * c_rdp.wall, s_rdp);
  std::printf("  PLD: %8.2f ms  sigma = %.8f\n", 1e3 * c_pld.wall, s_pld);
  long long t_r = 0, t_p = 0;
  const auto m_rdp = best_of(3, [&](int) { t_r = max_steps(Sampling::poisson, q, sigma, 3.0, delta); });
  const auto m_pld =
      best_of(3, [&](int) { t_p = max_steps(AccountantKind::pld, Sampling::poisson, q, sigma, 3.0, delta); });
  std::printf("max steps, q=%g sigma=%g target (3, %g): RDP %.2f ms (T = %lld), PLD %.2f ms (T = %lld)\n", q, sigma,
              delta, 1e3 * m_rdp.wall, t_r, 1e3 * m_pld.wall, t_p);

  // The ε after every epoch of one run (observe=every-epoch): Adult, lot 256, σ = 1, epochs 1..31.
  {
    const double q_adult = 256 / 30956.0;
    std::vector<long long> epochs;
    for (long long e = 1; e < 32; ++e) epochs.push_back(121 * e);
    double last_separately = 0, last_at_once = 0;
    const auto t_separately = best_of(3, [&](int) {
      for (long long t : epochs)
        last_separately = dpsgd_epsilon(AccountantKind::pld, Sampling::poisson, q_adult, 1.0, t, delta).epsilon;
    });
    const auto t_at_once = best_of(
        3, [&](int) { last_at_once = pld_subsampled_gaussian_epsilons(q_adult, 1.0, epochs, delta).back().epsilon; });
    std::printf(
        "epsilon after each of epochs 1..31, q=%g sigma=1 (121 steps an epoch): PLD separately %.1f ms, "
        "at once %.1f ms (%.1fx; eps after 31 epochs %.6f, %.6f)\n",
        q_adult, 1e3 * t_separately.wall, 1e3 * t_at_once.wall, t_separately.wall / t_at_once.wall, last_separately,
        last_at_once);
  }

  // The tightness table (docs/privacy.md): ε at δ = 1e-5 by RDP and by PLD with its bracket.
  std::printf("\n| setting | q | sigma | T | RDP eps | PLD eps | PLD optimistic | bracket width | h |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  struct Row {
    const char* name;
    double q, sigma;
    long long steps;
  };
  std::vector<Row> rows;
  const double n_adult = 30956;  // a9a training rows
  for (int lot : {32, 128, 256})
    for (int epochs : {2, 4, 16})
      rows.push_back({"Adult", lot / n_adult, 1.0, static_cast<long long>(epochs * n_adult / lot + 0.5)});
  rows.push_back({"MNIST, lot 256, 60 epochs", 256.0 / 60000, 1.1, 14063});
  rows.push_back({"reference", 0.01, 1.1, 10000});
  for (const Row& r : rows) {
    PldAccountant accountant;
    accountant.compose_subsampled_gaussian(Sampling::poisson, r.q, r.sigma, r.steps);
    const PldEpsilon b = accountant.epsilon_bracket(delta);
    char name[64];
    if (r.name[0] == 'A')
      std::snprintf(name, sizeof name, "Adult, lot %.0f, %.0f epochs", r.q * n_adult, r.steps * r.q);
    else
      std::snprintf(name, sizeof name, "%s", r.name);
    std::printf("| %s | %.6g | %g | %lld | %.4f | %.4f | %.4f | %.3f%% | %g |\n", name, r.q, r.sigma, r.steps, b.rdp,
                b.epsilon, b.optimistic, 100 * (b.epsilon - b.optimistic) / b.epsilon, b.discretization);
  }
}
