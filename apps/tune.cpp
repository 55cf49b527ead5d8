// dpareto tune: private hyperparameter tuning of a DP-training problem (select module, issue 7).
// Methods: random-stopping, grid, subsampled, propose-test, dp-hype (select/tuning_pipeline.hpp).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "cli_options.hpp"
#include "command.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/select/candidate_file.hpp"
#include "dpareto/select/ledger.hpp"
#include "dpareto/select/release_directory.hpp"
#include "dpareto/select/tuning_pipeline.hpp"
#include "problem_flags.hpp"
#include "progress_bar.hpp"
#include "tuning_flags.hpp"

namespace dpareto::apps {
namespace {

int run_tune(int argc, char** argv) {
  po::options_description options("tune options");
  add_problem_flags(options);
  add_tuning_flags(options);
  options.add_options()("seed", po::value<std::uint64_t>(),
                        "seeded randomness (NOT for release); default: the OS CSPRNG")(
      "out", po::value<std::string>()->required(), "output directory (model.bin, certificate.json)")(
      "ledger", po::value<std::string>(),
      "the data's privacy ledger (default: one file per dataset, see `dpareto ledger`)")(
      "exceed-cap", po::bool_switch(), "run even if the ledger total would pass the ledger's cap (with a warning)");
  const auto vm = parse_command_line(
      "dpareto tune --problem NAME --candidates FILE --method random-stopping|grid|subsampled|propose-test|dp-hype "
      "[method flags] --target-epsilon E --delta D [--seed S] --out DIR",
      "dpareto tune --problem synthetic-logreg-sgd --set split=private --candidates cands.json --method "
      "random-stopping --target-epsilon 1 --delta 1e-5 --out tuned",
      options, argc, argv);
  if (!vm) return 0;
  const select::TuningSettings settings = tuning_settings(*vm);
  select::check_release_directory((*vm)["out"].as<std::string>());  // before any budget is spent

  const auto candidates = select::read_candidate_file((*vm)["candidates"].as<std::string>());
  const auto problem = make_problem_from(*vm);
  const auto* dp = dynamic_cast<const problems::DpTrainingProblem*>(problem.get());
  if (dp == nullptr)
    throw InputError("--problem " + problem->name() + " is not a DP-training problem (tune needs one)");

  // The privacy ledger of this data: the run's curve is checked against the cap and recorded before
  // anything reads the private rows, and its outcome afterwards (a failed run still spent).
  const select::LedgerDataset dataset = select::ledger_dataset_of(*dp);
  const std::filesystem::path ledger_file = vm->count("ledger")
                                                ? std::filesystem::path((*vm)["ledger"].as<std::string>())
                                                : select::default_ledger_path(dataset.id);
  const auto lock = select::lock_ledger(ledger_file);
  select::Ledger ledger = select::Ledger::open(ledger_file, dataset);
  const bool exceed = (*vm)["exceed-cap"].as<bool>();
  std::optional<std::size_t> entry;
  const auto record = [&](const std::vector<double>& orders, const std::vector<double>& rdp,
                          const privacy::EpsilonResult& total) {
    if (ledger.cap()) {
      const auto projected = ledger.total(ledger.cap()->delta, &orders, &rdp).epsilon;
      if (projected > ledger.cap()->epsilon) {
        const std::string what = "this run would bring the privacy ledger " + ledger_file.string() + " to epsilon " +
                                 readable_rounded_up(projected) + " at delta " +
                                 readable_rounded_up(ledger.cap()->delta) + ", past its cap " +
                                 readable_rounded_up(ledger.cap()->epsilon);
        if (!exceed) throw InputError(what + " (nothing was run; --exceed-cap runs it anyway)");
        std::cerr << "warning: " << what << " (--exceed-cap)\n";
      }
    }
    entry = ledger.append({"", dp->name(), select::to_string(settings.method), "started",
                           (*vm)["out"].as<std::string>(), total.epsilon, total.delta, orders, rdp});
  };
  std::optional<select::TuningOutcome> result;
  try {
    // Elapsed time only: how many trainings the selection ran is private (docs/tune.md).
    const ElapsedNotice notice("tune " + dp->name() + ": selecting and training privately");
    result = select::tune(*dp, candidates, settings, record);
  } catch (const std::exception& e) {
    if (entry) ledger.set_outcome(*entry, std::string("failed: ") + e.what());
    throw;
  }
  const auto& outcome = *result;
  ledger.set_outcome(*entry, outcome.weights ? "released" : "nothing released");

  // Everything is computed; only now touch DIR, replaced as a whole.
  const std::filesystem::path dir((*vm)["out"].as<std::string>());
  select::write_release_directory(dir, outcome.certificate, outcome.architecture, outcome.weights);

  const auto& c = outcome.certificate;
  // The certificate (certificate.json) holds every value in full; the terminal gets readable ones,
  // privacy costs rounded up.
  const auto cost = [&](const nlohmann::json& v) { return readable_rounded_up(number_from_json(v, "certificate")); };
  const auto value = [&](const nlohmann::json& v) {
    return v.is_null() ? std::string("not measured") : readable_number(number_from_json(v, "certificate"));
  };
  std::cout << c["method"].get<std::string>() << ": epsilon = " << cost(c["epsilon"])
            << " at delta = " << cost(c["delta"]) << " (order " << value(c["order"]) << ", "
            << c["conversion"].get<std::string>() << "); split: tuning " << cost(c["split"]["tuning_epsilon"])
            << ", training " << cost(c["split"]["training_epsilon"]) << "\n";
  std::cout << "data roles: " << c["data_roles"].get<std::string>() << "\n"
            << "candidates: " << c["candidates_source"].get<std::string>()
            << "; covered: " << c["covers"].get<std::string>() << "\n";
  if (outcome.weights) {
    std::cout << "selected " << readable_json(c["selected"]) << ": validation utility "
              << value(c["validation_utility"]) << ", test accuracy "
              << (c["test_utility"].is_number() ? value(c["test_utility"]) : "not released (--test-split private)")
              << "\n";
    // A model no better than always answering the most frequent class is worth a word.
    const auto& data = dp->data();
    const double majority = data.test.label_fraction(data.train.majority_class());
    if (c["test_utility"].is_number() && c["test_utility"].get<double>() <= majority)
      std::cerr << "warning: the released model's test accuracy " << readable_number(c["test_utility"].get<double>())
                << " is not above the majority-class accuracy " << readable_number(majority)
                << " (always predicting the most frequent class); more budget, other candidates or Poisson "
                   "sampling may help\n";
  } else
    std::cout << c["note"].get<std::string>() << " (no model.bin)\n";
  std::cout << "randomness: " << c["randomness"].get<std::string>() << "; wrote " << dir.string() << "\n";
  const double ledger_delta = ledger.cap() ? ledger.cap()->delta : settings.delta;
  std::cout << "privacy ledger " << ledger_file.string() << ": " << ledger.entries().size() << " run(s) on this data, "
            << "epsilon " << readable_rounded_up(ledger.total(ledger_delta).epsilon) << " at delta "
            << readable_rounded_up(ledger_delta)
            << (ledger.cap() ? " (cap " + readable_rounded_up(ledger.cap()->epsilon) + ")" : std::string()) << "\n";
  return 0;
}

const CommandRegistration tune_registration(
    "tune", "private hyperparameter tuning and retraining with one (epsilon, delta) certificate", run_tune);

}  // namespace
}  // namespace dpareto::apps
