#include "dpareto/problems/svt_problem.hpp"

#include <algorithm>
#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/privacy/svt.hpp"
#include "dpareto/problems/registry.hpp"

namespace dpareto::problems {
namespace {

// Laplace(0, scale) by inversion of a uniform on (−1/2, 1/2). Exploration only: the SVT problem
// measures utility, it releases nothing.
double laplace(double scale, Rng& rng) {
  const double u = std::uniform_real_distribution<double>(-0.5, 0.5)(rng);
  return -scale * std::copysign(1.0, u) * std::log1p(-2.0 * std::abs(u));
}

space::Space svt_space(space::Scale bound_scale = space::Scale::log) {
  space::Parameter bound{"bound", space::Kind::integer, bound_scale, 1, 30, std::nullopt};
  space::Parameter noise{"noise", space::Kind::continuous, space::Scale::log, 1e-2, 1e2, std::nullopt};
  return space::Space({bound, noise});
}

}  // namespace

std::vector<int> run_sparse_vector(const std::vector<int>& answers, int bound, double noise, Rng& rng) {
  // DPareto Alg. 1: the noise b is split as b1 = b / (1 + (2C)^{1/3}) on the threshold and
  // b2 = b − b1 on each answer (Lyu et al. 2017, Sec. 4.2 budget allocation); threshold 1/2.
  const double b1 = noise / (1.0 + std::cbrt(2.0 * bound));
  const double b2 = noise - b1;
  const double rho = laplace(b1, rng);
  std::vector<int> w(answers.size(), 0);
  int count = 0;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const double nu = laplace(b2, rng);
    if (answers[i] + nu >= 0.5 + rho) {
      w[i] = 1;
      if (++count >= bound) break;
    }
  }
  return w;
}

double f1_score(const std::vector<int>& truth, const std::vector<int>& predicted) {
  int tp = 0, fp = 0, fn = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    tp += truth[i] && predicted[i];
    fp += !truth[i] && predicted[i];
    fn += truth[i] && !predicted[i];
  }
  return tp == 0 ? 0.0 : 2.0 * tp / (2.0 * tp + fp + fn);
}

SvtProblem::SvtProblem(SvtSettings settings) : settings_(settings), space_(svt_space(settings.bound_scale)) {
  if (settings_.queries < 1)
    throw InputError("svt: queries must be at least 1, got " + std::to_string(settings_.queries));
  if (settings_.true_queries < 0 || settings_.true_queries > settings_.queries)
    throw InputError("svt: true_queries must be in [0, queries=" + std::to_string(settings_.queries) + "], got " +
                     std::to_string(settings_.true_queries));
  if (settings_.repeats < 1)
    throw InputError("svt: repeats must be at least 1, got " + std::to_string(settings_.repeats));
}

double SvtProblem::privacy(const space::Params& params) const {
  return privacy::svt_epsilon(params.at(0), params.at(1));
}

UtilityResult SvtProblem::utility(const space::Params& params, std::uint64_t seed) const {
  // Range-checked before the conversion (1e300 used to come out as "got 0"): the value as given.
  if (!(params.at(0) >= 1 && params.at(0) <= 1e9))
    throw InputError("svt: bound=" + format_number(params.at(0)) + " must be in [1, 1e9]");
  const int bound = static_cast<int>(std::lround(params.at(0)));
  const double noise = params.at(1);
  if (!(noise > 0)) throw InputError("svt: noise must be positive");
  Rng rng(seed);
  std::vector<int> answers(settings_.queries, 0);
  std::fill(answers.begin(), answers.begin() + settings_.true_queries, 1);
  UtilityResult result{0, 1, 0, "", {}, {}};
  for (int r = 0; r < settings_.repeats; ++r) {
    std::shuffle(answers.begin(), answers.end(), rng);
    const double f1 = f1_score(answers, run_sparse_vector(answers, bound, noise, rng));
    result.utility += f1 / settings_.repeats;
    result.utility_min = std::min(result.utility_min, f1);
    result.utility_max = std::max(result.utility_max, f1);
  }
  result.utility = std::clamp(result.utility, result.utility_min, result.utility_max);
  return result;
}

ReferenceSpec SvtProblem::default_reference() const {
  // The SVT trade-off lives at ε ≈ 20–500: measure it on a log axis against (1000, 1).
  return ReferenceSpec{1000, 1, HvAxis::log10, 1e-2};
}

std::map<std::string, std::string> SvtProblem::settings() const {
  return {{"queries", std::to_string(settings_.queries)},
          {"true_queries", std::to_string(settings_.true_queries)},
          {"repeats", std::to_string(settings_.repeats)}};
}

namespace {
std::vector<std::string> svt_options() {
  return {"queries", "true_queries", "repeats", "bound_scale"};
}

std::unique_ptr<Problem> make_svt_problem(const ProblemOptions& options) {
  reject_unknown_options(options, svt_options(), "svt");
  SvtSettings s;
  s.queries = option_int(options, "queries", s.queries);
  s.true_queries = option_int(options, "true_queries", s.true_queries);
  s.repeats = option_int(options, "repeats", s.repeats);
  // Not among settings(): the space, which a study's identity compares, says it.
  const auto scale = option_string(options, "bound_scale", "log");
  if (scale != "log" && scale != "linear")
    throw InputError("svt: bound_scale=" + printable(scale) + ": expected log or linear");
  s.bound_scale = scale == "log" ? space::Scale::log : space::Scale::linear;
  return std::make_unique<SvtProblem>(s);
}

const ProblemRegistration svt_problem_registration({"svt", "sparse vector technique (DPareto Alg. 1): bound C, noise b",
                                                    make_svt_problem, svt_space().parameters(), svt_options()});
}  // namespace

}  // namespace dpareto::problems
