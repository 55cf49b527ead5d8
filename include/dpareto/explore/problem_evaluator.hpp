#pragma once
// A problems::Problem as the study::Evaluator of a study run (and of `dpareto exact`).
#include "dpareto/pareto/objectives.hpp"
#include "dpareto/problems/problem.hpp"
#include "dpareto/study/study_runner.hpp"

namespace dpareto::explore {

// Runs Problem::evaluate and returns its outcome as a record (status, measurements, seconds,
// message). The problem must outlive the evaluator. The objectives beyond (ε, error) take their
// values from the evaluation's `further` measurements: one it did not measure, or one outside its
// transform's domain (a log objective's 0), fails the evaluation naming it; intermediate results
// that lack one are not recorded (the message says so).
study::Evaluator problem_evaluator(const problems::Problem& problem,
                                   const pareto::Objectives& objectives = pareto::Objectives::privacy_utility());

}  // namespace dpareto::explore
