// dpareto tune: private hyperparameter tuning of a DP-training problem (select module, issue 7).
// Only --method random-stopping is built; propose-test and dp-hype are rejected for now.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "cli_options.hpp"
#include "command.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/select/candidate_file.hpp"
#include "dpareto/select/model_file.hpp"
#include "dpareto/select/tuning_pipeline.hpp"
#include "problem_flags.hpp"

namespace dpareto::apps {
namespace {

int run_tune(int argc, char** argv) {
  po::options_description options("tune options");
  add_problem_flags(options);
  options.add_options()("candidates", po::value<std::string>()->required(), "candidate file (JSON, see docs/select.md)")(
      "method", po::value<std::string>()->required(), "random-stopping (propose-test, dp-hype: not implemented yet)")(
      "mu", po::value<double>()->default_value(5.0), "random-stopping: Poisson mean of the number of runs K, > 0")(
      "target-epsilon", po::value<double>()->required(), "epsilon of the whole tuning procedure, > 0")(
      "delta", po::value<double>()->required(), "delta in (0, 1)")(
      "validation-fraction", po::value<double>()->default_value(0.2), "share of the training rows held out for validation")(
      "score-epsilon", po::value<double>()->default_value(0.1), "epsilon of each run's noisy validation score (discrete Laplace)")(
      "conversion", po::value<std::string>()->default_value("improved"), "RDP -> (eps, delta): improved or classic")(
      "seed", po::value<std::uint64_t>(), "seeded randomness (NOT for release); default: the OS CSPRNG")(
      "out", po::value<std::string>()->required(), "output directory (model.bin, certificate.json)");
  const auto vm = parse_command_line(
      "dpareto tune --problem NAME --candidates FILE --method random-stopping [--mu M] --target-epsilon E --delta D "
      "[--seed S] --out DIR",
      options, argc, argv);
  if (!vm) return 0;
  const std::string method = (*vm)["method"].as<std::string>();
  if (method == "propose-test" || method == "dp-hype")
    throw InputError("--method " + method + ": method " + method + " is not implemented yet (use random-stopping)");
  if (method != "random-stopping")
    throw InputError("--method '" + method + "' is not random-stopping, propose-test or dp-hype");

  select::TuningSettings settings;
  settings.mu = (*vm)["mu"].as<double>();
  settings.target_epsilon = (*vm)["target-epsilon"].as<double>();
  settings.delta = (*vm)["delta"].as<double>();
  settings.validation_fraction = (*vm)["validation-fraction"].as<double>();
  settings.score_epsilon = (*vm)["score-epsilon"].as<double>();
  settings.conversion = privacy::parse_conversion((*vm)["conversion"].as<std::string>(), "--conversion");
  if (vm->count("seed")) settings.seed = (*vm)["seed"].as<std::uint64_t>();

  const auto candidates = select::read_candidate_file((*vm)["candidates"].as<std::string>());
  const auto problem = make_problem_from(*vm);
  const auto* dp = dynamic_cast<const problems::DpTrainingProblem*>(problem.get());
  if (dp == nullptr) throw InputError("--problem " + problem->name() + " is not a DP-training problem (tune needs one)");

  const auto outcome = select::tune_random_stopping(*dp, candidates, settings);

  // Everything is computed; only now touch DIR.
  const std::filesystem::path dir((*vm)["out"].as<std::string>());
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError("--out " + dir.string() + ": cannot create directory (" + ec.message() + ")");
  if (outcome.weights)
    select::write_model_file((dir / "model.bin").string(), {outcome.architecture, *outcome.weights});
  std::ofstream cert(dir / "certificate.json");
  cert << outcome.certificate.dump(2) << "\n";
  if (!cert.flush()) throw InputError("--out " + dir.string() + ": cannot write certificate.json");

  const auto& c = outcome.certificate;
  std::cout << "random stopping: K = " << c["runs"].dump() << " runs, noise multiplier " << c["noise_multiplier"].dump()
            << ", epsilon = " << c["epsilon"].dump() << " at delta = " << c["delta"].dump() << " (order "
            << c["order"].dump() << ", " << c["conversion"].get<std::string>() << ")\n";
  if (outcome.weights)
    std::cout << "selected " << c["selected"].dump() << ": validation accuracy " << c["validation_utility"].dump()
              << ", test accuracy " << c["test_utility"].dump() << "\n";
  else
    std::cout << "K = 0: nothing released (no model.bin)\n";
  std::cout << "randomness: " << c["randomness"].get<std::string>() << "; wrote " << dir.string() << "\n";
  return 0;
}

const CommandRegistration reg("tune", "private hyperparameter tuning of a DP-training problem (random stopping)",
                              run_tune);

}  // namespace
}  // namespace dpareto::apps
