#pragma once
// Shared Boost.Program_options plumbing for every subcommand: --help, --config FILE (an INI-style
// file of `flag = value` lines accepted wherever flags are; command-line flags win), and
// conversion of Boost's parse errors into one-line dpareto::InputError messages.
#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dpareto::apps {

namespace po = boost::program_options;

// Parses argv (argv[0] = subcommand name) against `options`. Adds --help and --config.
// Returns std::nullopt after printing the usage line, `example` (a whole working command line) and
// the options when --help was given. An unknown flag's error names the closest known ones.
// `positional` names options that take positional arguments, in order (the last may repeat).
std::optional<po::variables_map> parse_command_line(const std::string& usage_line, const std::string& example,
                                                    po::options_description options, int argc, char** argv,
                                                    const std::vector<std::string>& positional = {});

// "1.5,2,3" -> {1.5, 2, 3}; `flag` names the source in errors.
std::vector<double> parse_number_list(const std::string& text, const std::string& flag);

// The value of a utility flag (--baseline, --non-private), when given; InputError outside [0, 1].
std::optional<double> utility_flag(const po::variables_map& vm, const std::string& flag);

// True when standard error is a terminal (progress bars are drawn only then).
bool stderr_is_terminal();

}  // namespace dpareto::apps
