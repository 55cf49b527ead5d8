// Parallel evaluation (asynchronous batch BO, Kriging believer):
//  1. wall time of 32 evaluations of an external oracle that sleeps 1 s
//     (experiments/example_oracle.py --sleep 1) with --workers 4 against --workers 1;
//  2. final hypervolume on the SVT problem with --workers 4 against sequential at equal evaluation
//     count (64), mean over 10 seeds.
//   build/bench_study_parallel [seeds=10] [dpareto CLI, default: next to this program]
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

extern char** environ;
namespace fs = std::filesystem;

namespace {

// Runs the command and returns its standard output (stderr is discarded).
std::string capture(const std::vector<std::string>& args) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0)
    throw std::runtime_error("cannot run " + args[0]);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof(buf))) > 0) out.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error(args[0] + " " + args[1] + " failed");
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int seeds = argc > 1 ? std::stoi(argv[1]) : 10;
  const fs::path cli = argc > 2 ? fs::path(argv[2]) : fs::read_symlink("/proc/self/exe").parent_path() / "dpareto";
  const fs::path source = DPARETO_SOURCE_DIR;
  const fs::path dir = fs::temp_directory_path() / ("dpareto_parallel_" + std::to_string(::getpid()));

  double wall[2] = {0, 0};
  const int workers[2] = {1, 4};
  for (int k = 0; k < 2; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    capture({cli.string(), "explore", "--space", (source / "experiments/example_oracle_space.json").string(),
             "--oracle-cmd",
             "python3 " + (source / "experiments/example_oracle.py").string() +
                 " --sleep 1 --lr {lr} --epochs {epochs} --noise {noise} --seed {seed}",
             "--budget", "32", "--init", "8", "--seed", "1", "--workers", std::to_string(workers[k]), "--out",
             (dir / ("sleep-w" + std::to_string(workers[k]))).string(), "--overwrite", "--json"});
    wall[k] = seconds_since(t0);
  }
  std::cout << "32 evaluations of a 1 s external oracle: --workers 1 " << wall[0] << " s, --workers 4 " << wall[1]
            << " s: " << 100 * wall[1] / wall[0] << "% of sequential (target < 40%)\n";

  double mean_hv[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    for (int s = 1; s <= seeds; ++s) {
      const auto out =
          capture({cli.string(), "explore", "--problem", "svt", "--budget", "64", "--seed", std::to_string(s),
                   "--workers", std::to_string(workers[k]), "--out", (dir / "svt").string(), "--overwrite", "--json"});
      const double hv = nlohmann::json::parse(out).at("hypervolume").get<double>();
      std::cout << "svt seed " << s << " --workers " << workers[k] << ": hypervolume " << hv << "\n";
      mean_hv[k] += hv / seeds;
    }
  }
  std::cout << "SVT, 64 evaluations, mean final hypervolume over " << seeds << " seeds: --workers 1 " << mean_hv[0]
            << ", --workers 4 " << mean_hv[1] << ": " << 100 * (mean_hv[1] - mean_hv[0]) / mean_hv[0]
            << "% (target within 2%)\n";
  fs::remove_all(dir);
  return 0;
}
