// problems::ExternalCommandProblem's template (`--oracle-cmd`): split into words, quotes, escapes
// and {name} placeholders, then substituted for one setting (the command is never run).
#include "dpareto/problems/external_command_problem.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& space = dpareto::fuzz::example_oracle_space();
  dpareto::problems::ExternalCommandOptions options;
  options.command = std::string(dpareto::fuzz::input_text(data, size));
  dpareto::fuzz::parses_or_refuses([&] {
    const dpareto::problems::ExternalCommandProblem problem(space, options);
    if (problem.command_line({0.01, 5, 1.5}, 42).empty()) std::abort();
  });
  return 0;
}
