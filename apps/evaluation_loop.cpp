#include "evaluation_loop.hpp"

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "dpareto/core/error.hpp"
#include "problem_flags.hpp"

namespace dpareto::apps {

std::uint64_t evaluation_seed(std::uint64_t run_seed, int id) {
  return derive_seed(run_seed ^ 0x6576616C75617465ULL, static_cast<std::uint64_t>(id));
}

void run_evaluation_loop(bo::Explorer& explorer, const problems::Problem& problem, const LoopSettings& settings,
                         const std::function<void(const study::EvaluationRecord&)>& on_complete) {
  if (settings.workers < 1) throw InputError("--workers must be at least 1, got " + std::to_string(settings.workers));
  struct Issued {
    space::Params params;
    std::string phase;
    std::uint64_t seed;
  };
  struct Done {
    int id;
    problems::Evaluation evaluation;
  };
  std::mutex mutex;
  std::condition_variable finished;
  std::deque<Done> done;
  std::map<int, Issued> running;
  std::vector<std::thread> threads;
  // Joins every worker on any exit (an exception from on_complete included) while the state they
  // reference is still alive.
  struct Joiner {
    std::vector<std::thread>& threads;
    ~Joiner() {
      for (auto& t : threads)
        if (t.joinable()) t.join();
    }
  } joiner{threads};
  int next_id = settings.first_id;
  int remaining = settings.budget - static_cast<int>(explorer.observations().size());
  bool exhausted = false;

  while (true) {
    while (!exhausted && remaining > 0 && static_cast<int>(running.size()) < settings.workers) {
      std::vector<space::Params> pending;
      for (const auto& [id, issued] : running) pending.push_back(issued.params);
      auto suggestion = explorer.ask(pending);
      if (!suggestion) {
        exhausted = true;
        break;
      }
      const int id = next_id++;
      --remaining;
      Issued issued{suggestion->params, suggestion->phase, evaluation_seed(settings.seed, id)};
      running[id] = issued;
      threads.emplace_back([&, id, issued] {
        auto evaluation = problem.evaluate(issued.params, issued.seed);
        std::lock_guard<std::mutex> lock(mutex);
        done.push_back({id, std::move(evaluation)});
        finished.notify_one();
      });
    }
    if (running.empty()) break;
    std::deque<Done> arrived;
    {
      std::unique_lock<std::mutex> lock(mutex);
      finished.wait(lock, [&] { return !done.empty(); });
      arrived.swap(done);
    }
    for (auto& d : arrived) {
      const Issued issued = running.at(d.id);
      running.erase(d.id);
      explorer.tell({issued.params, d.evaluation.ok, d.evaluation.epsilon, d.evaluation.utility});
      on_complete(to_record(d.id, issued.phase, issued.params, d.evaluation, issued.seed));
    }
  }
}

}  // namespace dpareto::apps
