// problems::parse_oracle_output: what the external-command oracle printed on stdout. An output it
// refuses carries a one-line message saying why; one it accepts has a delta in [0, 1).
#include "dpareto/problems/external_command_problem.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dpareto::fuzz::parses_or_refuses([&] {
    const auto out = dpareto::problems::parse_oracle_output(std::string(dpareto::fuzz::input_text(data, size)), 1e-5);
    if (out.ok ? !(out.delta >= 0 && out.delta < 1) : (dpareto::fuzz::check_message(out.message.c_str()), false))
      std::abort();
  });
  return 0;
}
