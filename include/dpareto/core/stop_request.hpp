#pragma once
// A clean stop of long work (issue 23): Ctrl-C (SIGINT), SIGTERM and SIGHUP — how terminals,
// schedulers and ssh stop a job — set a flag instead of killing dpareto mid-write. Long loops
// (training steps, an oracle's wait, the study runner) look at it and stop; a second signal of
// the same kind ends the process at once with the default action.
#include <string>

#include "dpareto/core/error.hpp"

namespace dpareto {

// Installs the handlers (idempotent). Only commands that stop cleanly install them.
void install_stop_handlers();

// The signal that asked for a stop, or 0.
int stop_signal();

// "SIGINT", "SIGTERM", "SIGHUP" or "signal N".
std::string signal_name(int signal);

// Thrown by work that stopped because a stop was requested; never an evaluation's failure.
class Interrupted : public Error {
 public:
  explicit Interrupted(int signal) : Error("interrupted by " + signal_name(signal)), signal_(signal) {}
  int signal() const { return signal_; }

 private:
  int signal_;
};

// Throws Interrupted when a stop was requested.
inline void throw_if_stop_requested() {
  if (const int s = stop_signal()) throw Interrupted(s);
}

}  // namespace dpareto
