#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "dpareto/core/error.hpp"
#include "dpareto/core/worker_slot.hpp"
#include "dpareto/study/storage_registry.hpp"
#include "dpareto/study/study_runner.hpp"
#include "toy_study.hpp"

using namespace dpareto;
using namespace dpareto::study;
using dpareto::test::identity_of;
using dpareto::test::one_parameter;

namespace {

// A back-end in a few lines: trials in a map shared by "hosts" (the location names the study), with
// claims refused for trials another worker holds. What a PostgreSQL back-end would do with rows.
struct SharedStudy {
  StudyIdentity identity;
  RunInfo info;
  nlohmann::json config, state;
  std::vector<Trial> trials;
  std::set<int> held_elsewhere;  // trials another live worker is evaluating
};
std::map<std::string, SharedStudy>& shared_studies() {
  static std::map<std::string, SharedStudy> studies;
  return studies;
}

class MemoryStorage : public Storage {
 public:
  explicit MemoryStorage(std::string location) : location_(std::move(location)), s_(shared_studies().at(location_)) {}
  const std::string& location() const override { return location_; }
  const StudyIdentity& identity() const override { return s_.identity; }
  const RunInfo& run_info() const override { return s_.info; }
  const nlohmann::json& config() const override { return s_.config; }
  const nlohmann::json& explorer_state() const override { return s_.state; }
  const std::vector<Trial>& trials() const override { return s_.trials; }
  int begin_trial(const std::string& phase, const std::vector<double>& params, std::uint64_t seed,
                  const nlohmann::json& state) override {
    Trial t;
    t.trial = static_cast<int>(s_.trials.size());
    t.record.phase = phase;
    t.record.status = EvaluationStatus::running;
    t.record.params = params;
    t.record.seed = seed;
    t.unfinished_starts = 1;
    s_.trials.push_back(t);
    s_.state = state;
    return t.trial;
  }
  void restart_trial(int trial) override {
    ++restarts[trial];
    ++s_.trials.at(static_cast<std::size_t>(trial)).unfinished_starts;
  }
  void release_trial(int trial) override { --s_.trials.at(static_cast<std::size_t>(trial)).unfinished_starts; }
  const EvaluationRecord& finish_trial(int trial, const EvaluationRecord& result,
                                       const nlohmann::json& state) override {
    auto& r = s_.trials.at(static_cast<std::size_t>(trial)).record;
    const auto phase = r.phase;
    const auto params = r.params;
    const auto seed = r.seed;
    r = result;
    r.phase = phase;
    if (result.params.empty()) r.params = params;  // else the setting a stopped training measured
    r.seed = seed;
    r.id = static_cast<int>(completed().size()) + 1;
    r.intermediate.clear();
    s_.trials.at(static_cast<std::size_t>(trial)).unfinished_starts = 0;
    s_.state = state;
    const EvaluationRecord evaluation = r;
    int id = evaluation.id;
    if (result.ok())
      for (const auto& measured : result.intermediate) {
        Trial t;
        t.trial = static_cast<int>(s_.trials.size());
        t.record = intermediate_of(measured, evaluation);
        t.record.id = ++id;
        s_.trials.push_back(std::move(t));
      }
    return s_.trials.at(static_cast<std::size_t>(trial)).record;
  }
  void set_explorer_state(const nlohmann::json& state) override { s_.state = state; }
  void set_run_info(const RunInfo& info) override { s_.info = info; }
  bool claim_trial(int trial) override { return !s_.held_elsewhere.count(trial); }
  std::map<int, int> restarts;

 private:
  std::string location_;
  SharedStudy& s_;
};

const StorageRegistration memory_backend(
    {"memtest", [](const std::string& location, const StorageOptions&) { return shared_studies().count(location) > 0; },
     [](const std::string& location, const StudyIdentity& identity, const RunInfo& info, const nlohmann::json& config,
        const StorageOptions&) {
       if (shared_studies().count(location)) throw InputError("study " + location + ": already exists");
       shared_studies()[location] = SharedStudy{identity, info, config, nullptr, {}, {}};
       return std::make_unique<MemoryStorage>(location);
     },
     [](const std::string& location, StorageAccess, const StorageOptions&) {
       if (!shared_studies().count(location)) throw InputError("study " + location + ": no such study");
       return std::make_unique<MemoryStorage>(location);
     }});

class SequenceProposer : public Proposer {
 public:
  std::optional<Proposal> ask(const std::vector<std::vector<double>>&) override {
    return Proposal{{static_cast<double>(asks_++)}, "random"};
  }
  void tell(const EvaluationRecord& record) override { told.push_back(record); }
  nlohmann::json state() const override { return {{"asks", asks_}}; }
  void restore_state(const nlohmann::json& state) override { asks_ = state.at("asks").get<int>(); }
  std::vector<EvaluationRecord> told;

 private:
  int asks_ = 0;
};

EvaluationRecord square(const std::vector<double>& p, std::uint64_t, const GoOn& = {}) {
  EvaluationRecord r;
  r.status = EvaluationStatus::ok;
  r.epsilon = p[0] * p[0];
  r.utility = 0.5;
  return r;
}

}  // namespace

TEST_CASE("storage registry: a location's scheme picks the back-end; a path is an SQLite file") {
  CHECK(&storage_backend("memtest://a") != &storage_backend("/tmp/x.db"));
  CHECK(storage_backend("/tmp/x.db").scheme.empty());
  CHECK(storage_backend("nosuch://x").scheme.empty());  // unknown schemes stay file paths, as before
  CHECK_FALSE(storage_exists("memtest://registry"));
}

TEST_CASE("storage: the runner records, resumes and extends a study through any back-end") {
  const std::string location = "memtest://runner";
  {
    auto storage = open_or_create_study(location, identity_of("toy"), one_parameter(), {{"method", "random"}}, true);
    SequenceProposer proposer;
    StudyRunner runner(*storage, proposer, square, {4, 1, 3, true});
    runner.run([](std::span<const EvaluationRecord>) {});
    CHECK(storage->completed().size() == 4);
  }
  auto storage = open_or_create_study(location, identity_of("toy"), one_parameter(), {{"method", "random"}}, false);
  CHECK_THROWS_WITH_AS(
      open_or_create_study(location, identity_of("other"), one_parameter(), {{"method", "random"}}, false),
      doctest::Contains("created for problem 'toy'"), InputError);
  SequenceProposer proposer;
  StudyRunner runner(*storage, proposer, square, {6, 1, 3, true});
  std::vector<EvaluationRecord> seen;
  runner.run([&](std::span<const EvaluationRecord> rs) { seen.insert(seen.end(), rs.begin(), rs.end()); });
  REQUIRE(seen.size() == 6);
  for (int i = 0; i < 6; ++i) {
    CHECK(seen[static_cast<std::size_t>(i)].id == i + 1);
    CHECK(seen[static_cast<std::size_t>(i)].params == std::vector<double>{static_cast<double>(i)});
  }
}

TEST_CASE("runner: each running evaluation has its own worker slot in 0..workers-1 (the oracle's {worker})") {
  const std::string location = "memtest://slots";
  auto storage = open_or_create_study(location, identity_of("toy"), one_parameter(), {{"method", "random"}}, true);
  SequenceProposer proposer;
  std::mutex mutex;
  std::multiset<int> busy;
  std::set<int> seen;
  bool clash = false;
  auto evaluate = [&](const std::vector<double>& p, std::uint64_t seed, const GoOn&) {
    const int slot = current_worker_slot();
    {
      const std::lock_guard<std::mutex> lock(mutex);
      clash = clash || busy.count(slot) > 0 || slot < 0 || slot >= 3;
      busy.insert(slot);
      seen.insert(slot);
    }
    // Uneven lengths, so that slots free up out of order.
    std::this_thread::sleep_for(std::chrono::milliseconds(5 + 7 * (static_cast<int>(p[0]) % 3)));
    {
      const std::lock_guard<std::mutex> lock(mutex);
      busy.erase(busy.find(slot));
    }
    return square(p, seed);
  };
  StudyRunner runner(*storage, proposer, evaluate, {24, 3, 3, true});
  runner.run([](std::span<const EvaluationRecord>) {});
  CHECK(storage->completed().size() == 24);
  CHECK_FALSE(clash);
  CHECK(seen == std::set<int>{0, 1, 2});
  CHECK(current_worker_slot() == 0);  // the caller's thread is in no slot
}

TEST_CASE("storage: a trial left running is evaluated again only when its claim is granted") {
  const std::string location = "memtest://claims";
  auto created = create_storage(location, identity_of("toy"), one_parameter(), {});
  const int mine = created->begin_trial("random", {10}, 1, {{"asks", 1}});
  const int theirs = created->begin_trial("random", {11}, 2, {{"asks", 2}});
  shared_studies().at(location).held_elsewhere.insert(theirs);
  auto opened = open_storage(location, StorageAccess::read_write);
  auto& storage = static_cast<MemoryStorage&>(*opened);
  SequenceProposer proposer;
  StudyRunner runner(storage, proposer, square, {1, 1, 3, true});
  runner.run([](std::span<const EvaluationRecord>) {});
  CHECK(storage.restarts[mine] == 1);
  CHECK(storage.restarts.count(theirs) == 0);
  CHECK(storage.trials().at(static_cast<std::size_t>(mine)).record.status == EvaluationStatus::ok);
  CHECK(storage.trials().at(static_cast<std::size_t>(theirs)).record.status == EvaluationStatus::running);
}

namespace {

// An evaluation of x that also measured the settings x − 0.5 and x − 0.25 on the way (issue 18 item
// 2's earlier epochs), with ε growing towards the final one.
EvaluationRecord square_with_earlier_results(const std::vector<double>& p, std::uint64_t seed, const GoOn& = {}) {
  return dpareto::test::with_earlier_results(square(p, seed), {{p[0] - 0.5}, {p[0] - 0.25}});
}

}  // namespace

TEST_CASE("runner: an intermediate result left running by a crash is recorded failed on resume, not evaluated") {
  const std::string location = "memtest://intermediate-cut-off";
  auto created = create_storage(location, identity_of("toy"), one_parameter(), {});
  const int evaluation = created->begin_trial("random", {2}, 7, {{"asks", 1}});
  created->finish_trial(evaluation, square({2}, 7), {{"asks", 1}});
  const int cut = created->begin_trial(kIntermediatePhase, {1.5}, 7, {{"asks", 1}});
  auto storage = open_storage(location, StorageAccess::read_write);
  SequenceProposer proposer;
  int evaluated = 0;
  StudyRunner runner(*storage, proposer,
                     [&](const std::vector<double>& p, std::uint64_t seed, const GoOn&) {
                       ++evaluated;
                       return square(p, seed);
                     },
                     {2, 1, 3, true});
  runner.run([](std::span<const EvaluationRecord>) {});
  CHECK(evaluated == 1);  // the budget's second evaluation only
  const auto& left = storage->trials().at(static_cast<std::size_t>(cut)).record;
  CHECK(left.status == EvaluationStatus::failed);
  CHECK(left.message.find("recording was cut off") != std::string::npos);
  CHECK(evaluation_count(storage->completed()) == 2);
  CHECK(failed_evaluation_count(storage->completed()) == 0);  // no evaluation failed
}

TEST_CASE("runner: intermediate results are stored after their evaluation and count against no budget") {
  const auto sqlite = (std::filesystem::temp_directory_path() / "dpareto-intermediate-test.db").string();
  std::filesystem::remove(sqlite);
  for (const std::string& location : {std::string("memtest://intermediate"), sqlite}) {
    CAPTURE(location);
    {
      auto storage = open_or_create_study(location, identity_of("toy"), one_parameter(), {{"method", "random"}}, true);
      SequenceProposer proposer;
      StudyRunner runner(*storage, proposer, square_with_earlier_results, {3, 1, 3, true});
      std::vector<EvaluationRecord> seen;
      runner.run([&](std::span<const EvaluationRecord> rs) { seen.insert(seen.end(), rs.begin(), rs.end()); });
      REQUIRE(seen.size() == 9);  // 3 evaluations of the budget, each followed by its 2 results
      CHECK(evaluation_count(seen) == 3);
      CHECK(proposer.told.size() == 9);
      for (int e = 0; e < 3; ++e) {
        const auto& evaluation = seen[static_cast<std::size_t>(3 * e)];
        CHECK_FALSE(evaluation.is_intermediate());
        CHECK(evaluation.params == std::vector<double>{static_cast<double>(e)});
        for (int k = 1; k <= 2; ++k) {
          const auto& result = seen[static_cast<std::size_t>(3 * e + k)];
          CHECK(result.is_intermediate());
          CHECK(result.ok());
          CHECK(result.id == evaluation.id + k);
          CHECK(result.seed == evaluation.seed);  // the evaluation's own training produced it
          CHECK(result.params == std::vector<double>{e - (k == 1 ? 0.5 : 0.25)});
          CHECK(result.epsilon == doctest::Approx(evaluation.epsilon * k / 3));
          CHECK(result.message == "measured during evaluation " + std::to_string(evaluation.id));
        }
      }
      const auto groups = grouped_by_evaluation(storage->completed());
      REQUIRE(groups.size() == 3);
      CHECK(groups[1].size() == 3);
    }
    // A resume to a larger budget runs only the evaluations missing from it.
    auto storage = open_or_create_study(location, identity_of("toy"), one_parameter(), {{"method", "random"}}, false);
    SequenceProposer proposer;
    int evaluated = 0;
    StudyRunner runner(*storage, proposer,
                       [&](const std::vector<double>& p, std::uint64_t seed, const GoOn&) {
                         ++evaluated;
                         return square_with_earlier_results(p, seed);
                       },
                       {4, 1, 3, true});
    runner.run([](std::span<const EvaluationRecord>) {});
    CHECK(evaluated == 1);
    CHECK(evaluation_count(storage->completed()) == 4);
    CHECK(storage->completed().size() == 12);
  }
  std::filesystem::remove(sqlite);
}
