// Nothing lost: kills `dpareto explore --study` with SIGKILL at random moments of a run with a fast
// external oracle (experiments/crash_test_oracle.py, which also keeps a ledger of every evaluation
// it completed), resumes it each time, and checks after the final resume that
//   - every evaluation the study held completed after any kill is present exactly once, unchanged;
//   - every evaluation the oracle completed is recorded exactly once (re-runs of evaluations a kill
//     interrupted before they were recorded reuse their trial and seed);
//   - the study holds exactly `budget` evaluations and passes PRAGMA integrity_check;
//   - the evaluations equal those of an uninterrupted run with the same seed (with --crash-limit 0:
//     an evaluation that two kills interrupted is re-run, not recorded as failed).
//   build/bench_study_crash [kills=20] [budget=120] [seed=1] [dpareto CLI, default: next to this program]
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dpareto/study/study_database.hpp"

namespace fs = std::filesystem;
using namespace dpareto::study;

namespace {

pid_t spawn(const std::vector<std::string>& args, const fs::path& log) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

std::string integrity(const fs::path& path) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, nullptr);
  const std::string result =
      sqlite3_step(st) == SQLITE_ROW ? reinterpret_cast<const char*>(sqlite3_column_text(st, 0)) : "no answer";
  sqlite3_finalize(st);
  sqlite3_close(db);
  return result;
}

bool same(const EvaluationRecord& a, const EvaluationRecord& b) {
  return a.id == b.id && a.status == b.status && a.params == b.params && a.seed == b.seed && a.epsilon == b.epsilon &&
         a.utility == b.utility && a.message == b.message;
}

}  // namespace

int main(int argc, char** argv) {
  const int kills = argc > 1 ? std::stoi(argv[1]) : 20;
  const int budget = argc > 2 ? std::stoi(argv[2]) : 120;
  const std::string seed = argc > 3 ? argv[3] : "1";
  const fs::path cli = argc > 4 ? fs::path(argv[4]) : fs::read_symlink("/proc/self/exe").parent_path() / "dpareto";
  const fs::path source = DPARETO_SOURCE_DIR;
  const fs::path dir = fs::temp_directory_path() / ("dpareto_crash_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path ledger = dir / "ledger.txt", log = dir / "explore.log";
  auto command = [&](const fs::path& study) {
    return std::vector<std::string>{cli.string(),
                                    "explore",
                                    "--study",
                                    study.string(),
                                    "--space",
                                    (source / "experiments/example_oracle_space.json").string(),
                                    "--oracle-cmd",
                                    "python3 " + (source / "experiments/crash_test_oracle.py").string() + " " +
                                        ledger.string() + " --lr {lr} --epochs {epochs} --noise {noise} --seed {seed}",
                                    "--budget",
                                    std::to_string(budget),
                                    "--seed",
                                    seed,
                                    "--init",
                                    "8",
                                    "--out",
                                    (dir / "out").string(),
                                    "--crash-limit",
                                    "0"};  // two kills may land in one evaluation: it must still be re-run, not failed
  };
  const fs::path study = dir / "crash.db";
  std::mt19937_64 rng(2024);
  std::uniform_int_distribution<int> moment_ms(100, 2000);
  std::map<int, EvaluationRecord> seen;  // completion id -> record, over all snapshots after kills
  int done_kills = 0, changed = 0, interrupted = 0;
  for (int k = 0; k < kills; ++k) {
    const pid_t pid = spawn(command(study), log);
    std::this_thread::sleep_for(std::chrono::milliseconds(moment_ms(rng)));
    if (::waitpid(pid, nullptr, WNOHANG) == pid) {
      std::cout << "run finished before kill " << k + 1 << "; raise the budget\n";
      break;
    }
    ::kill(pid, SIGKILL);
    wait_exit(pid);
    ++done_kills;
    if (!fs::exists(study)) continue;  // killed before the study was created
    const auto db = StudyDatabase::open(study.string(), StudyDatabase::Access::read_only);
    for (const auto& r : db.completed()) {
      const auto [it, inserted] = seen.emplace(r.id, r);
      if (!inserted && !same(it->second, r)) ++changed;
    }
    interrupted += static_cast<int>(db.trials().size() - db.completed().size());
    std::cout << "kill " << k + 1 << ": " << db.completed().size() << " completed, "
              << db.trials().size() - db.completed().size() << " left running\n";
  }
  const int final_status = wait_exit(spawn(command(study), log));
  const auto db = StudyDatabase::open(study.string(), StudyDatabase::Access::read_only);
  const auto final_records = db.completed();

  int missing = 0;
  for (const auto& [id, r] : seen)
    if (id > static_cast<int>(final_records.size()) || !same(final_records[id - 1], r)) ++missing;
  std::map<std::uint64_t, int> seed_count;
  for (const auto& r : final_records) ++seed_count[r.seed];
  int duplicated = 0;
  for (const auto& [s, n] : seed_count) duplicated += n > 1;
  std::ifstream in(ledger);
  std::string line;
  std::set<std::uint64_t> oracle_seeds;
  int oracle_runs = 0, unrecorded = 0;
  while (std::getline(in, line)) {
    ++oracle_runs;
    oracle_seeds.insert(std::stoull(line.substr(0, line.find(' '))));
  }
  for (auto s : oracle_seeds) unrecorded += seed_count.count(s) ? 0 : 1;

  // The same run without kills (the ledger is shared; it only ever gains lines).
  const fs::path reference = dir / "reference.db";
  const int reference_status = wait_exit(spawn(command(reference), log));
  const auto ref = StudyDatabase::open(reference.string(), StudyDatabase::Access::read_only).completed();
  int identical = 0;
  for (std::size_t i = 0; i < std::min(ref.size(), final_records.size()); ++i)
    identical += ref[i].params == final_records[i].params && ref[i].seed == final_records[i].seed &&
                 ref[i].epsilon == final_records[i].epsilon && ref[i].utility == final_records[i].utility;

  const std::string check = integrity(study);
  std::cout << "\nstudy crash test: " << done_kills << " SIGKILLs, budget " << budget << ", seed " << seed
            << "\n  evaluations completed before some kill: " << seen.size() << "; changed later: " << changed
            << "; missing or altered after the final resume: " << missing
            << "\n  evaluations a kill interrupted (left running, re-run on resume): " << interrupted
            << "\n  oracle runs: " << oracle_runs << " (" << oracle_runs - static_cast<int>(oracle_seeds.size())
            << " finished by the oracle but not yet recorded when killed, re-run); completed by the oracle but absent: "
            << unrecorded << "\n  final study: " << final_records.size() << " evaluations in " << db.trials().size()
            << " trials, seeds recorded twice: " << duplicated << ", exit status " << final_status
            << ", PRAGMA integrity_check: " << check
            << "\n  identical to an uninterrupted run with the same seed: " << identical << " of " << ref.size()
            << " evaluations (reference exit status " << reference_status << ")\n  files: " << dir << "\n";
  const bool ok = missing == 0 && changed == 0 && unrecorded == 0 && duplicated == 0 && final_status == 0 &&
                  static_cast<int>(final_records.size()) == budget && static_cast<int>(db.trials().size()) == budget &&
                  check == "ok";
  std::cout << (ok ? "NOTHING LOST" : "FAILED") << "\n";
  return ok ? 0 : 1;
}
