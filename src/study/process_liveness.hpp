#pragma once
// Which process runs an evaluation of an SQLite study shared by several processes on one host:
// "HOST pid PID start TICKS", the start time telling a live process from a later one that reuses
// its pid (proc(5), /proc/PID/stat field 22).
#include <string>

namespace dpareto::study {

// This host's name ("unknown-host" if the system does not tell).
std::string host_name();
// This process, as the text above.
const std::string& this_process();
// Whether the process a text of this_process() names still runs on this host (false for another
// host's, or a malformed text: an SQLite study's processes share a host).
bool process_alive(const std::string& process);

}  // namespace dpareto::study
