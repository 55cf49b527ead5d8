// Sample efficiency on the SVT problem (issue 2, "Must reach"): hypervolume (log-ε axis, reference
// (1000, 1), floor 1e-2) of the points DPareto and random search choose, re-scored with R = 2000 to
// remove Monte-Carlo optimism, as a fraction of the exact grid front's hypervolume
// (C = 1..30 × 400 log-spaced b, R = 2000). Beside it, the same points' hypervolume as the explorer
// saw them (R = 50: optimistic) and with their robust utilities (explore/robust_front.hpp: the
// utility GP's posterior median at each point, fitted afterwards as `dpareto pick` and `explore` do).
//
// First the ceilings: the grid front's own points re-scored, and the best k of them per budget.
// Then where the loss is (issue 13 item 4): per half-decade of ε, the exact front's hypervolume in
// that slice, each method's mean re-scored hypervolume there minus it, and how many of its BO
// proposals (after the initial points) fell there, over all seeds.
//
// usage: bench_svt_sample_efficiency [seeds=10] [budgets=64,256] [methods=dpareto,random] [initial=16]
// methods: dpareto (the DPareto loop with HVPoI), ehvi (the same loop with EHVI), known and
// known-ehvi (those loops with ε computed exactly inside the acquisition, --known-epsilon), random,
// noiseless (the DPareto loop told R = 2000 scores instead of R = 50 ones: what is left of the loss
// without observation noise is the surrogate's and the acquisition's); any of them with the suffix
// -unspaced runs with min_spacing 0 (bo/explorer_options.hpp), as the loop did before 2026-11-28,
// with the suffix -observed (after any -unspaced) cuts its improvement region from the observed
// front instead of the posterior means (ExplorerOptions::improvement_front), as before 2026-12-01,
// and with the suffix -logit (after any other) models the utility on a logit GP instead of SVT's
// arcsine (pareto::Transform), as before 2026-12-02.
// initial: the points of the initial design (before any model), for every method.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dpareto/bo/explorer.hpp"
#include "dpareto/bo/make_proposer.hpp"
#include "dpareto/core/mean_difference.hpp"
#include "dpareto/explore/robust_front.hpp"
#include "dpareto/pareto/dominance.hpp"
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

// Slices of the log-ε axis: half-decades from the floor (10^-2) to the reference (10^3).
std::vector<double> slice_edges() {
  std::vector<double> edges;
  for (double x = -2; x <= 3 + 1e-9; x += 0.5) edges.push_back(x);
  return edges;
}

std::size_t slice_of(double axis_epsilon, const std::vector<double>& edges) {
  const auto above = std::upper_bound(edges.begin(), edges.end(), axis_epsilon) - edges.begin();
  return static_cast<std::size_t>(
      std::clamp<std::ptrdiff_t>(above - 1, 0, static_cast<std::ptrdiff_t>(edges.size()) - 2));
}

// The dominated area (below the reference) of 2-D points on the log-ε axis, cut into the slices
// between consecutive edges: the staircase min error over points at or left of x, integrated over
// each slice. The slices sum to hypervolume(points) when the edges span the floor to the reference.
std::vector<double> hypervolume_by_slice(const std::vector<pareto::Point>& objectives,
                                         const std::vector<double>& edges) {
  const auto axis = log_axis();
  const pareto::Point reference = axis.map(kReference);
  std::vector<pareto::Point> mapped;
  for (const auto& p : objectives) {
    const auto m = axis.map(p);
    if (m[0] < reference[0] && m[1] < reference[1]) mapped.push_back(m);
  }
  std::sort(mapped.begin(), mapped.end());
  std::vector<double> area(edges.size() - 1, 0.0);
  double best = reference[1];
  for (std::size_t i = 0; i < mapped.size(); ++i) {
    best = std::min(best, mapped[i][1]);
    const double from = mapped[i][0], to = i + 1 < mapped.size() ? mapped[i + 1][0] : reference[0];
    for (std::size_t k = 0; k + 1 < edges.size(); ++k) {
      const double width = std::min(to, edges[k + 1]) - std::max(from, edges[k]);
      if (width > 0) area[k] += width * (reference[1] - best);
    }
  }
  return area;
}

// The largest hypervolume any k of the given points reach (2-D hypervolume subset selection by
// dynamic programming over the front sorted by ε, O(k n²)): what a chooser that knew every score
// could get with k evaluations. best[i]: the most area right of point i with i chosen and at most
// m more chosen after it; a point's own strip runs from it to the next chosen point (or the reference).
double best_subset_hypervolume(const std::vector<pareto::Point>& objectives, int k) {
  const auto axis = log_axis();
  const pareto::Point reference = axis.map(kReference);
  std::vector<pareto::Point> front;
  for (const auto i : pareto::non_dominated_indices(objectives)) front.push_back(axis.map(objectives[i]));
  std::sort(front.begin(), front.end());
  const std::size_t n = front.size();
  std::vector<double> best(n), previous(n);
  for (std::size_t i = 0; i < n; ++i) best[i] = (reference[0] - front[i][0]) * (reference[1] - front[i][1]);
  for (int m = 1; m < k; ++m) {
    previous = best;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        best[i] = std::max(best[i], (front[j][0] - front[i][0]) * (reference[1] - front[i][1]) + previous[j]);
  }
  return n == 0 ? 0.0 : *std::max_element(best.begin(), best.end());
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

// The chosen settings' hypervolume at their robust utilities: a run of them, its model rebuilt as
// explore::rebuild_run_model does (a DPareto explorer told every point, surrogates fitted).
double robust_hypervolume(const space::Space& space, const bo::ExplorerOptions& options, std::uint64_t seed,
                          const std::vector<space::Params>& chosen, const std::vector<problems::Evaluation>& seen) {
  explore::RunModel model;
  bo::ExplorerOptions fitted = options;
  fitted.known_epsilon = false;  // as rebuild_run_model: every objective's GP fitted
  model.explorer = std::make_unique<bo::Explorer>(space, fitted, seed);
  model.record_column = {0, 1};
  study::RunData run;
  run.info.objectives = options.objectives;
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    model.explorer->tell({chosen[k], seen[k].ok, {seen[k].epsilon, seen[k].utility}});
    study::EvaluationRecord r;
    r.status = seen[k].ok ? study::EvaluationStatus::ok : study::EvaluationStatus::failed;
    r.params = chosen[k];
    r.epsilon = seen[k].epsilon;
    r.utility = seen[k].utility;
    run.records.push_back(r);
  }
  model.explorer->fit_surrogates();
  std::vector<pareto::Point> points;
  for (const auto& r : explore::robust_run(model, run).records)
    if (r.ok()) points.push_back({r.epsilon, 1 - r.utility});
  return hypervolume(points);
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
  const int initial_points = argc > 4 ? std::stoi(argv[4]) : 16;
  const int max_budget = *std::max_element(budgets.begin(), budgets.end());
  const problems::SvtProblem rescorer({100, 10, kRescoreRepeats});
  const problems::SvtProblem oracle;  // R = 50, as the explorer sees it

  // Exact front on the fine grid.
  auto start = std::chrono::steady_clock::now();
  std::vector<pareto::Point> grid(30 * 400);
  const auto grid_setting = [](std::size_t i) {  // C = 1..30 × 400 log-spaced b in [1e-2, 1e2]
    return space::Params{1.0 + static_cast<double>(i / 400), std::pow(10.0, -2.0 + 4.0 * (i % 400) / 399.0)};
  };
  parallel_for(30 * 400, [&](int i) {
    const auto p = grid_setting(static_cast<std::size_t>(i));
    grid[i] = {rescorer.privacy(p), 1 - rescorer.utility(p, derive_seed(7, i)).utility};
  });
  const double exact_hv = hypervolume(grid);
  std::printf("exact grid front (30 x 400, R = %d): HV = %.5f on the log-eps axis (%.1f s)\n", kRescoreRepeats,
              exact_hv, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  // The grid front is the best of 12000 noisy scores, so it is itself optimistic: its own points,
  // re-scored with other seeds as the chosen points are, show what a re-scored set can reach.
  const auto front = pareto::non_dominated_indices(grid);
  for (std::uint64_t seed : {99, 100, 101}) {
    std::vector<pareto::Point> again;
    for (const auto i : front)
      again.push_back({grid[i][0], 1 - rescorer.utility(grid_setting(i), derive_seed(seed, i)).utility});
    std::printf("  its %zu front points re-scored (seed %llu): %.2f%% of it\n", front.size(),
                static_cast<unsigned long long>(seed), 100 * hypervolume(again) / exact_hv);
    if (seed != 99) continue;
    // The ceiling at each budget: the best k of those re-scored points, for k = the budget and the
    // budget less the initial points (which a chooser spends before any model exists).
    std::printf("  the best k of them (seed 99), the most k evaluations can re-score to:");
    for (const int b : budgets)
      for (const int k : {b - initial_points, b})
        if (k > 0) std::printf(" k = %d: %.2f%%", k, 100 * best_subset_hypervolume(again, k) / exact_hv);
    std::printf("\n");
  }

  // ratio[method][budget][seed]; as seen (R = 50) and robust likewise
  std::map<std::string, std::map<int, std::vector<double>>> ratio, seen_ratio, robust_ratio;
  // per method and budget: re-scored hypervolume per slice summed over seeds, BO proposals per slice
  const std::vector<double> edges = slice_edges();
  const std::size_t slices = edges.size() - 1;
  std::map<std::string, std::map<int, std::vector<double>>> slice_hv;
  std::map<std::string, std::map<int, std::vector<int>>> slice_proposals;
  const std::vector<double> exact_slices = hypervolume_by_slice(grid, edges);
  std::mutex mutex;
  for (const auto& method : methods) {
    start = std::chrono::steady_clock::now();
    parallel_for(seeds, [&](int s) {
      bo::ExplorerOptions options;
      std::string loop = method;
      const auto take_suffix = [&](const std::string& suffix) {
        const bool has = loop.size() > suffix.size() && loop.ends_with(suffix);
        if (has) loop.resize(loop.size() - suffix.size());
        return has;
      };
      const bool logit = take_suffix("-logit");
      const bool observed = take_suffix("-observed");
      const bool unspaced = take_suffix("-unspaced");
      if (observed) options.improvement_front = bo::ImprovementFront::observed;
      options.method = loop == "random" ? bo::Method::random : bo::Method::dpareto;
      if (loop == "ehvi" || loop == "known-ehvi") options.acquisition = "ehvi";
      options.known_epsilon = loop.rfind("known", 0) == 0;
      if (unspaced) options.min_spacing = 0;
      options.initial_points = initial_points;
      options.objectives.set_reference(kReference);
      options.objectives.set_utility_transform(
          logit ? pareto::Transform::logit : pareto::parse_transform(oracle.utility_transform(), "svt"), "svt");
      options.axis = log_axis();
      const auto explorer = bo::make_proposer(oracle.space(), options, static_cast<std::uint64_t>(s + 1),
                                              [&](const space::Params& p) { return oracle.privacy(p); });
      std::vector<space::Params> chosen;
      std::vector<problems::Evaluation> seen;
      for (int n = 1; n <= max_budget; ++n) {
        const auto suggestion = explorer->ask();
        const auto e = (loop == "noiseless" ? rescorer : oracle).evaluate(suggestion->params, derive_seed(1000 + s, n));
        explorer->tell({suggestion->params, e.ok, {e.epsilon, e.utility}});
        chosen.push_back(suggestion->params);
        seen.push_back(e);
        if (std::find(budgets.begin(), budgets.end(), n) != budgets.end()) {
          std::vector<pareto::Point> rescored;
          for (std::size_t k = 0; k < chosen.size(); ++k)
            rescored.push_back(
                {rescorer.privacy(chosen[k]), 1 - rescorer.utility(chosen[k], derive_seed(99, k)).utility});
          std::vector<pareto::Point> as_seen;
          for (const auto& x : seen)
            if (x.ok) as_seen.push_back({x.epsilon, 1 - x.utility});
          const double robust =
              robust_hypervolume(oracle.space(), options, static_cast<std::uint64_t>(s + 1), chosen, seen);
          const std::vector<double> by_slice = hypervolume_by_slice(rescored, edges);
          std::vector<int> proposals(slices, 0);
          for (std::size_t k = static_cast<std::size_t>(options.initial_points); k < chosen.size(); ++k)
            ++proposals[slice_of(log_axis().to_axis(rescored[k][0]), edges)];
          std::lock_guard<std::mutex> lock(mutex);
          auto& hv_sum = slice_hv[method][n];
          auto& proposal_sum = slice_proposals[method][n];
          hv_sum.resize(slices, 0.0);
          proposal_sum.resize(slices, 0);
          for (std::size_t k = 0; k < slices; ++k) hv_sum[k] += by_slice[k], proposal_sum[k] += proposals[k];
          const auto by_seed = [&](std::map<std::string, std::map<int, std::vector<double>>>& table, double value) {
            auto& values = table[method][n];
            values.resize(static_cast<std::size_t>(seeds));
            values[static_cast<std::size_t>(s)] = value;
          };
          by_seed(ratio, hypervolume(rescored) / exact_hv);
          by_seed(seen_ratio, hypervolume(as_seen) / exact_hv);
          by_seed(robust_ratio, robust / exact_hv);
        }
      }
    });
    std::printf("%s: %d seeds in %.1f s\n", method.c_str(), seeds,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  const auto mean = [](const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return sum / static_cast<double>(v.size());
  };
  std::printf("\n%-10s %6s %9s %9s %9s   %s\n", "method", "budget", "mean HV%", "min HV%", "max HV%",
              "as seen (R = 50) / robust, mean HV%");
  for (const auto& method : methods)
    for (int b : budgets) {
      const auto& v = ratio[method][b];
      std::printf("%-10s %6d %8.2f%% %8.2f%% %8.2f%%   %.2f%% / %.2f%%\n", method.c_str(), b, 100 * mean(v),
                  100 * *std::min_element(v.begin(), v.end()), 100 * *std::max_element(v.begin(), v.end()),
                  100 * mean(seen_ratio[method][b]), 100 * mean(robust_ratio[method][b]));
    }
  // Seed s of every method starts from the same initial design and evaluation seeds: paired.
  if (methods.size() > 1)
    std::printf("\nagainst %s, paired by seed: mean difference in pp (95%% CI, p)\n", methods[0].c_str());
  for (std::size_t m = 1; m < methods.size(); ++m)
    for (int b : budgets) {
      std::vector<double> negated;  // difference_from_fixed(0, −d) is the one-sample t on d
      for (int s = 0; s < seeds; ++s) negated.push_back(100 * (ratio[methods[0]][b][s] - ratio[methods[m]][b][s]));
      if (negated.size() < 2) continue;
      const auto d = difference_from_fixed(0.0, negated);
      std::printf("%-10s %6d %+7.2f (%+.2f to %+.2f, p %.2g)\n", methods[m].c_str(), b, d.mean, d.low, d.high,
                  d.p_value);
    }
  for (int b : budgets) {
    std::printf(
        "\nwhere the loss is at %d evaluations: per slice of log10(eps), the exact front's HV there; per method,\n"
        "its mean re-scored HV there minus that, and its BO proposals there (all seeds)\n%-12s %8s",
        b, "log10(eps)", "exact");
    for (const auto& method : methods) std::printf("  %18s", method.c_str());
    std::printf("\n");
    std::vector<double> total(methods.size(), 0.0);
    for (std::size_t k = 0; k < slices; ++k) {
      std::printf("[%4.1f, %4.1f) %8.4f", edges[k], edges[k + 1], exact_slices[k]);
      for (std::size_t m = 0; m < methods.size(); ++m) {
        const double loss = slice_hv[methods[m]][b][k] / seeds - exact_slices[k];
        total[m] += loss;
        std::printf("  %+9.4f %8d", loss, slice_proposals[methods[m]][b][k]);
      }
      std::printf("\n");
    }
    std::printf("%-12s %8.4f", "all", exact_hv);
    for (double t : total) std::printf("  %+9.4f %8s", t, "");
    std::printf("\n");
  }
  return 0;
}
