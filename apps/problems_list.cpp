// dpareto problems: the built-in problems, their parameters and their options.
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
    std::string keys;
    for (const auto& key : info.options) keys += (keys.empty() ? "" : ", ") + key;
    std::cout << "      " << padded("options (--set)", 20) << (keys.empty() ? "none" : keys) << "\n";
  }
  std::cout << "\nDomains under the default options; problem options (--set key=value) such as max_epochs or\n"
               "train_subset may narrow them (svt's bound_scale rescales C); README's \"Built-in problems\" says\n"
               "what each option does.\n";
  return 0;
}

const CommandRegistration problems_list_registration("problems",
                                                     "list the built-in problems, their parameters and options",
                                                     run_problems);

}  // namespace
}  // namespace dpareto::apps
