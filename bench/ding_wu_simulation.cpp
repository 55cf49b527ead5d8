// Ding & Wu 2022, Fig. 1–2: the doubling process of propose-test tuning (Alg. 1) in simulation,
// k = 10 partitions, 100 candidates with utilities uniform on (0, 1), u₀ = 0.
// Writes to DIR (default out/ding_wu):
//   paths.csv       seed,iteration,utility,step — Fig. 1 (ε₀ = 0.1, g = 0.01), 1000 seeds; iteration
//                   0 is the start (u₀, 1); seed −1 is the worst-case zig-zag True, False, ... over
//                   as many iterations as the longest observed run.
//   iterations.csv  epsilon0,ratio,granularity,mean,p99,max,bound — Fig. 2: observed iterations vs
//                   (u* − u₀)/g over 1000 seeds each, varied through g = 1/ratio (u* ≈ 1, the top
//                   of the utility range); bound = 2M − 1, M = ⌈(1 − u₀)/g⌉, the data-independent
//                   bound the privacy accounting uses. ε₀ = 0.1 is the paper's setting; ε₀ = 10
//                   shows a low-noise regime where the utilities, not the noise, drive the walk.
// Usage: bench_ding_wu_simulation [DIR] [--seed S]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "dpareto/core/random.hpp"
#include "dpareto/privacy/dpsgd_accountant.hpp"
#include "dpareto/privacy/rdp_conversion.hpp"
#include "dpareto/privacy/secure_noise.hpp"
#include "dpareto/select/propose_test.hpp"

using namespace dpareto;

int main(int argc, char** argv) {
  std::string dir = "out/ding_wu";
  std::uint64_t seed = 2022;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      dir = arg;
    }
  }
  std::filesystem::create_directories(dir);
  select::ProposeTestOptions options;  // k = 10, ε₀ = 0.1, g = 0.01, u₀ = 0
  const int seeds = 1000;
  const std::size_t candidates = 100;
  privacy::ChaChaRandomSource noise(seed);  // a simulation: reproducible on purpose

  auto run = [&](std::uint64_t instance, const select::ProposeTestOptions& opts) {
    Rng rng(derive_seed(seed, instance));
    std::uniform_real_distribution<double> draw(0, 1);
    std::vector<double> u(candidates);
    for (auto& x : u) x = draw(rng);
    return select::propose_test_select(
        candidates, [&](std::size_t s, std::size_t) { return u[s]; }, opts, noise);
  };

  // Fig. 1.
  std::ofstream paths(dir + "/paths.csv");
  paths << "seed,iteration,utility,step\n";
  std::uint64_t longest = 0;
  for (int s = 0; s < seeds; ++s) {
    const auto result = run(std::uint64_t(s), options);
    longest = std::max(longest, result.iterations);
    paths << s << ",0," << options.utility_floor << ",1\n";
    for (std::size_t t = 0; t < result.path.size(); ++t) {
      paths << s << ',' << t + 1 << ',' << result.path[t].utility << ',' << result.path[t].step << '\n';
    }
  }
  select::DoublingState zigzag(options.utility_floor, options.granularity);
  paths << "-1,0," << zigzag.utility() << ",1\n";
  for (std::uint64_t t = 0; t < longest && !zigzag.done(); ++t) {
    zigzag.advance(t % 2 == 0);
    paths << "-1," << t + 1 << ',' << zigzag.utility() << ',' << zigzag.step() << '\n';
  }

  // Fig. 2.
  std::ofstream table(dir + "/iterations.csv");
  table << "epsilon0,ratio,granularity,mean,p99,max,bound\n";
  std::printf("%8s %8s %8s %6s %6s %6s\n", "eps0", "ratio", "mean", "p99", "max", "bound");
  bool within_bound = true;
  const std::vector<int> ratios{5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 200, 400, 800};
  for (double eps0 : {0.1, 10.0}) {
    for (int r : ratios) {
      select::ProposeTestOptions varied = options;
      varied.epsilon0 = eps0;
      varied.granularity = 1.0 / r;
      const std::uint64_t bound = select::propose_test_iteration_bound(varied.utility_floor, varied.granularity);
      std::vector<double> counts;
      for (int s = 0; s < seeds; ++s) counts.push_back(double(run(1000000 + 1000 * r + s, varied).iterations));
      std::sort(counts.begin(), counts.end());
      double mean = 0;
      for (double c : counts) mean += c / seeds;
      const double p99 = counts[std::size_t(0.99 * seeds) - 1];
      within_bound = within_bound && counts.back() <= double(bound);
      table << eps0 << ',' << r << ',' << varied.granularity << ',' << mean << ',' << p99 << ',' << counts.back() << ','
            << bound << '\n';
      std::printf("%8.1f %8d %8.2f %6.0f %6.0f %6llu\n", eps0, r, mean, p99, counts.back(), (unsigned long long)bound);
    }
  }

  // What the bound costs: pure DP by basic composition and, through RDP, at δ = 1e-5.
  const auto orders = privacy::default_orders();
  const auto converted = privacy::rdp_to_epsilon(orders, select::propose_test_rdp(options, orders), 1e-5);
  std::printf("every observed count within its bound 2M-1: %s\n", within_bound ? "yes" : "NO");
  std::printf(
      "Fig. 1 setting (eps0 0.1, g 0.01): bound %llu, tuning epsilon: pure %.3f (delta 0); via RDP %.3f at delta 1e-5 "
      "(order %.2f)\n",
      (unsigned long long)select::propose_test_iteration_bound(options.utility_floor, options.granularity),
      select::propose_test_epsilon(options), converted.epsilon, converted.order);
  std::printf("wrote %s/paths.csv and %s/iterations.csv\n", dir.c_str(), dir.c_str());
}
