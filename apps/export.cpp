// dpareto export: regenerate a run directory (evaluations.csv, front.csv, summary.json; DESIGN.md §2)
// from a study database. Reads only: works while `dpareto explore --study` is still writing.
#include <iostream>

#include "cli_options.hpp"
#include "command.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/study/storage_registry.hpp"
#include "storage_flags.hpp"

namespace dpareto::apps {
namespace {

int run_export(int argc, char** argv) {
  po::options_description options("export options");
  options.add_options()("study", po::value<std::string>()->required(), "the study database (positional)")(
      "out", po::value<std::string>()->required(), "run directory to write");
  add_storage_flags(options, StorageUse::read);
  const auto parsed = parse_command_line("dpareto export STUDY [--study-name NAME] --out DIR",
                                         "dpareto export svt.db --out runs/svt-copy", options, argc, argv, {"study"});
  if (!parsed) return 0;
  const auto& vm = *parsed;
  const auto db =
      study::open_storage(vm["study"].as<std::string>(), study::StorageAccess::read_only, storage_options_from(vm));
  const std::string out = vm["out"].as<std::string>();
  study::RunDirectoryWriter writer(out, db->run_info());
  if (const auto completed = db->completed(); !completed.empty()) writer.add_many(completed);  // one rewrite
  const auto running = db->trials().size() - writer.records().size();
  std::cout << "exported " << writer.records().size() << " evaluations of " << db->location() << " to " << out
            << "/{evaluations.csv,front.csv,summary.json}"
            << (running ? " (" + std::to_string(running) + " still running, not exported)" : std::string()) << "\n";
  return 0;
}

const CommandRegistration export_registration("export", "write a study's evaluations.csv, front.csv and summary.json",
                                              run_export);

}  // namespace
}  // namespace dpareto::apps
