#pragma once
// Helpers shared by the test suites: a per-process temporary folder removed at exit, running the
// built CLI (DPARETO_CLI) with its combined output, and reading a file whole.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace dpareto::test {

// <tmp>/<prefix><pid>, removed when the test binary exits (forked children leave with _exit).
class TempRoot {
 public:
  explicit TempRoot(const std::string& prefix)
      : root_(std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()))) {}
  ~TempRoot() { std::filesystem::remove_all(root_); }
  TempRoot(const TempRoot&) = delete;
  TempRoot& operator=(const TempRoot&) = delete;

  // A fresh, empty folder `name` under the root.
  std::filesystem::path dir(const std::string& name) const {
    const auto d = root_ / name;
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
  }

 private:
  std::filesystem::path root_;
};

// Sets (or, with nullptr, removes) an environment variable for a scope and restores what the
// environment held before: a test must not depend on, or change, the variables of whoever runs it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    REQUIRE((value ? ::setenv(name, value, 1) : ::unsetenv(name)) == 0);
  }
  ~ScopedEnv() { old_ ? ::setenv(name_.c_str(), old_->c_str(), 1) : ::unsetenv(name_.c_str()); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

// |a − b| relative to the larger magnitude: the tolerance of a floating-point comparison.
inline double rel_diff(double a, double b) {
  return std::abs(a - b) / std::max(std::abs(a), std::abs(b));
}

struct CliRun {
  int status;          // exit status (-1 when killed by a signal)
  std::string output;  // stdout and stderr together
};

#ifdef DPARETO_CLI
// Runs `dpareto ARGS` (ARGS as a shell would split them), in `dir` when one is given, and collects
// its output; with `kill_after_seconds`, a run still going then is killed (status 137).
inline CliRun run_cli(const std::string& args, const std::filesystem::path& dir = {}, int kill_after_seconds = 0) {
  const std::string cd = dir.empty() ? "" : "cd '" + dir.string() + "' && ";
  const std::string limit = kill_after_seconds > 0 ? "timeout -s KILL " + std::to_string(kill_after_seconds) + " " : "";
  const std::string command = cd + limit + std::string(DPARETO_CLI) + " " + args + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe)) output += buffer.data();
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}
#endif

// A refusal as the CLI must give one: exit 2 and one line that names `needle`.
inline void check_one_line_exit_2(const CliRun& r, const std::string& needle) {
  CAPTURE(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.find(needle) != std::string::npos);
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

#ifdef DPARETO_CLI
// Starts `dpareto ARGS` in `dir` without waiting (stdout to dir/stdout.txt, stderr to
// dir/stderr.txt), for tests that signal or kill it; returns its pid.
inline pid_t spawn_cli(const std::filesystem::path& dir, const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(dir.c_str()) != 0) ::_exit(126);
    const int err = ::open("stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int out = ::open("stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(err, 2);
    std::vector<char*> argv{const_cast<char*>(DPARETO_CLI)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(DPARETO_CLI, argv.data());
    ::_exit(127);
  }
  return pid;
}
#endif

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// An evaluations.csv without its timing-dependent columns (the last two: seconds and message;
// the runs compared have empty messages), to compare the evaluations of two runs.
inline std::string without_timings(const std::string& csv) {
  std::string out;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) {
    for (int k = 0; k < 2; ++k) line = line.substr(0, line.rfind(','));
    out += line + "\n";
  }
  return out;
}

// A small a9a-like LIBSVM file: binary features among 123, the label decided by feature 1 with
// some noise; `salt` varies the rows.
inline void write_libsvm(const std::filesystem::path& path, int rows, unsigned salt) {
  std::ofstream out(path);
  unsigned state = 12345 + salt;
  auto next = [&] { return state = state * 1103515245U + 12345U, (state >> 16) & 0x7FFF; };
  for (int i = 0; i < rows; ++i) {
    std::vector<int> features;
    for (int f = 1; f <= 123; ++f)
      if (next() % 10 == 0) features.push_back(f);
    const bool has1 = !features.empty() && features.front() == 1;
    const bool positive = (has1 || next() % 4 == 0) && next() % 8 != 0;
    out << (positive ? "+1" : "-1");
    for (int f : features) out << " " << f << ":1";
    out << "\n";
  }
}

}  // namespace dpareto::test
