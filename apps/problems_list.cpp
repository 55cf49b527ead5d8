// dpareto problems: the built-in problems and their parameters.
#include <iostream>

#include "command.hpp"
#include "problem_flags.hpp"

namespace dpareto::apps {
namespace {

int run_problems(int argc, char** argv) {
  po::options_description options("problems options");
  const auto parsed = parse_command_line("dpareto problems", options, argc, argv);
  if (!parsed) return 0;
  for (const auto& info : problems::list_problems()) {
    std::cout << "  " << info.name << std::string(info.name.size() < 24 ? 24 - info.name.size() : 1, ' ')
              << info.summary << "\n";
  }
  return 0;
}

const CommandRegistration registration("problems", "list the built-in problems and their parameters", run_problems);

}  // namespace
}  // namespace dpareto::apps
