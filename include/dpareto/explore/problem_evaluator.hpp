#pragma once
// A problems::Problem as the study::Evaluator of a study run (and of `dpareto exact`).
#include "dpareto/problems/problem.hpp"
#include "dpareto/study/study_runner.hpp"

namespace dpareto::explore {

// Runs Problem::evaluate and returns its outcome as a record (status, measurements, seconds,
// message). The problem must outlive the evaluator.
study::Evaluator problem_evaluator(const problems::Problem& problem);

}  // namespace dpareto::explore
