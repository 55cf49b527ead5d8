// dpareto version (also `dpareto --version`): the version of CMake's project(), DPARETO_VERSION.
#include <iostream>

#include "cli_options.hpp"
#include "command.hpp"

namespace dpareto::apps {
namespace {

int run_version(int argc, char** argv) {
  po::options_description options("version options");
  if (!parse_command_line("dpareto version (or dpareto --version)", "dpareto version", options, argc, argv)) return 0;
  std::cout << "dpareto " << DPARETO_VERSION << "\n";
  return 0;
}

const CommandRegistration registration("version", "print the version of dpareto", run_version);

}  // namespace
}  // namespace dpareto::apps
