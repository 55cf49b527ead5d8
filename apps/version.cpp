// dpareto version (also `dpareto --version`): the version of CMake's project(), DPARETO_VERSION, and
// the BLAS the training runs on (learn/blas_kernel.hpp).
#include <iostream>

#include "cli_options.hpp"
#include "command.hpp"
#include "dpareto/learn/blas_kernel.hpp"

namespace dpareto::apps {
namespace {

int run_version(int argc, char** argv) {
  po::options_description options("version options");
  if (!parse_command_line("dpareto version (or dpareto --version)", "dpareto version", options, argc, argv)) return 0;
  std::cout << "dpareto " << DPARETO_VERSION << "\n"
            << "BLAS: " << learn::blas_description() << "\n";
  return 0;
}

const CommandRegistration version_registration("version", "print the version of dpareto", run_version);

}  // namespace
}  // namespace dpareto::apps
