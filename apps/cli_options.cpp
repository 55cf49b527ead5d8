#include "cli_options.hpp"

#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "dpareto/core/did_you_mean.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::apps {

namespace {

// The long names of `options`, for "did you mean" (with "--" for the command line).
std::vector<std::string> flag_names(const po::options_description& options, const std::string& prefix) {
  std::vector<std::string> names;
  for (const auto& option : options.options()) names.push_back(prefix + option->long_name());
  return names;
}

// Boost.Program_options (1.74) loops forever when it words an error about text that holds one of its
// message placeholders (a value "%value%", a flag "--%canonical_option%"): such text is refused
// before Boost sees it (fuzz finding, fuzz/config.cpp).
void refuse_placeholders(const std::string& text, const std::string& where) {
  for (const char* placeholder :
       {"%canonical_option%", "%invalid_line%", "%option%", "%original_token%", "%prefix%", "%value%"})
    if (text.find(placeholder) != std::string::npos)
      throw InputError(where + "'" + printable(text) + "' holds " + placeholder +
                       ", which the flag parser reserves for its messages");
}

// Stores a config file's flags line by line (the command line, stored first, wins), so that every
// error names the file and line: an unknown flag, a bad value, a flag given twice, a line that is
// not `flag = value`.
void store_config_file(const std::string& path, const po::options_description& options, po::variables_map& vm) {
  std::ifstream in(path);
  if (!in) throw InputError("--config " + path + ": cannot open file");
  std::map<std::string, int> first_line;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = "--config " + path + ":" + std::to_string(number);
    const auto start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#' || line[start] == '[') continue;
    refuse_placeholders(line, where + ": ");
    const auto eq = line.find('=');
    if (eq == std::string::npos) throw InputError(where + ": '" + printable(line) + "' is not 'flag = value'");
    std::string name = line.substr(start, eq - start);
    name.erase(name.find_last_not_of(" \t") + 1);
    if (!options.find_nothrow(name, false))
      throw InputError(where + ": unknown flag '" + printable(name) + "'" +
                       did_you_mean(name, flag_names(options, "")));
    if (const auto [it, fresh] = first_line.emplace(name, number); !fresh)
      throw InputError(where + ": '" + name + "' given again (first on line " + std::to_string(it->second) + ")");
    std::istringstream one(line);
    try {
      po::store(po::parse_config_file(one, options), vm);
    } catch (const po::error& e) {
      throw InputError(where + ": " + printable(e.what()));
    }
  }
}

}  // namespace

std::optional<po::variables_map> parse_command_line(const std::string& usage_line, const std::string& example,
                                                    po::options_description options, int argc, char** argv,
                                                    const std::vector<std::string>& positional) {
  options.add_options()("help,h", "show this help")("config", po::value<std::string>(),
                                                    "read flags from an INI-style file (flag = value)");
  po::positional_options_description pos;
  for (std::size_t i = 0; i < positional.size(); ++i)
    pos.add(positional[i].c_str(), i + 1 == positional.size() ? -1 : 1);
  po::variables_map vm;
  for (int i = 1; i < argc; ++i) refuse_placeholders(argv[i], std::string(argv[0]) + ": argument ");
  try {
    po::store(po::command_line_parser(argc, argv).options(options).positional(pos).run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: " << usage_line << "\nexample: " << example << "\n\n" << options << "\n";
      return std::nullopt;
    }
    if (vm.count("config")) {
      const auto path = vm["config"].as<std::string>();
      // A config is a small regular file: a directory, FIFO or /dev/zero is refused before reading.
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) throw InputError("--config " + path + ": not a regular file");
      if (std::filesystem::file_size(path, ec) > (1u << 20))
        throw InputError("--config " + path + ": larger than 1 MiB");
      store_config_file(path, options, vm);
    }
    // A negative --seed would wrap to 2^64 - 1 in an unsigned option: refuse it as written.
    for (int i = 1; i < argc; ++i)
      if (std::string(argv[i]) == "--seed" && i + 1 < argc && argv[i + 1][0] == '-')
        throw InputError("--seed " + std::string(argv[i + 1]) + ": expected a non-negative integer");
    po::notify(vm);
  } catch (const po::error& e) {
    std::string hint;
    if (const auto* unknown = dynamic_cast<const po::unknown_option*>(&e)) {
      const std::string typed = unknown->get_option_name();  // `--flag=value` whole
      hint = did_you_mean(typed.substr(0, typed.find('=')), flag_names(options, "--"));
    }
    throw InputError(std::string(argv[0]) + ": " + e.what() + hint + " (see 'dpareto " + argv[0] + " --help')");
  }
  return vm;
}

std::optional<double> utility_flag(const po::variables_map& vm, const std::string& flag) {
  if (!vm.count(flag)) return std::nullopt;
  const double utility = vm[flag].as<double>();
  if (!(utility >= 0 && utility <= 1))
    throw InputError("--" + flag + " " + format_number(utility) + ": must be a utility in [0, 1]");
  return utility;
}

std::vector<double> parse_number_list(const std::string& text, const std::string& flag) {
  std::vector<double> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    double v = 0;
    const auto res = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || res.ec != std::errc() || res.ptr != item.data() + item.size())
      throw InputError(flag + ": '" + printable(item) + "' in '" + printable(text) + "' is not a number");
    values.push_back(v);
    start = end + 1;
  }
  return values;
}

bool stderr_is_terminal() {
  return ::isatty(STDERR_FILENO) == 1;
}

}  // namespace dpareto::apps
