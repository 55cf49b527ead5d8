// dpareto plot KIND RUN_DIR... --out FILE: one figure (front, hv, variability, surrogate, oracle)
// of one or more run directories, as PNG, SVG or PDF by the output's extension.
#include <iostream>
#include <optional>

#include "cli_options.hpp"
#include "command.hpp"
#include "dpareto/core/did_you_mean.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/explore/robust_front.hpp"
#include "dpareto/explore/surrogate_maps.hpp"
#include "dpareto/plot/front_figure.hpp"
#include "dpareto/plot/hv_figure.hpp"
#include "dpareto/plot/oracle_figure.hpp"
#include "dpareto/plot/variability_figure.hpp"

namespace dpareto::apps {
namespace {

int run_plot(int argc, char** argv) {
  po::options_description options("plot options");
  options.add_options()("kind", po::value<std::string>()->required(), "front | hv | variability | surrogate | oracle")(
      "runs", po::value<std::vector<std::string>>()->required(), "run directories")(
      "out", po::value<std::string>()->required(), "figure file: .png, .svg or .pdf")(
      "width", po::value<int>()->default_value(1200), "width in pixels")("height", po::value<int>()->default_value(800),
                                                                         "height in pixels")(
      "accuracy", po::bool_switch(), "plot utility (higher is better) instead of error")(
      "exact", po::value<std::string>(), "a `dpareto exact` run directory: draw the exact front")(
      "robust", po::bool_switch(),
      "front: also draw each run's robust front (each evaluated setting at the utility GP's posterior median)")(
      "max-epsilon", po::value<double>(), "front: end the epsilon axis here (the caption counts the points beyond)")(
      "colour-by", po::value<std::string>(),
      "front: the further objective that colours the front points (default: the third)")(
      "max-evaluations", po::value<long long>()->default_value(0),
      "hv: end the evaluations axis here (0: at the longest run)")(
      "zoom", po::bool_switch(), "hv: the hypervolume axis spans the values after the initial points, not from 0")(
      "non-private", po::value<double>(),
      "front: draw the utility a model trained without DP reaches (default: the runs' explore --non-private)")(
      "x", po::value<std::string>(), "surrogate: parameter on the x axis (default: the first)")(
      "y", po::value<std::string>(), "surrogate: parameter on the y axis (default: the second)")(
      "resolution", po::value<int>()->default_value(40), "surrogate: grid cells per axis, 4 to 400")(
      "keep-script", po::bool_switch(), "also write the gnuplot script as FILE.gp");
  const auto parsed = parse_command_line("dpareto plot KIND RUN_DIR... --out FILE [options]",
                                         "dpareto plot front runs/svt --exact runs/svt-exact --out front.png", options,
                                         argc, argv, {"kind", "runs"});
  if (!parsed) return 0;
  const auto& vm = *parsed;
  const std::string kind = vm["kind"].as<std::string>();
  const std::string out = vm["out"].as<std::string>();
  plot::format_from_path(out);
  const auto runs = plot::load_runs(vm["runs"].as<std::vector<std::string>>());
  std::optional<plot::LabelledRun> exact;
  if (vm.count("exact")) exact = plot::load_run(vm["exact"].as<std::string>());
  const plot::LabelledRun* exact_ptr = exact ? &*exact : nullptr;
  const bool accuracy = vm["accuracy"].as<bool>();

  auto single = [&]() -> const plot::LabelledRun& {
    if (runs.size() != 1)
      throw InputError("plot " + kind + ": takes one run directory, got " + std::to_string(runs.size()));
    return runs.front();
  };
  plot::GnuplotScript script;
  if (kind == "front") {
    plot::FrontFigureOptions front{accuracy, exact_ptr, {}, {}, {}, {}, {}};
    if (vm.count("max-epsilon")) front.max_epsilon = vm["max-epsilon"].as<double>();
    front.non_private = utility_flag(vm, "non-private");
    if (vm.count("colour-by")) front.colour_by = vm["colour-by"].as<std::string>();
    std::vector<std::optional<study::RunData>> robust;
    robust.reserve(runs.size());  // front.robust points into it
    if (vm["robust"].as<bool>())
      for (const auto& run : runs) {
        std::string why;
        robust.push_back(explore::robust_run_of(run.data, run.directory, why));
        if (!robust.back())
          std::cerr << "dpareto plot: warning: " << run.label << ": no robust front (" << why << ")\n";
        front.robust.push_back(robust.back() ? &*robust.back() : nullptr);
      }
    script = plot::front_figure(runs, front);
  } else if (kind == "hv") {
    plot::HvFigureOptions hv{exact_ptr};
    const long long max_evaluations = vm["max-evaluations"].as<long long>();
    if (max_evaluations < 0)
      throw InputError("--max-evaluations " + std::to_string(max_evaluations) + ": must be >= 0");
    hv.max_evaluations = static_cast<std::size_t>(max_evaluations);
    hv.zoom = vm["zoom"].as<bool>();
    script = plot::hv_figure(runs, hv);
  } else if (kind == "variability") {
    script = plot::variability_figure(runs, {accuracy});
  } else if (kind == "surrogate") {
    const auto& run = single();
    plot::require_plottable(run);
    const auto model = explore::rebuild_run_model(run.data, run.directory);
    explore::SurrogateGrid grid;
    if (vm.count("x")) grid.x_parameter = vm["x"].as<std::string>();
    if (vm.count("y")) grid.y_parameter = vm["y"].as<std::string>();
    grid.resolution = vm["resolution"].as<int>();
    if (grid.resolution < 4 || grid.resolution > 400)  // never clamped silently
      throw InputError("--resolution " + std::to_string(grid.resolution) + " must be in [4, 400]");
    script = plot::surrogate_figure(run, explore::surrogate_maps(run, model, grid), {accuracy, exact_ptr});
  } else if (kind == "oracle") {
    script = plot::oracle_figure(single(), {accuracy});
  } else {
    throw InputError("plot: unknown figure kind '" + kind + "'" +
                     did_you_mean(kind, {"front", "hv", "variability", "surrogate", "oracle"}) +
                     " (front, hv, variability, surrogate, oracle)");
  }
  plot::render(script, out, {vm["width"].as<int>(), vm["height"].as<int>()}, vm["keep-script"].as<bool>());
  std::cout << "wrote " << out << "\n";
  return 0;
}

const CommandRegistration plot_registration("plot", "draw a figure of run directories (PNG/SVG/PDF via gnuplot)",
                                            run_plot);

}  // namespace
}  // namespace dpareto::apps
