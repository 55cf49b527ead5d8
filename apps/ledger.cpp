// dpareto ledger show|cap: the privacy ledger of a dataset (select/ledger.hpp): every `tune` on the
// same private training data, composed.
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_options.hpp"
#include "command.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/select/ledger.hpp"
#include "problem_flags.hpp"

namespace dpareto::apps {
namespace {

// The example of `ledger show --help`, and of `ledger --help`.
constexpr const char* kShowExample = "dpareto ledger show --problem synthetic-logreg-sgd";

// The ledger named by the positional FILE, or the default one of --problem's training data.
std::filesystem::path ledger_file(const po::variables_map& vm, std::optional<select::LedgerDataset>& dataset) {
  if (vm.count("file")) {
    if (vm.count("problem")) throw InputError("give either a ledger FILE or --problem, not both");
    return vm["file"].as<std::string>();
  }
  if (!vm.count("problem")) throw InputError("name the ledger: a FILE, or --problem NAME (with its data flags)");
  const auto problem = make_problem_from(vm);
  const auto* dp = dynamic_cast<const problems::DpTrainingProblem*>(problem.get());
  if (dp == nullptr)
    throw InputError("--problem " + problem->name() + " is not a DP-training problem (it has no ledger)");
  dataset = select::ledger_dataset_of(*dp);
  return select::default_ledger_path(dataset->id);
}

po::options_description ledger_options(const char* title) {
  po::options_description options(title);
  add_problem_flags(options);
  options.add_options()("file", po::value<std::string>(), "the ledger file (positional)");
  return options;
}

int run_show(int argc, char** argv) {
  auto options = ledger_options("ledger show options");
  options.add_options()("delta", po::value<double>(),
                        "convert the total at this delta (default: the cap's, else 1e-5)")("json",
                                                                                           "print one JSON object");
  const auto vm = parse_command_line("dpareto ledger show (FILE | --problem NAME [problem flags]) [--delta D] [--json]",
                                     kShowExample, options, argc, argv, {"file"});
  if (!vm) return 0;
  std::optional<select::LedgerDataset> dataset;
  const auto file = ledger_file(*vm, dataset);
  const select::Ledger ledger = dataset ? select::Ledger::open(file, *dataset) : select::Ledger::read(file);
  double delta = ledger.cap() ? ledger.cap()->delta : 1e-5;
  if (vm->count("delta")) delta = (*vm)["delta"].as<double>();
  if (!(delta > 0 && delta < 1)) throw InputError("--delta " + format_number(delta) + " must be in (0, 1)");
  const auto total = ledger.total(delta);
  if (vm->count("json")) {
    nlohmann::json j = ledger.to_json();
    j["file"] = file.string();
    j["total"] = {
        {"epsilon", json_number(total.epsilon)}, {"delta", json_number(delta)}, {"order", json_number(total.order)}};
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  // Text from the ledger file reaches the terminal without its control characters (no escape sequences).
  std::cout << "ledger " << file.string() << "\ndataset " << clean_utf8(ledger.dataset().description) << " ("
            << clean_utf8(ledger.dataset().id) << ")\n";
  for (const auto& e : ledger.entries())
    std::cout << "  " << clean_utf8(e.time) << "  " << clean_utf8(e.problem) << " " << clean_utf8(e.method)
              << ": epsilon " << readable_rounded_up(e.epsilon) << " at delta " << readable_rounded_up(e.delta) << ", "
              << clean_utf8(e.outcome) << " (" << clean_utf8(e.out) << ")\n";
  std::cout << "total: epsilon " << readable_rounded_up(total.epsilon) << " at delta " << readable_rounded_up(delta)
            << " over " << ledger.entries().size() << " run(s)";
  if (ledger.cap())
    std::cout << "; cap " << readable_rounded_up(ledger.cap()->epsilon) << " at delta "
              << readable_rounded_up(ledger.cap()->delta);
  std::cout << "\n(bookkeeping for honest users: it does not stop a run that uses another ledger)\n";
  return 0;
}

int run_cap(int argc, char** argv) {
  auto options = ledger_options("ledger cap options");
  options.add_options()("epsilon", po::value<double>()->required(), "the cap on the ledger's total epsilon, > 0")(
      "delta", po::value<double>()->default_value(1e-5, "1e-5"), "the delta the total is converted at, in (0, 1)");
  const auto vm = parse_command_line(
      "dpareto ledger cap (FILE | --problem NAME [problem flags]) --epsilon E [--delta D]",
      "dpareto ledger cap --problem synthetic-logreg-sgd --epsilon 8", options, argc, argv, {"file"});
  if (!vm) return 0;
  std::optional<select::LedgerDataset> dataset;
  const auto file = ledger_file(*vm, dataset);
  const auto lock = select::lock_ledger(file);
  select::Ledger ledger = dataset ? select::Ledger::open(file, *dataset) : select::Ledger::read(file);
  ledger.set_cap({(*vm)["epsilon"].as<double>(), (*vm)["delta"].as<double>()});
  const auto total = ledger.total(ledger.cap()->delta);
  std::cout << "ledger " << file.string() << ": cap epsilon " << readable_rounded_up(ledger.cap()->epsilon)
            << " at delta " << readable_rounded_up(ledger.cap()->delta) << "; spent so far "
            << readable_rounded_up(total.epsilon) << "\n";
  return 0;
}

int run_ledger(int argc, char** argv) {
  return dispatch_actions("ledger", kShowExample,
                          {{"show", "the runs recorded for a dataset and their composed (epsilon, delta)", run_show},
                           {"cap", "set the cap that tune refuses to pass (unless --exceed-cap)", run_cap}},
                          argc, argv);
}

const CommandRegistration ledger_registration("ledger", "the privacy ledger of a dataset: every tune on it, composed",
                                              run_ledger);

}  // namespace
}  // namespace dpareto::apps
