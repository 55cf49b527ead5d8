#include "dpareto/core/stop_request.hpp"

#include <signal.h>

#include <atomic>

namespace dpareto {
namespace {

std::atomic<int> requested{0};
static_assert(std::atomic<int>::is_always_lock_free, "read and written from a signal handler");

void on_signal(int signal) {
  int expected = 0;
  if (!requested.compare_exchange_strong(expected, signal)) {
    // A second signal: stop now, as the default action would have.
    ::signal(signal, SIG_DFL);
    ::raise(signal);
  }
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(s, &action, nullptr);
}

int stop_signal() {
  return requested.load(std::memory_order_relaxed);
}

std::string signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "signal " + std::to_string(signal);
  }
}

}  // namespace dpareto
