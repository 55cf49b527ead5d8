// dpareto explore: learn the privacy–utility Pareto front of a problem (DPareto Alg. 2) or run
// the random / grid baselines, writing evaluations.csv, front.csv and summary.json as each
// evaluation completes.
#include <cmath>
#include <iostream>

#include "command.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/plot/front_figure.hpp"
#include "dpareto/plot/gnuplot.hpp"
#include "dpareto/plot/labelled_run.hpp"
#include "evaluation_loop.hpp"
#include "problem_flags.hpp"
#include "progress_bar.hpp"

namespace dpareto::apps {
namespace {

bo::Method parse_method(const std::string& text) {
  if (text == "dpareto") return bo::Method::dpareto;
  if (text == "random") return bo::Method::random;
  if (text == "grid") return bo::Method::grid;
  throw InputError("--method " + text + ": expected dpareto, random or grid");
}

int run_explore(int argc, char** argv) {
  po::options_description options("explore options");
  add_problem_flags(options);
  options.add_options()("method", po::value<std::string>()->default_value("dpareto"), "dpareto | random | grid")(
      "acquisition", po::value<std::string>()->default_value("hvpoi"), "hvpoi | ehvi")(
      "reference-mode", po::value<std::string>()->default_value("fixed"),
      "fixed (cells from the observed front and --reference) | estimated (GPflowOpt, as DPareto ran it)")(
      "init", po::value<int>()->default_value(16), "random initial points before BO (k0)")(
      "budget", po::value<int>()->default_value(64), "total evaluations")(
      "seed", po::value<std::uint64_t>(), "seed for a reproducible run (default: OS CSPRNG)")(
      "reference", po::value<std::string>(), "anti-ideal point EPSILON,ERROR (default: the problem's)")(
      "hv-axis", po::value<std::string>(), "linear | log: epsilon axis of the hypervolume (default: the problem's)")(
      "log-floor", po::value<double>(), "log axis: epsilon below this counts as this (default: the problem's)")(
      "grid-points", po::value<int>()->default_value(3), "grid method: points per dimension")(
      "prior", po::bool_switch(), "draw random/initial points from the problem's Appx. C distributions")(
      "candidates", po::value<int>()->default_value(1000), "acquisition: size of the dense random stage")(
      "workers", po::value<int>()->default_value(1), "evaluations running at once (Kriging-believer batch BO)")(
      "out", po::value<std::string>(), "run directory to write (default: runs/<problem>-<method>)")(
      "png", po::value<std::string>(), "at the end, draw the front figure to this file (.png, .svg or .pdf)")(
      "json", po::bool_switch(), "print the final summary as JSON");
  const auto parsed = parse_command_line("dpareto explore --problem NAME [options]", options, argc, argv);
  if (!parsed) return 0;
  const auto& vm = *parsed;

  const auto problem = make_problem_from(vm);
  const auto spec = problem->default_reference();
  bo::ExplorerOptions explorer_options;
  explorer_options.method = parse_method(vm["method"].as<std::string>());
  const auto acquisition = vm["acquisition"].as<std::string>();
  if (acquisition != "hvpoi" && acquisition != "ehvi")
    throw InputError("--acquisition " + acquisition + ": expected hvpoi or ehvi");
  explorer_options.acquisition = acquisition == "ehvi" ? bo::AcquisitionKind::ehvi : bo::AcquisitionKind::hvpoi;
  const auto reference_mode = vm["reference-mode"].as<std::string>();
  if (reference_mode != "fixed" && reference_mode != "estimated")
    throw InputError("--reference-mode " + reference_mode + ": expected fixed or estimated");
  explorer_options.reference_mode = reference_mode == "estimated" ? bo::ReferenceMode::estimated : bo::ReferenceMode::fixed;
  explorer_options.initial_points = vm["init"].as<int>();
  explorer_options.initial_from_prior = vm["prior"].as<bool>();
  explorer_options.grid_points = vm["grid-points"].as<int>();
  explorer_options.dense_candidates = vm["candidates"].as<int>();
  explorer_options.reference = {spec.epsilon, spec.error};
  if (vm.count("reference")) {
    const auto r = parse_number_list(vm["reference"].as<std::string>(), "--reference");
    if (r.size() != 2) throw InputError("--reference " + vm["reference"].as<std::string>() + ": expected EPSILON,ERROR");
    explorer_options.reference = {r[0], r[1]};
  }
  explorer_options.axis.kind = spec.axis == problems::HvAxis::log10 ? pareto::EpsilonAxis::Kind::log10
                                                                     : pareto::EpsilonAxis::Kind::linear;
  explorer_options.axis.floor = spec.log_floor;
  if (vm.count("hv-axis")) {
    const auto axis = vm["hv-axis"].as<std::string>();
    if (axis != "linear" && axis != "log") throw InputError("--hv-axis " + axis + ": expected linear or log");
    explorer_options.axis.kind = axis == "log" ? pareto::EpsilonAxis::Kind::log10 : pareto::EpsilonAxis::Kind::linear;
  }
  if (vm.count("log-floor")) {
    const double floor = vm["log-floor"].as<double>();
    if (!(floor > 0 && std::isfinite(floor))) throw InputError("--log-floor " + format_number(floor) + ": must be positive");
    explorer_options.axis.floor = floor;
  }
  const int budget = vm["budget"].as<int>();
  if (budget < 1) throw InputError("--budget must be at least 1, got " + std::to_string(budget));
  if (explorer_options.method == bo::Method::dpareto && explorer_options.initial_points > budget)
    throw InputError("--init " + std::to_string(explorer_options.initial_points) + " is larger than --budget " +
                     std::to_string(budget));

  if (vm.count("png")) {  // fail before a long run, not after it
    const auto png = vm["png"].as<std::string>();
    const auto dot = png.rfind('.');
    const auto extension = dot == std::string::npos ? "" : png.substr(dot);
    if (extension != ".png" && extension != ".svg" && extension != ".pdf")
      throw InputError("--png " + png + ": the file name must end in .png, .svg or .pdf");
    plot::gnuplot_executable();
  }
  const bool seeded = vm.count("seed") > 0;
  const std::uint64_t seed = seeded ? vm["seed"].as<std::uint64_t>() : os_random_u64();
  bo::Explorer explorer(problem->space(), explorer_options, seed);

  study::RunInfo info;
  info.problem = problem->name();
  info.method = vm["method"].as<std::string>();
  info.seed = seed;
  for (const auto& p : problem->space().parameters()) info.parameter_names.push_back(p.name);
  info.reference_epsilon = explorer_options.reference[0];
  info.reference_error = explorer_options.reference[1];
  info.hv_axis = explorer_options.axis.name();
  info.log_floor = explorer_options.axis.floor;
  info.extra = {{"seed_source", seeded ? "user" : "os"},
                {"acquisition", acquisition},
                {"reference_mode", reference_mode},
                {"initial_points", explorer_options.initial_points},
                {"budget", budget},
                {"workers", vm["workers"].as<int>()},
                {"delta", problem->delta()},
                {"settings", problem->settings()}};
  const std::string out = vm.count("out") ? vm["out"].as<std::string>() : "runs/" + info.problem + "-" + info.method;
  study::RunDirectoryWriter writer(out, info);

  ProgressBar progress("explore " + info.problem, budget);
  LoopSettings loop{budget, vm["workers"].as<int>(), seed, 1};
  run_evaluation_loop(explorer, *problem, loop, [&](const study::EvaluationRecord& record) {
    writer.add(record);
    progress.update(static_cast<int>(writer.records().size()),
                    "HV " + format_number(writer.hv_history().back()));
  });
  progress.finish();

  if (vm.count("png")) plot::render(plot::front_figure({plot::load_run(out)}), vm["png"].as<std::string>(), plot::Canvas{});
  const auto& records = writer.records();
  const auto failed = std::count_if(records.begin(), records.end(), [](const auto& r) { return !r.ok(); });
  const auto front = study::run_front(records);
  const double hv = writer.hv_history().empty() ? 0.0 : writer.hv_history().back();
  const auto& timings = explorer.timings();
  if (vm["json"].as<bool>()) {
    nlohmann::json j = {{"out", out},
                        {"evaluations", records.size()},
                        {"failed", failed},
                        {"front_size", front.size()},
                        {"hypervolume", json_number(hv)},
                        {"ask_seconds", {{"gp_fit", timings.gp_fit}, {"acquisition", timings.acquisition}}}};
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "explored " << info.problem << " with " << info.method << ": " << records.size() << " evaluations ("
              << failed << " failed), front of " << front.size() << " points, hypervolume " << format_number(hv)
              << " (" << info.hv_axis << " epsilon axis, reference " << format_number(info.reference_epsilon) << ","
              << format_number(info.reference_error) << ")\n"
              << "ask() time: GP fit " << timings.gp_fit << " s, acquisition " << timings.acquisition << " s\n"
              << "wrote " << out << "/{evaluations.csv,front.csv,summary.json}\n";
  }
  return 0;
}

const CommandRegistration registration("explore", "learn the privacy-utility Pareto front of a problem", run_explore);

}  // namespace
}  // namespace dpareto::apps
