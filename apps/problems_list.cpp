// dpareto problems: the built-in problems and their parameters.
#include <iostream>

#include "command.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/readable_number.hpp"
#include "problem_flags.hpp"

namespace dpareto::apps {
namespace {

// "integer in [1, 30]", "real in [0.01, 100], log scale".
std::string domain_text(const space::Parameter& p) {
  return std::string(p.kind == space::Kind::integer ? "integer" : "real") + " in [" + readable_number(p.low) + ", " +
         readable_number(p.high) + "]" + (p.scale == space::Scale::log ? ", log scale" : "");
}

std::string padded(const std::string& text, std::size_t width) {
  return text + std::string(text.size() < width ? width - text.size() : 1, ' ');
}

int run_problems(int argc, char** argv) {
  po::options_description options("problems options");
  const auto parsed = parse_command_line("dpareto problems", "dpareto problems", options, argc, argv);
  if (!parsed) return 0;
  for (const auto& info : problems::list_problems()) {
    std::cout << "  " << padded(info.name, 24) << info.summary << "\n";
    for (const auto& p : info.parameters) std::cout << "      " << padded(p.name, 20) << domain_text(p) << "\n";
  }
  std::cout << "\nDomains under the default options; problem options (--set key=value) such as max_epochs or\n"
               "train_subset may narrow them.\n";
  return 0;
}

const CommandRegistration problems_list_registration("problems", "list the built-in problems and their parameters",
                                                     run_problems);

}  // namespace
}  // namespace dpareto::apps
