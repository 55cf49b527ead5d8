#pragma once
// Flags that select and configure a problem, shared by explore, evaluate and exact:
// --problem NAME, --set key=value (repeatable), and shortcuts for common problem options
// (--repeats, --train-subset, --max-epochs, --data-dir, --threads).
#include <memory>

#include "cli_options.hpp"
#include "dpareto/problems/problem.hpp"
#include "dpareto/problems/registry.hpp"

namespace dpareto::apps {

void add_problem_flags(po::options_description& options);
problems::ProblemOptions problem_options_from(const po::variables_map& vm);
std::unique_ptr<problems::Problem> make_problem_from(const po::variables_map& vm);

}  // namespace dpareto::apps
