#pragma once
// Built-in problems by name. Each problem's .cpp registers a factory with a static
// ProblemRegistration, so adding a problem never edits a shared file.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dpareto/problems/problem.hpp"

namespace dpareto::problems {

// Problem-specific knobs given on the command line as `--set key=value` or dedicated flags
// (e.g. "repeats" -> "50", "data_dir" -> "/path"). A factory must reject keys it does not know
// with InputError naming the key, and record the values it used in Problem::settings().
using ProblemOptions = std::map<std::string, std::string>;

using ProblemFactory = std::function<std::unique_ptr<Problem>(const ProblemOptions&)>;

struct ProblemInfo {
  std::string name;
  std::string summary;
  ProblemFactory make;
  // The hyperparameters and their domains under the default options (`dpareto problems` lists
  // them without loading any data); options such as max_epochs may narrow them.
  std::vector<space::Parameter> parameters = {};
  // The option keys its factory accepts (`--set key=value`), as `dpareto problems` lists them; the
  // factory rejects any other with reject_unknown_options(options, these keys, name).
  std::vector<std::string> options = {};
};

void register_problem(ProblemInfo info);
// Throws InputError listing the known names when `name` is unknown.
std::unique_ptr<Problem> make_problem(const std::string& name, const ProblemOptions& options = {});
std::vector<ProblemInfo> list_problems();

struct ProblemRegistration {
  explicit ProblemRegistration(ProblemInfo info) { register_problem(std::move(info)); }
};

// Helpers for factories: read an option with a default, failing with a one-line error that names
// the key and the bad text; and reject keys not in `known`.
int option_int(const ProblemOptions& options, const std::string& key, int fallback);
double option_double(const ProblemOptions& options, const std::string& key, double fallback);
std::string option_string(const ProblemOptions& options, const std::string& key, const std::string& fallback);
// The `threads` option: default this host's cores; 0, negative, or more than 64 threads per core
// of this host is an error naming the value.
int option_threads(const ProblemOptions& options);
void reject_unknown_options(const ProblemOptions& options, const std::vector<std::string>& known,
                            const std::string& problem_name);

}  // namespace dpareto::problems
