// dispatch_actions (command.hpp): the one place sub-actions (`account dpsgd`, `ledger show`, ...)
// are looked up.
#include <iostream>

#include "command.hpp"
#include "dpareto/core/did_you_mean.hpp"
#include "dpareto/core/error.hpp"

namespace dpareto::apps {

int dispatch_actions(const std::string& command, const std::string& example, const std::vector<Action>& actions,
                     int argc, char** argv) {
  std::string names;
  std::vector<std::string> known;
  for (const auto& a : actions) {
    names += (names.empty() ? "" : "|") + a.name;
    known.push_back(a.name);
  }
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::cout << "usage: dpareto " << command << " " << names << " [options]   (--help on each)\n"
              << "example: " << example << "\n";
    for (const auto& a : actions)
      std::cout << "  " << a.name << std::string(a.name.size() < 10 ? 10 - a.name.size() : 1, ' ') << a.summary << "\n";
    return argc < 2 ? 2 : 0;
  }
  const std::string sub = argv[1];
  for (const auto& a : actions) {
    if (a.name != sub) continue;
    std::string name = command + " " + sub;
    std::vector<char*> args{name.data()};
    for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
    return a.run(static_cast<int>(args.size()), args.data());
  }
  throw InputError(command + ": unknown subcommand '" + sub + "'" + did_you_mean(sub, known) + " (" + names + ")");
}

}  // namespace dpareto::apps
