// The CLI's --config FILE (apps/cli_options.cpp, an INI-style file of `flag = value` lines read
// with Boost.Program_options), through parse_command_line as every subcommand calls it, against
// the shared problem and storage flags and options of each value type the subcommands use; then
// the problem options (--set key=value) and storage options read from the result.
#include <cstdint>

#include "cli_options.hpp"
#include "fuzz_support.hpp"
#include "problem_flags.hpp"
#include "storage_flags.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dpareto::apps;
  const auto path = dpareto::fuzz::write_scratch("config.ini", dpareto::fuzz::input_text(data, size)).string();
  po::options_description options("fuzz options");
  add_problem_flags(options);
  add_storage_flags(options);
  options.add_options()("method", po::value<std::string>()->default_value("dpareto"), "text with a default")(
      "budget", po::value<int>()->default_value(64), "int")("seed", po::value<std::uint64_t>(), "uint64")(
      "log-floor", po::value<double>(), "double")("prior", po::bool_switch(), "switch")(
      "reference", po::value<std::string>(), "a number list")("verbose,v", "a flag without a value");
  std::string command = "explore", flag = "--config";
  char* argv[] = {command.data(), flag.data(), const_cast<char*>(path.c_str()), nullptr};
  dpareto::fuzz::parses_or_refuses([&] {
    const auto vm = parse_command_line("fuzz", "fuzz", options, 3, argv);
    if (!vm) return;
    problem_options_from(*vm);
    storage_options_from(*vm);
    if (vm->count("reference")) parse_number_list((*vm)["reference"].as<std::string>(), "--reference");
  });
  return 0;
}
