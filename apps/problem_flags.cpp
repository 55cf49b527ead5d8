#include "problem_flags.hpp"

#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::apps {

void add_problem_flags(po::options_description& options) {
  options.add_options()("problem", po::value<std::string>(), "problem name (dpareto problems lists them)")(
      "set", po::value<std::vector<std::string>>()->composing(), "problem option key=value (repeatable)")(
      "repeats", po::value<std::string>(), "utility repeats per evaluation (problem option 'repeats')")(
      "train-subset", po::value<std::string>(), "train on the first N examples (problem option 'train_subset')")(
      "max-epochs", po::value<std::string>(), "cap on epochs (problem option 'max_epochs')")(
      "data-dir", po::value<std::string>(),
      "data directory (problem option 'data_dir'; default ../shared/data or $DPARETO_DATA)")(
      "threads", po::value<std::string>(), "threads per evaluation (problem option 'threads')");
}

problems::ProblemOptions problem_options_from(const po::variables_map& vm) {
  problems::ProblemOptions options;
  if (vm.count("set")) {
    for (const auto& item : vm["set"].as<std::vector<std::string>>()) {
      const auto eq = item.find('=');
      // A flag's text, or a --config line's: echoed through printable(), on one line.
      if (eq == std::string::npos || eq == 0) throw InputError("--set " + printable(item) + ": expected key=value");
      const std::string key = item.substr(0, eq);
      if (options.count(key))
        throw InputError("--set " + printable(key) + " given twice (" + printable(key + "=" + options[key]) + " and " +
                         printable(item) + ")");
      options[key] = item.substr(eq + 1);
    }
  }
  const std::pair<const char*, const char*> shortcuts[] = {{"repeats", "repeats"},
                                                           {"train-subset", "train_subset"},
                                                           {"max-epochs", "max_epochs"},
                                                           {"data-dir", "data_dir"},
                                                           {"threads", "threads"}};
  for (const auto& [flag, key] : shortcuts)
    if (vm.count(flag)) {
      if (options.count(key))
        throw InputError(std::string("--") + flag + " and --set " + key + " both set problem option '" + key + "'");
      options[key] = vm[flag].as<std::string>();
    }
  return options;
}

std::unique_ptr<problems::Problem> make_problem_from(const po::variables_map& vm) {
  if (!vm.count("problem")) throw InputError("--problem is required (dpareto problems lists them)");
  return problems::make_problem(vm["problem"].as<std::string>(), problem_options_from(vm));
}

}  // namespace dpareto::apps
