#include "dpareto/problems/output_perturbation_problem.hpp"

#include <algorithm>
#include <numeric>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/parallel_runs.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/learn/output_perturbation.hpp"

namespace dpareto::problems {
namespace {

learn::Dataset prepare(const learn::Dataset& d) {
  learn::Dataset out = d.with_constant_feature();
  out.normalize_rows();
  return out;
}

std::vector<std::string> output_perturbation_options() {
  return {"train_subset", "repeats", "data_dir", "threads"};
}

std::vector<space::Parameter> output_perturbation_parameters() {
  using space::Kind;
  using space::Scale;
  return {{"regularization", Kind::continuous, Scale::log, 1e-4, 1, {}},
          {"noise", Kind::continuous, Scale::log, 0.1, 10, {}}};
}

learn::OutputPerturbationConfig config_of(const space::Params& params) {
  if (params.size() != 2) throw InputError("adult-logreg-outpert: expected 2 parameters");
  return {params[0], params[1], 10};
}

}  // namespace

OutputPerturbationProblem::OutputPerturbationProblem(const ProblemOptions& options) {
  reject_unknown_options(options, output_perturbation_options(), name());
  const int subset = option_int(options, "train_subset", 0);
  repeats_ = option_int(options, "repeats", 10);
  if (repeats_ > 10000) throw InputError("option repeats=" + std::to_string(repeats_) + ": at most 10000");
  threads_ = option_threads(options);
  const std::string data_dir = option_string(options, "data_dir", "");
  if (subset < 0) throw InputError("option train_subset=" + std::to_string(subset) + ": expected >= 0 (0 = all)");
  if (repeats_ < 1) throw InputError("option repeats=" + std::to_string(repeats_) + ": expected >= 1");
  const auto dir = learn::resolve_data_dir(data_dir);
  learn::Split raw = learn::load_adult(dir);
  if (subset > 0 && subset < raw.train.size()) {
    // The first N examples, so every evaluation trains on the same ones.
    std::vector<int> rows(static_cast<std::size_t>(subset));
    std::iota(rows.begin(), rows.end(), 0);
    raw.train = raw.train.subset(rows);
  }
  data_ = {prepare(raw.train), prepare(raw.test), raw.train_files};
  space_ = space::Space(output_perturbation_parameters());
  settings_ = {{"model", "logreg (output perturbation, Wu et al. 2017 Alg. 2)"},
               {"dataset", "adult (a9a), bias feature appended, rows L2-normalized"},
               {"data_dir", dir.string()},
               {"train_size", std::to_string(data_.train.size())},
               {"test_size", std::to_string(data_.test.size())},
               {"train_subset", subset > 0 ? std::to_string(subset) + " (the first N examples)" : "all"},
               {"passes", "10"},
               {"repeats", std::to_string(repeats_)},
               {"threads", std::to_string(threads_)},
               {"delta", format_number(delta())}};
}

double OutputPerturbationProblem::privacy(const space::Params& params) const {
  return learn::output_perturbation_epsilon(config_of(params), data_.train.size(), delta());
}

std::optional<double> OutputPerturbationProblem::baseline_utility() const {
  return data_.test.label_fraction(data_.train.majority_class());
}

UtilityResult OutputPerturbationProblem::utility(const space::Params& params, std::uint64_t seed) const {
  const auto cfg = config_of(params);
  std::vector<double> acc(static_cast<std::size_t>(repeats_));
  run_in_parallel(threads_, repeats_, [&](int r, int) {
    const auto w = learn::train_output_perturbation(data_.train, cfg, derive_seed(seed, static_cast<std::uint64_t>(r)));
    acc[static_cast<std::size_t>(r)] = learn::linear_accuracy(w, data_.test);
  });
  const double lo = *std::min_element(acc.begin(), acc.end()), hi = *std::max_element(acc.begin(), acc.end());
  return {mean_within_range(acc, lo, hi), lo, hi, "", {}, {}};
}

namespace {
const ProblemRegistration output_perturbation_problem_registration(
    {"adult-logreg-outpert",
     "output-perturbation logistic regression on Adult (DPareto Sec. 2.2; Wu et al. 2017 Alg. 2)",
     [](const ProblemOptions& options) { return std::make_unique<OutputPerturbationProblem>(options); },
     output_perturbation_parameters(), output_perturbation_options()});
}  // namespace

}  // namespace dpareto::problems
