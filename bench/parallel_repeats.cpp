// Repeats in parallel (issue 16 item 2): one evaluation of R repeats on T threads, through the
// problem exactly as `explore` runs it (training and test accuracy), against the same R trainings
// run one after another, each with all T threads. Prints the time ratio parallel / sequential
// (targets on 2 cores, R = 10: a9a logistic regression <= 0.6, MLP2 with 5 epochs <= 0.85) and the
// evaluation throughput in evaluations per hour. The two are timed in alternation for several
// rounds and each keeps its best, so that a busy moment of a shared machine costs both alike.
// With --memory: the peak resident memory of one MLP1 evaluation of R repeats in parallel (target
// < 1 GiB), measured alone in this process.
// Usage: bench_parallel_repeats [threads,...] [repeats] [data_dir] [rounds (3)]
//        bench_parallel_repeats --memory [threads] [repeats] [data_dir]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dpareto/core/random.hpp"
#include "dpareto/core/seconds_since.hpp"
#include "dpareto/problems/registry.hpp"

using namespace dpareto;

namespace {

struct Workload {
  const char* problem;
  space::Params params;
};

const std::vector<Workload>& workloads() {
  // Parameters in the problems' order: epochs, lot_size, learning_rate, noise_multiplier, clip_norm.
  static const std::vector<Workload> w = {
      {"adult-logreg-sgd", {8, 256, 0.01, 1.0, 1.0}},
      {"mnist-mlp2-sgd", {5, 256, 0.05, 1.0, 1.0}},
  };
  return w;
}

std::unique_ptr<problems::Problem> make(const char* name, int repeats, int threads, const std::string& dir) {
  problems::ProblemOptions options{{"repeats", std::to_string(repeats)}, {"threads", std::to_string(threads)}};
  if (!dir.empty()) options["data_dir"] = dir;
  return problems::make_problem(name, options);
}

std::vector<int> parse_threads(const std::string& list) {
  std::vector<int> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::atoi(item.c_str()));
  return out;
}

void throughput(const std::vector<int>& thread_counts, int repeats, const std::string& dir, int rounds) {
  std::printf("%-17s %7s %12s %12s %8s %12s\n", "problem", "threads", "sequential", "parallel", "ratio", "evals/hour");
  for (const Workload& w : workloads()) {
    for (int threads : thread_counts) {
      const auto one = make(w.problem, 1, threads, dir);
      const auto all = make(w.problem, repeats, threads, dir);
      one->utility(w.params, 1);  // warm-up: caches, thread pools
      double sequential = 1e300, parallel = 1e300;
      for (int round = 0; round < rounds; ++round) {
        auto start = std::chrono::steady_clock::now();
        for (int r = 0; r < repeats; ++r) one->utility(w.params, derive_seed(7, static_cast<std::uint64_t>(r)));
        sequential = std::min(sequential, seconds_since(start));
        start = std::chrono::steady_clock::now();
        all->utility(w.params, 7);
        parallel = std::min(parallel, seconds_since(start));
      }
      std::printf("%-17s %7d %10.3f s %10.3f s %8.3f %12.0f\n", w.problem, threads, sequential, parallel,
                  parallel / sequential, 3600.0 / parallel);
      std::fflush(stdout);
    }
  }
}

void memory(int threads, int repeats, const std::string& dir) {
  const auto problem = make("mnist-mlp1-sgd", repeats, threads, dir);
  const space::Params params{1, 256, 0.05, 1.0, 1.0};
  const auto start = std::chrono::steady_clock::now();
  const auto u = problem->utility(params, 1);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("mnist-mlp1-sgd, 1 epoch, %d repeats on %d thread(s): %.1f s, accuracy %.4f, peak RSS %.1f MiB\n",
              repeats, threads, seconds_since(start), u.utility, static_cast<double>(usage.ru_maxrss) / 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  try {
    if (argc > 1 && std::string(argv[1]) == "--memory") {
      memory(argc > 2 ? std::atoi(argv[2]) : cores, argc > 3 ? std::atoi(argv[3]) : 10, argc > 4 ? argv[4] : "");
      return 0;
    }
    std::vector<int> threads;
    if (argc > 1) {
      threads = parse_threads(argv[1]);
    } else {
      for (int t = 1; t <= cores; t *= 2) threads.push_back(t);
    }
    throughput(threads, argc > 2 ? std::atoi(argv[2]) : 10, argc > 3 ? argv[3] : "",
               argc > 4 ? std::max(1, std::atoi(argv[4])) : 3);
  } catch (const std::exception& e) {
    std::printf("skipped: %s\n", e.what());
  }
}
