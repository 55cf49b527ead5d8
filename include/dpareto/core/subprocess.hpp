#pragma once
// The one place dpareto starts and stops child processes (the external oracle, gnuplot).
// No shell is ever involved: argv is executed as given.
#include <sys/types.h>

namespace dpareto {

// Starts argv[0] (searched in PATH when it has no '/') with stdin from /dev/null, stdout on
// `out_fd`, stderr on `err_fd`, default signal dispositions and an empty signal mask, under a
// small guardian process (`pid` is the guardian's): the command runs in a process group of its
// own, and that whole group — children it left in the background included — is killed when the
// command exits, when kill_group(pid) stops it, and when dpareto dies, even by SIGKILL (the
// guardian's parent-death signal). The guardian exits as the command did. Returns 0, or the errno
// of the failed fork/exec (everything is then already reaped). Between fork and exec only
// async-signal-safe calls are made (dpareto is multi-threaded). With `working_directory`, the
// command starts there (a failed chdir is reported as its errno, like a failed exec).
int start_process(char* const* argv, char* const* envp, int out_fd, int err_fd, pid_t& pid,
                  const char* working_directory = nullptr);

// waitpid that retries on EINTR: true once `pid` has been reaped (or there is nothing to wait
// for), false when `block` is false and it is still running.
bool reap(pid_t pid, int& status, bool block);

// Stops what start_process started: SIGTERM to the guardian's group (the guardian kills the
// command's group), then SIGKILL if the guardian is still alive after 1 s; reaps the guardian.
void kill_group(pid_t pid, int& status);

}  // namespace dpareto
