// Sample efficiency on the SVT problem (issue 2, "Must reach"): hypervolume (log-ε axis, reference
// (1000, 1), floor 1e-2) of the points DPareto and random search choose, re-scored with R = 2000 to
// remove Monte-Carlo optimism, as a fraction of the exact grid front's hypervolume
// (C = 1..30 × 400 log-spaced b, R = 2000).
//
// usage: bench_svt_sample_efficiency [seeds=10] [budgets=64,256] [methods=dpareto,random]
// methods: dpareto (the DPareto loop with HVPoI), ehvi (the same loop with EHVI), known and
// known-ehvi (those loops with ε computed exactly inside the acquisition, --known-epsilon), random.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include "dpareto/bo/make_proposer.hpp"
#include "dpareto/pareto/hypervolume.hpp"
#include "dpareto/problems/svt_problem.hpp"

using namespace dpareto;

namespace {

constexpr int kRescoreRepeats = 2000;
const pareto::Point kReference{1000, 1};

pareto::EpsilonAxis log_axis() {
  pareto::EpsilonAxis axis;
  axis.kind = pareto::EpsilonAxis::Kind::log10;
  axis.floor = 1e-2;
  return axis;
}

double hypervolume(const std::vector<pareto::Point>& objectives) {
  const auto axis = log_axis();
  std::vector<pareto::Point> mapped;
  for (const auto& p : objectives) mapped.push_back(axis.map(p));
  return pareto::hypervolume(mapped, axis.map(kReference));
}

template <typename F>
void parallel_for(int n, F&& body) {
  std::atomic<int> next{0};
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1u, std::thread::hardware_concurrency()); ++t)
    threads.emplace_back([&] {
      for (int i = next++; i < n; i = next++) body(i);
    });
  for (auto& t : threads) t.join();
}

std::vector<int> parse_ints(const std::string& text) {
  std::vector<int> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(std::stoi(item));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int seeds = argc > 1 ? std::stoi(argv[1]) : 10;
  const std::vector<int> budgets = parse_ints(argc > 2 ? argv[2] : "64,256");
  std::vector<std::string> methods;
  {
    std::stringstream ss(argc > 3 ? argv[3] : "dpareto,random");
    for (std::string m; std::getline(ss, m, ',');) methods.push_back(m);
  }
  const int max_budget = *std::max_element(budgets.begin(), budgets.end());
  const problems::SvtProblem rescorer({100, 10, kRescoreRepeats});
  const problems::SvtProblem oracle;  // R = 50, as the explorer sees it

  // Exact front on the fine grid.
  auto start = std::chrono::steady_clock::now();
  std::vector<pareto::Point> grid(30 * 400);
  parallel_for(30 * 400, [&](int i) {
    const double c = 1 + i / 400;
    const double b = std::pow(10.0, -2.0 + 4.0 * (i % 400) / 399.0);
    const space::Params p{c, b};
    grid[i] = {rescorer.privacy(p), 1 - rescorer.utility(p, derive_seed(7, i)).utility};
  });
  const double exact_hv = hypervolume(grid);
  std::printf("exact grid front (30 x 400, R = %d): HV = %.5f on the log-eps axis (%.1f s)\n", kRescoreRepeats,
              exact_hv, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());

  // ratio[method][budget] per seed
  std::map<std::string, std::map<int, std::vector<double>>> ratio;
  std::mutex mutex;
  for (const auto& method : methods) {
    start = std::chrono::steady_clock::now();
    parallel_for(seeds, [&](int s) {
      bo::ExplorerOptions options;
      options.method = method == "random" ? bo::Method::random : bo::Method::dpareto;
      if (method == "ehvi" || method == "known-ehvi") options.acquisition = "ehvi";
      options.known_epsilon = method.rfind("known", 0) == 0;
      options.initial_points = 16;
      options.objectives.set_reference(kReference);
      options.axis = log_axis();
      const auto explorer = bo::make_proposer(oracle.space(), options, static_cast<std::uint64_t>(s + 1),
                                              [&](const space::Params& p) { return oracle.privacy(p); });
      std::vector<space::Params> chosen;
      for (int n = 1; n <= max_budget; ++n) {
        const auto suggestion = explorer->ask();
        const auto e = oracle.evaluate(suggestion->params, derive_seed(1000 + s, n));
        explorer->tell({suggestion->params, e.ok, {e.epsilon, e.utility}});
        chosen.push_back(suggestion->params);
        if (std::find(budgets.begin(), budgets.end(), n) != budgets.end()) {
          std::vector<pareto::Point> rescored;
          for (std::size_t k = 0; k < chosen.size(); ++k)
            rescored.push_back(
                {rescorer.privacy(chosen[k]), 1 - rescorer.utility(chosen[k], derive_seed(99, k)).utility});
          std::lock_guard<std::mutex> lock(mutex);
          ratio[method][n].push_back(hypervolume(rescored) / exact_hv);
        }
      }
    });
    std::printf("%s: %d seeds in %.1f s\n", method.c_str(), seeds,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::printf("\n%-8s %8s %10s %10s %10s\n", "method", "budget", "mean HV%", "min HV%", "max HV%");
  for (const auto& method : methods)
    for (int b : budgets) {
      const auto& v = ratio[method][b];
      double sum = 0, lo = 1e9, hi = -1e9;
      for (double x : v) sum += x, lo = std::min(lo, x), hi = std::max(hi, x);
      std::printf("%-8s %8d %9.2f%% %9.2f%% %9.2f%%\n", method.c_str(), b, 100 * sum / v.size(), 100 * lo, 100 * hi);
    }
  return 0;
}
