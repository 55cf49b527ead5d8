#pragma once
// The explore loop: ask the explorer, evaluate on up to `workers` threads at once (each with its
// own seed derived from the run seed and the evaluation id), tell results as they arrive.
#include <cstdint>
#include <functional>

#include "dpareto/bo/explorer.hpp"
#include "dpareto/problems/problem.hpp"
#include "dpareto/study/run_record.hpp"

namespace dpareto::apps {

struct LoopSettings {
  int budget = 0;        // total evaluations in the run (those already told count)
  int workers = 1;
  std::uint64_t seed = 0;
  int first_id = 1;      // id of the next evaluation
};

// Runs until `budget` evaluations have completed (or a grid is exhausted). `on_complete` is called
// on the calling thread for every finished evaluation, in completion order.
void run_evaluation_loop(bo::Explorer& explorer, const problems::Problem& problem, const LoopSettings& settings,
                         const std::function<void(const study::EvaluationRecord&)>& on_complete);

// The utility-oracle seed of evaluation `id` in a run seeded with `run_seed`.
std::uint64_t evaluation_seed(std::uint64_t run_seed, int id);

}  // namespace dpareto::apps
