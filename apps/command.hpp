#pragma once
// Subcommand registry: each apps/<name>.cpp registers itself with a static CommandRegistration,
// so adding a subcommand never edits a shared file.
#include <functional>
#include <map>
#include <string>

namespace dpareto::apps {

// argv[0] is the subcommand name; the rest are its own arguments.
using CommandFn = std::function<int(int argc, char** argv)>;

struct Command {
  std::string summary;
  CommandFn run;
};

std::map<std::string, Command>& command_table();

struct CommandRegistration {
  CommandRegistration(const std::string& name, const std::string& summary, CommandFn run) {
    command_table()[name] = Command{summary, std::move(run)};
  }
};

}  // namespace dpareto::apps
