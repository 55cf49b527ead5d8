#pragma once
// The one place dpareto starts and stops child processes (the external oracle, gnuplot).
// No shell is ever involved: argv is executed as given.
#include <sys/types.h>

namespace dpareto {

// Starts argv[0] (searched in PATH when it has no '/') in a new process group with stdin from
// /dev/null, stdout on `out_fd`, stderr on `err_fd`, default signal dispositions and an empty
// signal mask, and SIGKILL as its parent-death signal: if dpareto dies (even by SIGKILL) the child
// dies with it rather than running on orphaned. Returns 0, or the errno of the failed fork/exec
// (the child is then already reaped). Between fork and exec the child makes only
// async-signal-safe calls (dpareto is multi-threaded).
int start_process(char* const* argv, char* const* envp, int out_fd, int err_fd, pid_t& pid);

// waitpid that retries on EINTR: true once `pid` has been reaped (or there is nothing to wait
// for), false when `block` is false and it is still running.
bool reap(pid_t pid, int& status, bool block);

// Kills the process group of `pid`: SIGTERM, then SIGKILL to the group if the leader is still
// alive after 1 s (and to any straggler of the group once it is reaped); reaps the leader.
void kill_group(pid_t pid, int& status);

}  // namespace dpareto
