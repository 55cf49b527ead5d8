#include "process_liveness.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

namespace dpareto::study {
namespace {

// Field 22 of /proc/PID/stat (the process's start time in clock ticks since boot); "" if none.
std::string start_ticks(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return "";
  const auto paren = stat.rfind(')');  // the command name may hold spaces and parentheses
  if (paren == std::string::npos) return "";
  std::istringstream fields(stat.substr(paren + 2));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i)
    if (i == 22) return field;
  return "";
}

}  // namespace

std::string host_name() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? name : "unknown-host";
}

const std::string& this_process() {
  static const std::string text =
      host_name() + " pid " + std::to_string(::getpid()) + " start " + start_ticks(::getpid());
  return text;
}

bool process_alive(const std::string& process) {
  std::istringstream in(process);
  std::string host, pid_word, start_word, start;
  long pid = 0;
  if (!(in >> host >> pid_word >> pid >> start_word >> start) || pid_word != "pid" || start_word != "start" || pid <= 0)
    return false;
  if (host != host_name()) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM) return false;
  return start_ticks(pid) == start;
}

}  // namespace dpareto::study
