// dpareto exact: evaluate a problem on a fine grid (default for svt: C = 1..30 × 400 log-spaced b)
// and write it as a run directory whose front.csv is the exact front (DPareto Fig. 1-2).
#include <atomic>
#include <chrono>
#include <cmath>
#include <iostream>
#include <thread>

#include "command.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/core/stop_request.hpp"
#include "dpareto/core/worker_slot.hpp"
#include "dpareto/explore/problem_evaluator.hpp"
#include "dpareto/study/study_runner.hpp"
#include "problem_flags.hpp"
#include "progress_bar.hpp"

namespace dpareto::apps {
namespace {

// Every combination of per-dimension points (Space::grid_axis: equally spaced on each parameter's
// scale, or every integer of an integer range the count covers).
std::vector<space::Params> fine_grid(const space::Space& space, const std::vector<double>& counts) {
  std::vector<space::Params> points{{}};
  for (std::size_t i = 0; i < space.dimension(); ++i) {
    const std::vector<double> axis_values = space.grid_axis(i, static_cast<int>(counts.at(i)));
    std::vector<space::Params> next;
    for (const auto& prefix : points)
      for (double v : axis_values) {
        auto extended = prefix;
        extended.push_back(v);
        next.push_back(extended);
      }
    points.swap(next);
  }
  return points;
}

// The grid's points evaluated by `workers` threads (slot w each), with progress; a stop signal ends
// the work early (a point being evaluated then stays unevaluated). Returns the finished points in
// grid order. Warns once the pace is known (2% of the grid, or 10 s) when the whole grid would take
// longer than `warn_after` seconds.
std::vector<study::EvaluationRecord> evaluate_grid(const problems::Problem& problem,
                                                   const std::vector<space::Params>& grid, std::uint64_t seed,
                                                   int workers, double warn_after, const std::string& out) {
  std::vector<study::EvaluationRecord> records(grid.size());
  std::vector<char> evaluated(grid.size(), 0);  // written by the worker that evaluated the point
  const auto evaluate = explore::problem_evaluator(problem);
  std::atomic<std::size_t> next{0}, finished{0};
  ProgressBar progress("exact " + problem.name(), static_cast<int>(grid.size()), "grid points", 5);
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      const WorkerSlotScope in_slot(w);
      for (std::size_t i = next++; i < grid.size() && !stop_signal(); i = next++) {
        const int id = static_cast<int>(i) + 1;
        const auto s = study::evaluation_seed(seed, id);
        try {
          records[i] = evaluate(grid[i], s, {});  // a grid point runs to its end
        } catch (const Interrupted&) {
          break;  // a stop during this point: it stays unevaluated
        }
        records[i].id = id;
        records[i].phase = "grid";
        records[i].params = grid[i];
        records[i].seed = s;
        evaluated[i] = 1;
        ++finished;
      }
    });
  const auto start = std::chrono::steady_clock::now();
  bool warned = false;
  while (finished < grid.size() && !stop_signal()) {
    progress.update(static_cast<int>(finished.load()));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::size_t done = finished.load();
    if (!warned && done > 0 && (done * 50 >= grid.size() || elapsed >= 10)) {
      warned = true;
      const double total_seconds = elapsed * static_cast<double>(grid.size()) / static_cast<double>(done);
      if (total_seconds > warn_after)
        std::cerr << "dpareto exact: warning: " << grid.size() << " grid points will take about "
                  << readable_duration(total_seconds) << " at the current pace; Ctrl-C keeps the "
                  << "finished points in " << out << " (a partial grid), fewer --points or --repeats are quicker\n";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  for (auto& t : threads) t.join();
  progress.update(static_cast<int>(finished.load()));
  progress.finish();
  std::vector<study::EvaluationRecord> kept;
  for (std::size_t i = 0; i < grid.size(); ++i)
    if (evaluated[i]) kept.push_back(std::move(records[i]));
  return kept;
}

int run_exact(int argc, char** argv) {
  po::options_description options("exact options");
  add_problem_flags(options);
  options.add_options()("points", po::value<std::string>(),
                        "grid points per parameter, comma-separated (svt default: 30,400)")(
      "seed", po::value<std::uint64_t>()->default_value(1), "seed of the utility oracle")(
      "workers", po::value<int>()->default_value(static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))),
      "evaluation threads")("out", po::value<std::string>(), "run directory to write")(
      "warn-after", po::value<double>()->default_value(600),
      "warn when the grid would take longer than this many seconds (0: always say how long)");
  const auto parsed = parse_command_line(
      "dpareto exact --problem NAME --out DIR [options]",
      "dpareto exact --problem svt --points 30,100 --repeats 500 --out runs/svt-exact", options, argc, argv);
  if (!parsed) return 0;
  const auto& vm = *parsed;
  auto problem_options = problem_options_from(vm);
  if (!vm.count("problem")) throw InputError("--problem is required");
  const bool svt = vm["problem"].as<std::string>() == "svt";
  if (svt && !problem_options.count("repeats")) problem_options["repeats"] = "2000";
  const auto problem = problems::make_problem(vm["problem"].as<std::string>(), problem_options);
  const auto& space = problem->space();
  std::vector<double> counts;
  if (vm.count("points")) {
    counts = parse_number_list(vm["points"].as<std::string>(), "--points");
  } else if (svt) {
    counts = {30, 400};
  } else {
    counts.assign(space.dimension(), 50);
  }
  if (counts.size() != space.dimension())
    throw InputError("--points: expected " + std::to_string(space.dimension()) + " counts, got " +
                     std::to_string(counts.size()));
  // Checked before any conversion or allocation: inf or 1e12 used to reach an int cast (undefined)
  // and a grid of 10^10 points was built in memory before anything else.
  constexpr double kMaxGridPoints = 1e7;
  double total = 1;
  for (double c : counts) {
    if (!(c >= 1 && c == std::floor(c) && c <= space::Space::kMaxGridPoints))
      throw InputError("--points: '" + format_number(c) + "' is not a whole number in [1, 1e6]");
    total *= c;
  }
  if (total > kMaxGridPoints)
    throw InputError("--points " + vm["points"].as<std::string>() + " asks for " + format_number(total) +
                     " evaluations, more than the 1e7 exact evaluates");
  if (!vm.count("out")) throw InputError("--out is required");
  const int workers = vm["workers"].as<int>();
  if (workers < 1) throw InputError("--workers must be at least 1");

  const auto grid = fine_grid(space, counts);
  const std::uint64_t seed = vm["seed"].as<std::uint64_t>();
  const double warn_after = vm["warn-after"].as<double>();
  if (!(warn_after >= 0)) throw InputError("--warn-after " + format_number(warn_after) + ": must be >= 0 seconds");
  install_stop_handlers();  // Ctrl-C, SIGTERM, SIGHUP: finish no new point, keep the finished ones
  auto kept = evaluate_grid(*problem, grid, seed, workers, warn_after, vm["out"].as<std::string>());
  const int interrupted = stop_signal();
  if (kept.empty() && interrupted) {
    std::cerr << "dpareto exact: interrupted by " << signal_name(interrupted) << " before any grid point finished; "
              << "nothing written\n";
    return 128 + interrupted;
  }

  const auto spec = problem->default_reference();
  study::RunInfo info;
  info.problem = problem->name();
  info.method = "exact";
  info.seed = seed;
  for (const auto& p : space.parameters()) info.parameter_names.push_back(p.name);
  info.objectives.set_reference({spec.epsilon, spec.error});
  info.hv_axis = spec.axis == problems::HvAxis::log10 ? "log" : "linear";
  info.log_floor = spec.log_floor;
  info.extra = {{"seed_source", "user"},
                {"points", counts},
                {"delta", problem->delta()},
                {"settings", problem->settings()},
                {"problem_options", problem_options}};
  if (interrupted) info.extra["partial"] = {{"evaluated", kept.size()}, {"of", grid.size()}};
  study::RunDirectoryWriter writer(vm["out"].as<std::string>(), info);
  writer.add_many(kept);
  if (interrupted) {
    std::cerr << "dpareto exact: interrupted by " << signal_name(interrupted) << " after " << kept.size() << " of "
              << grid.size() << " grid points; wrote them to " << vm["out"].as<std::string>()
              << " (summary.json \"partial\": its front is the front of these points only)\n";
    return 128 + interrupted;
  }
  const auto front_size = study::run_front(writer.records(), info.objectives).size();
  std::cout << "exact " << problem->name() << ": " << grid.size() << " grid evaluations, front of " << front_size
            << (front_size == 1 ? " point" : " points") << ", hypervolume "
            << readable_number(writer.hv_history().back()) << " (" << info.hv_axis << " epsilon axis)\nwrote "
            << vm["out"].as<std::string>() << "\n";
  return 0;
}

const CommandRegistration exact_registration("exact", "evaluate a problem on a fine grid: the exact front", run_exact);

}  // namespace
}  // namespace dpareto::apps
