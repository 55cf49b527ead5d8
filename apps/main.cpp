// dpareto: the command-line entry point. Dispatches to the subcommands registered in apps/*.cpp
// and turns every dpareto::Error into a one-line message and a non-zero exit.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "command.hpp"
#include "dpareto/core/did_you_mean.hpp"
#include "dpareto/core/error.hpp"

namespace dpareto::apps {
std::map<std::string, Command>& command_table() {
  static std::map<std::string, Command> table;
  return table;
}
}  // namespace dpareto::apps

namespace {
void print_usage(std::ostream& out) {
  out << "usage: dpareto COMMAND [options]   (dpareto COMMAND --help for each)\n\ncommands:\n";
  for (const auto& [name, command] : dpareto::apps::command_table())
    out << "  " << name << std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') << command.summary << "\n";
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    print_usage(argc < 2 ? std::cerr : std::cout);  // a usage error goes where errors go
    return argc < 2 ? 2 : 0;
  }
  // `dpareto --version` is `dpareto version`.
  const std::string name = std::string(argv[1]) == "--version" ? "version" : argv[1];
  const auto& table = dpareto::apps::command_table();
  const auto it = table.find(name);
  if (it == table.end()) {
    std::vector<std::string> names;
    for (const auto& entry : table) names.push_back(entry.first);
    std::cerr << "dpareto: unknown command '" << name << "'" << dpareto::did_you_mean(name, names)
              << " (run 'dpareto --help' for the list)\n";
    return 2;
  }
  try {
    return it->second.run(argc - 1, argv + 1);
  } catch (const dpareto::InputError& e) {
    std::cerr << "dpareto " << name << ": error: " << e.what() << "\n";
    return 2;
  } catch (const dpareto::Error& e) {
    std::cerr << "dpareto " << name << ": error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "dpareto " << name << ": internal error: " << e.what() << "\n";
    return 1;
  }
}
