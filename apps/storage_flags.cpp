#include "storage_flags.hpp"

#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::apps {

void add_storage_flags(po::options_description& options, StorageUse use) {
  options.add_options()("study-name", po::value<std::string>(),
                        "which study of a postgresql:// database (default: default)");
  if (use == StorageUse::read) return;
  options.add_options()("heartbeat", po::value<double>()->default_value(30),
                        "PostgreSQL: seconds between the heartbeats of running evaluations")(
      "grace", po::value<double>(),
      "PostgreSQL: seconds without a heartbeat before another worker takes an evaluation over (default: 3 heartbeats)")(
      "reconnect-timeout", po::value<double>()->default_value(600),
      "PostgreSQL: seconds to keep retrying a database that went away")(
      "spool-dir", po::value<std::string>(),
      "PostgreSQL: where finished results wait while the database is away (default: ~/.cache/dpareto/spool)");
}

study::StorageOptions storage_options_from(const po::variables_map& vm) {
  study::StorageOptions options;
  if (vm.count("study-name")) {
    options.study_name = vm["study-name"].as<std::string>();
    if (options.study_name.empty() || options.study_name.size() > 200)
      throw InputError("--study-name '" + printable(options.study_name) + "': expected 1 to 200 characters");
  }
  const auto seconds = [&](const char* flag, double& into, double least) {
    if (!vm.count(flag)) return;
    into = vm[flag].as<double>();
    if (!(std::isfinite(into) && into >= least))
      throw InputError(std::string("--") + flag + " " + format_number(into) +
                       ": expected seconds >= " + format_number(least));
  };
  seconds("heartbeat", options.heartbeat_seconds, 0.1);
  seconds("grace", options.grace_seconds, 0.1);
  seconds("reconnect-timeout", options.reconnect_seconds, 0);
  if (vm.count("grace") && options.grace_seconds <= options.heartbeat_seconds)
    throw InputError("--grace " + format_number(options.grace_seconds) + ": must exceed --heartbeat " +
                     format_number(options.heartbeat_seconds));
  if (vm.count("spool-dir")) options.spool_directory = vm["spool-dir"].as<std::string>();
  return options;
}

}  // namespace dpareto::apps
