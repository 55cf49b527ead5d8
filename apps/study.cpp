// dpareto study copy FROM TO: moves a study between SQLite and PostgreSQL, either way (docs/study.md).
#include <iostream>

#include "dpareto/core/error.hpp"

#include "command.hpp"
#include "dpareto/study/study_copy.hpp"
#include "storage_flags.hpp"

namespace dpareto::apps {
namespace {

constexpr const char* kCopyExample = "dpareto study copy svt.db svt-copy.db";

int run_copy(int argc, char** argv) {
  po::options_description options("study copy options");
  options.add_options()("from", po::value<std::string>()->required(), "the study to copy (positional)")(
      "to", po::value<std::string>()->required(), "where to create the copy (positional)")(
      "from-name", po::value<std::string>(), "the source's study name in a postgresql:// database (default: default)")(
      "to-name", po::value<std::string>(), "the copy's study name in a postgresql:// database (default: --from-name)");
  const auto parsed = parse_command_line("dpareto study copy FROM TO [--from-name NAME] [--to-name NAME]", kCopyExample,
                                         options, argc, argv, {"from", "to"});
  if (!parsed) return 0;
  const auto& vm = *parsed;
  const std::string to = vm["to"].as<std::string>();
  study::StorageOptions from_options, to_options;
  if (vm.count("from-name")) from_options.study_name = vm["from-name"].as<std::string>();
  // A database target keeps the source's name unless told otherwise; a file holds one unnamed study.
  if (vm.count("to-name"))
    to_options.study_name = vm["to-name"].as<std::string>();
  else if (!study::storage_backend(to).scheme.empty())
    to_options.study_name = from_options.study_name;
  const auto from = study::open_storage(vm["from"].as<std::string>(), study::StorageAccess::read_only, from_options);
  const auto copy = study::copy_study(*from, to, to_options);
  std::cout << "copied study " << from->location() << " to " << copy->location() << ": " << copy->trials().size()
            << " trials, " << copy->completed().size() << " completed\n";
  return 0;
}

int run_upgrade(int argc, char** argv) {
  po::options_description options("study upgrade options");
  options.add_options()("study", po::value<std::string>()->required(), "the study to migrate (positional)");
  add_storage_flags(options, StorageUse::read);
  const auto parsed = parse_command_line("dpareto study upgrade STUDY [--study-name NAME]",
                                         "dpareto study upgrade svt.db", options, argc, argv, {"study"});
  if (!parsed) return 0;
  const auto& vm = *parsed;
  const std::string location = vm["study"].as<std::string>();
  const auto& backend = study::storage_backend(location);
  if (!backend.upgrade)
    throw InputError("study " + study::shown_location(location) + ": its storage back-end has no upgrade");
  const int found = backend.upgrade(location, storage_options_from(vm));
  const int current = backend.upgrade(location, storage_options_from(vm));  // the version it holds now
  std::cout << "study " << study::shown_location(location) << ": "
            << (found == current
                    ? "already at format version " + std::to_string(found) + ", nothing to do"
                    : "migrated from format version " + std::to_string(found) + " to " + std::to_string(current))
            << "\n";
  return 0;
}

int run_study(int argc, char** argv) {
  return dispatch_actions(
      "study", kCopyExample,
      {{"copy", "copy a study to another location (SQLite file or postgresql:// database)", run_copy},
       {"upgrade", "migrate a study written by an older dpareto to the current format", run_upgrade}},
      argc, argv);
}

const CommandRegistration study_registration("study",
                                             "copy a study between SQLite and PostgreSQL, or upgrade its format",
                                             run_study);

}  // namespace
}  // namespace dpareto::apps
