// DP-HYPE (Liebenow et al. 2025), Fig. 2a: simulated local losses. p = 100 hyperparameters, the
// first 10 good (loss ~ N(0, s²) at every client), the rest bad (loss ~ N(1, s²)); n = 250 clients,
// δ = 1e-5. Accuracy = fraction of rounds whose released argmax is a good hyperparameter, vs ε
// for each k, one panel per s. σ is calibrated so that αk/(2σ²) converts to ε at δ (improved
// conversion over the default orders).
//
// The grid uses the aggregated-noise shortcut: the server's view is the vote total plus the sum
// of the clients' noise, simulated as one exact discrete Gaussian N_Z(0, σ²·scale²) per entry on
// the fixed-point grid instead of n per-client ones and the masks (the same distribution up to the
// KLS21 τ term, < 1e-300 here). One configuration is also run through the full protocol
// (select::dp_hype_select: per-client noise, pairwise masks, secure sum) as a check.
// Writes DIR/accuracy.csv (s,k,epsilon,sigma,accuracy,rounds). Usage: bench_dp_hype_simulation [DIR]
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "dpareto/core/random.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/secure_noise.hpp"
#include "dpareto/select/dp_hype.hpp"

using namespace dpareto;

namespace {

constexpr std::size_t kCandidates = 100;
constexpr std::size_t kGood = 10;
constexpr std::size_t kClients = 250;
constexpr double kDelta = 1e-5;

std::vector<std::vector<double>> draw_losses(Rng& rng, double s) {
  std::normal_distribution<double> noise(0, s);
  std::vector<std::vector<double>> losses(kClients, std::vector<double>(kCandidates));
  for (auto& client : losses) {
    for (std::size_t h = 0; h < kCandidates; ++h) client[h] = (h < kGood ? 0.0 : 1.0) + noise(rng);
  }
  return losses;
}

// Aggregated-noise shortcut: argmax of vote totals + N_Z(0, σ²·scale²) on the grid.
std::size_t shortcut_select(const std::vector<std::vector<double>>& losses, std::size_t k, double sigma,
                            privacy::RandomSource& source) {
  const std::int64_t scale = std::int64_t(1) << 20;
  std::vector<std::int64_t> total(kCandidates, 0);
  for (const auto& client : losses) {
    const auto vote = select::top_k_vote(client, k);
    for (std::size_t h = 0; h < kCandidates; ++h) total[h] += vote[h] * scale;
  }
  const privacy::Rational sd = privacy::exact_rational(sigma, "sigma");
  const privacy::Rational variance{sd.num * sd.num * scale * scale, sd.den * sd.den};
  for (auto& t : total) t += privacy::discrete_gaussian(source, variance);
  return static_cast<std::size_t>(std::max_element(total.begin(), total.end()) - total.begin());
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "out/dp_hype";
  std::filesystem::create_directories(dir);
  const auto orders = privacy::default_orders();
  privacy::ChaChaRandomSource noise(2025), keys(2026);  // a simulation: reproducible on purpose
  const int rounds = 300;
  const std::vector<double> spreads{0.5, 1.0, 2.0};
  const std::vector<std::size_t> ks{1, 2, 3, 5, 10, 20};
  const std::vector<double> epsilons{0.1, 0.25, 0.5, 1, 2, 4, 8};

  std::ofstream csv(dir + "/accuracy.csv");
  csv << "s,k,epsilon,sigma,accuracy,rounds\n";
  std::uint64_t stream = 0;
  for (double s : spreads) {
    std::printf("s = %.1f\n%6s", s, "k\\eps");
    for (double e : epsilons) std::printf(" %6.2f", e);
    std::printf("\n");
    for (std::size_t k : ks) {
      std::printf("%6zu", k);
      for (double eps : epsilons) {
        const double sigma = select::dp_hype_sigma(k, eps, kDelta, orders);
        int good = 0;
        for (int r = 0; r < rounds; ++r) {
          Rng rng(derive_seed(7, stream++));
          good += shortcut_select(draw_losses(rng, s), k, sigma, noise) < kGood ? 1 : 0;
        }
        const double accuracy = double(good) / rounds;
        csv << s << ',' << k << ',' << eps << ',' << sigma << ',' << accuracy << ',' << rounds << '\n';
        std::printf(" %6.3f", accuracy);
      }
      std::printf("\n");
    }
  }

  // Check: the full protocol against the shortcut at s = 1, k = 5, ε = 0.25 (accuracy ≈ 0.66).
  const std::size_t k = 5;
  select::DpHypeOptions options;
  options.top_k = k;
  options.sigma = select::dp_hype_sigma(k, 0.25, kDelta, orders);
  int full = 0, shortcut = 0;
  const int check_rounds = 150;
  for (int r = 0; r < check_rounds; ++r) {
    Rng rng(derive_seed(8, std::uint64_t(r)));
    const auto losses = draw_losses(rng, 1.0);
    full += select::dp_hype_select(losses, options, noise, keys).selected < kGood ? 1 : 0;
    shortcut += shortcut_select(losses, k, options.sigma, noise) < kGood ? 1 : 0;
  }
  std::printf("check (s 1, k 5, eps 0.25, sigma %.3f, %d rounds): full protocol %.3f, shortcut %.3f\n", options.sigma,
              check_rounds, double(full) / check_rounds, double(shortcut) / check_rounds);
  std::printf("wrote %s/accuracy.csv\n", dir.c_str());
}
