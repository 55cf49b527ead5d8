#pragma once
// Subcommand registry: each apps/<name>.cpp registers itself with a static CommandRegistration,
// so adding a subcommand never edits a shared file.
#include <functional>
#include <map>
#include <string>
#include <vector>

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

// A command with sub-actions (`dpareto account dpsgd|gaussian|tuning`): runs the action named by
// argv[1] with argv[0] = "COMMAND ACTION"; prints the actions and `example` (a whole working command
// line) for --help (exit 0) or when none is given (exit 2); an unknown action is an InputError
// naming it and the closest actions.
struct Action {
  std::string name;
  std::string summary;
  CommandFn run;
};
int dispatch_actions(const std::string& command, const std::string& example, const std::vector<Action>& actions,
                     int argc, char** argv);

}  // namespace dpareto::apps
