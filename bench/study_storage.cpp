// Storage overhead of a study per evaluation: the two transactions every evaluation costs (insert
// as running with the explorer state; complete with its results) in WAL mode, for evaluations
// shorter than 1 s (synchronous=NORMAL) and for longer ones (completion fsynced, synchronous=FULL);
// then evaluations that carry 63 intermediate results (observe=every-epoch of a 64-epoch training),
// stored in the evaluation's own transaction. Prints mean, p95 and max milliseconds per evaluation.
//   build/bench_study_storage [evaluations] [directory]
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "dpareto/study/study_database.hpp"

using namespace dpareto::study;

namespace {

void measure(int n, const std::filesystem::path& dir, double evaluation_seconds, int intermediate = 0) {
  const auto path = (dir / ("bench_study_storage_" + std::to_string(::getpid()) + ".db")).string();
  const StudyIdentity identity{"bench", nlohmann::json::object(), {{"parameters", nlohmann::json::array()}}};
  RunInfo info;
  info.problem = "bench";
  info.method = "dpareto";
  info.parameter_names = {"a", "b", "c"};
  std::vector<double> ms;
  {
    auto db = StudyDatabase::create(path, identity, info, {{"budget", n}});
    // An explorer state of realistic size: the ask counter and two GPs' hyperparameters.
    nlohmann::json state = {
        {"asks", 0},
        {"epsilon_gp", {{"log_lengthscales", {0.1, 0.2, 0.3}}, {"log_variance", 0.5}, {"log_noise", -9}}},
        {"utility_gp", {{"log_lengthscales", {0.4, 0.5, 0.6}}, {"log_variance", 0.7}, {"log_noise", -3}}}};
    for (int i = 0; i < n; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      state["asks"] = i + 1;
      const int trial = db.begin_trial("bo", {0.1 * i, 2.0 + i, 1e-3 * i}, 1234567890123ULL + i, state);
      EvaluationRecord r;
      r.status = EvaluationStatus::ok;
      r.epsilon = 0.5 + i;
      r.delta = 1e-5;
      r.utility = r.utility_min = r.utility_max = 0.8;
      r.seconds = evaluation_seconds;
      const EvaluationRecord measured = r;
      for (int e = 1; e <= intermediate; ++e) {
        EvaluationRecord& m = r.intermediate.emplace_back(measured);
        m.params = {double(e), 2.0 + i, 1e-3 * i};
        m.epsilon = r.epsilon * e / (intermediate + 1);
      }
      db.finish_trial(trial, r, state);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  double mean = 0;
  for (double v : ms) mean += v / n;
  std::sort(ms.begin(), ms.end());
  std::cout << "evaluations of " << evaluation_seconds << " s ("
            << (evaluation_seconds >= 1 ? "completion fsynced" : "synchronous=NORMAL")
            << (intermediate > 0 ? ", " + std::to_string(intermediate) + " intermediate results each" : std::string())
            << "): mean " << mean
            << " ms, p95 " << ms[static_cast<std::size_t>(0.95 * (n - 1))] << " ms, max " << ms.back()
            << " ms per evaluation\n";
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::stoi(argv[1]) : 500;
  const std::filesystem::path dir = argc > 2 ? argv[2] : ".";
  std::cout << "study storage overhead, " << n << " evaluations in " << std::filesystem::absolute(dir) << "\n";
  measure(n, dir, 0.01);
  measure(n, dir, 12.5);
  measure(n / 10, dir, 12.5, 63);
  return 0;
}
