#include "dpareto/core/subprocess.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <iterator>
#include <thread>

namespace dpareto {

using Clock = std::chrono::steady_clock;

namespace {

// The guardian's record of the command's process group, read by its signal handler.
volatile sig_atomic_t command_group = 0;

// In the guardian: a stop (SIGTERM from kill_group, SIGHUP as its parent-death signal) kills the
// command's whole process group, then the guardian ends by the same signal.
void guardian_stop(int signal) {
  if (command_group > 0) ::kill(-command_group, SIGKILL);
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

void reset_signals() {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD}) ::sigaction(s, &default_action, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

// The guardian process (async-signal-safe calls only: it was forked from a threaded process).
// It leads a process group of its own and starts the command in another one; whether dpareto
// stops it (SIGTERM) or dies (SIGHUP, its parent-death signal, sent even when dpareto is killed by
// SIGKILL), and whenever the command exits, the command's whole group — the children it left in
// the background included — is killed. The guardian then ends as the command did.
[[noreturn]] void run_guardian(char* const* argv, char* const* envp, const char* working_directory, int null_fd,
                               int out_fd, int err_fd, int status_write, pid_t parent) {
  // The guardian never execs, so close-on-exec does not apply to it: close every descriptor it
  // does not need, or it would keep dpareto's files open — a study's lock outliving a killed
  // dpareto, say — while it cleans up.
  int keep[] = {null_fd, out_fd, err_fd, status_write};
  std::sort(std::begin(keep), std::end(keep));
  unsigned int next = 3;
  for (int fd : keep) {
    if (fd < static_cast<int>(next)) continue;
    if (static_cast<unsigned int>(fd) > next) ::close_range(next, static_cast<unsigned int>(fd) - 1, 0);
    next = static_cast<unsigned int>(fd) + 1;
  }
  ::close_range(next, ~0U, 0);
  ::setpgid(0, 0);
  struct sigaction stop {};
  stop.sa_handler = guardian_stop;
  sigemptyset(&stop.sa_mask);
  for (int s : {SIGTERM, SIGHUP, SIGINT}) ::sigaction(s, &stop, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::prctl(PR_SET_PDEATHSIG, SIGHUP);
  if (::getppid() != parent) ::_exit(127);  // dpareto died before prctl
  const pid_t command = ::fork();
  if (command == 0) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // should the guardian itself be SIGKILLed
    reset_signals();
    ::dup2(null_fd, 0);
    ::dup2(out_fd, 1);
    ::dup2(err_fd, 2);
    if (working_directory == nullptr || ::chdir(working_directory) == 0) ::execvpe(argv[0], argv, envp);
    const int e = errno;
    [[maybe_unused]] const auto n = ::write(status_write, &e, sizeof(e));
    ::_exit(127);
  }
  if (command < 0) {
    const int e = errno;
    [[maybe_unused]] const auto n = ::write(status_write, &e, sizeof(e));
    ::_exit(127);
  }
  ::setpgid(command, command);  // from here too, so the group exists before any kill
  command_group = command;
  ::close(status_write);
  int status = 0;
  while (::waitpid(command, &status, 0) < 0 && errno == EINTR) {
  }
  ::kill(-command, SIGKILL);  // what the command left running in the background
  if (WIFSIGNALED(status)) {
    ::signal(WTERMSIG(status), SIG_DFL);
    ::raise(WTERMSIG(status));
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

}  // namespace

int start_process(char* const* argv, char* const* envp, int out_fd, int err_fd, pid_t& pid,
                  const char* working_directory) {
  int status_pipe[2];
  if (::pipe2(status_pipe, O_CLOEXEC) != 0) return errno;
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  const pid_t parent = ::getpid();
  pid = ::fork();
  if (pid == 0) run_guardian(argv, envp, working_directory, null_fd, out_fd, err_fd, status_pipe[1], parent);
  const int fork_error = pid < 0 ? errno : 0;
  ::close(status_pipe[1]);
  if (null_fd >= 0) ::close(null_fd);
  if (fork_error != 0) {
    ::close(status_pipe[0]);
    return fork_error;
  }
  ::setpgid(pid, pid);  // also from the parent, so the guardian's group exists before any kill(-pid)
  int exec_error = 0;
  ssize_t n;
  do n = ::read(status_pipe[0], &exec_error, sizeof(exec_error));  // EOF: exec succeeded
  while (n < 0 && errno == EINTR);
  ::close(status_pipe[0]);
  if (n == static_cast<ssize_t>(sizeof(exec_error))) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return exec_error;
  }
  return 0;
}

bool reap(pid_t pid, int& status, bool block) {
  while (true) {
    const pid_t r = ::waitpid(pid, &status, block ? 0 : WNOHANG);
    if (r == pid) return true;
    if (r == 0) return false;
    if (errno != EINTR) return true;  // ECHILD: nothing left to wait for
  }
}

// Kills the process group: SIGTERM, then SIGKILL if the leader is still alive after 1 s.
void kill_group(pid_t pid, int& status) {
  ::kill(-pid, SIGTERM);
  const auto until = Clock::now() + std::chrono::seconds(1);
  while (Clock::now() < until) {
    if (reap(pid, status, false)) {
      ::kill(-pid, SIGKILL);  // stragglers of the group
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(-pid, SIGKILL);
  reap(pid, status, true);
}

}  // namespace dpareto
