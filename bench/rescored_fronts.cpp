// bench_rescored_fronts: issue 18's fronts measured again with fresh seeds. A run's observed front
// keeps the luckiest of its noisy utilities (each a mean of R repeats), so its hypervolume is biased
// up, the more the more results it holds (an every-epoch run: thousands). For each pair of runs (the
// i-th of each arm, same seed): the first arm's front after all its evaluations and the second arm's
// after the evaluations that finished within SHARE of the first's training seconds (default 1/3,
// issue 18's bar); each front point's setting trained again with a seed of its own (a function of
// the setting, so a setting on both fronts gets the same fresh result), R repeats as the run had or
// --repeats; the hypervolume of each front's points observed and re-scored, and the paired
// difference (second − first) of the re-scored ones with a Student-t 95% interval over the pairs,
// on the linear and the log ε axis (the front is the same on both; the runs' reference and floor).
// The re-scored set still keeps the best of its fresh draws where points crowd, so the larger front
// keeps a little luck: --repeats above the runs' shrinks it. Built-in problems with the objectives
// (ε, error) only. Asserts nothing.
// Usage: bench_rescored_fronts [--share S] [--repeats R] [--threads T] [--seed N] RUN_DIR... -- RUN_DIR...
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpareto/core/mean_difference.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/explore/run_model.hpp"
#include "dpareto/study/run_record.hpp"

using namespace dpareto;

namespace {

struct Settings {
  double share = 1.0 / 3.0;
  std::string repeats;  // "": each run's own
  std::string threads = "1";
  std::uint64_t seed = 0x5E5C02EDULL;
};

// A run's records up to the last evaluation that finished within `seconds` of training (all of
// them for infinity), and the training seconds they took.
struct Prefix {
  std::vector<study::EvaluationRecord> records;
  int evaluations = 0;
  double seconds = 0;
};

Prefix prefix_within(const study::RunData& run, double seconds) {
  Prefix p;
  for (const auto& group : study::grouped_by_evaluation(run.records)) {
    double spent = p.seconds;
    for (const auto& r : group) spent += r.seconds;
    if (spent > seconds) break;
    p.seconds = spent;
    p.records.insert(p.records.end(), group.begin(), group.end());
    p.evaluations += group.front().is_intermediate() ? 0 : 1;
  }
  return p;
}

// The fresh seed of a setting: `base` chained with the bits of each parameter value.
std::uint64_t setting_seed(std::uint64_t base, const space::Params& params) {
  std::uint64_t seed = base;
  for (double value : params) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    seed = derive_seed(seed, bits);
  }
  return seed;
}

// A front: its records as observed and with every point's utility measured again.
struct Front {
  study::RunInfo info;
  int evaluations = 0;
  std::vector<study::EvaluationRecord> observed, rescored;
};

Front rescore_front(const study::RunData& run, const Prefix& prefix, const explore::RunProblem& rebuilt,
                    const Settings& settings) {
  Front f{run.info, prefix.evaluations, {}, {}};
  for (std::size_t i : study::run_front(prefix.records, run.info.objectives)) f.observed.push_back(prefix.records[i]);
  for (const auto& r : f.observed) {
    const space::Params params = rebuilt.params_of(r);
    const auto fresh = rebuilt.problem->utility(params, setting_seed(settings.seed, params));
    f.rescored.push_back(r);
    f.rescored.back().utility = fresh.utility;
  }
  return f;
}

double hypervolume_on(const std::string& axis, study::RunInfo info, const std::vector<study::EvaluationRecord>& front) {
  info.hv_axis = axis;
  return study::run_hypervolume(info, front);
}

study::RunData read_run(const std::string& directory) {
  auto run = study::read_run_directory(directory);
  if (run.info.objectives.size() != 2)
    throw std::runtime_error(directory + ": objectives beyond (epsilon, error) are not re-scored here");
  return run;
}

explore::RunProblem problem_of(const study::RunData& run, const std::string& directory, const Settings& settings) {
  problems::ProblemOptions overrides{{"threads", settings.threads}, {"observe", "final"}};
  if (!settings.repeats.empty()) overrides["repeats"] = settings.repeats;
  return explore::rebuild_run_problem(run, directory, overrides);
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

double number_argument(const std::string& flag, const std::string& value, double low, double high) {
  std::size_t used = 0;
  double x = 0;
  try {
    x = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || !(x >= low && x <= high))
    throw std::runtime_error(flag + " " + value + ": expected a number in [" + std::to_string(low) + ", " +
                             std::to_string(high) + "]");
  return x;
}

std::string whole_argument(const std::string& flag, const std::string& value) {
  const double x = number_argument(flag, value, 1, 1e6);
  if (x != std::floor(x)) throw std::runtime_error(flag + " " + value + ": expected a whole number");
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  Settings settings;
  std::vector<std::string> first, second;
  bool after_separator = false;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      const bool has_value = i + 1 < argc;
      if (arg == "--") {
        after_separator = true;
      } else if (arg == "--share" && has_value) {
        settings.share = number_argument(arg, argv[++i], 1e-6, 1);
      } else if (arg == "--repeats" && has_value) {
        settings.repeats = whole_argument(arg, argv[++i]);
      } else if (arg == "--threads" && has_value) {
        settings.threads = whole_argument(arg, argv[++i]);
      } else if (arg == "--seed" && has_value) {
        settings.seed = static_cast<std::uint64_t>(number_argument(arg, argv[++i], 0, 9e15));
      } else {
        (after_separator ? second : first).push_back(arg);
      }
    }
    if (first.empty() || first.size() != second.size())
      throw std::runtime_error("usage: bench_rescored_fronts [--share S] [--repeats R] [--threads T]"
                               " [--seed N] RUN_DIR... -- RUN_DIR... (as many on each side)");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_rescored_fronts: %s\n", e.what());
    return 2;
  }
  std::vector<Front> firsts, seconds;
  try {
    for (std::size_t i = 0; i < first.size(); ++i) {
      const auto run_a = read_run(first[i]), run_b = read_run(second[i]);
      const Prefix all = prefix_within(run_a, std::numeric_limits<double>::infinity());
      const Prefix within = prefix_within(run_b, settings.share * all.seconds);
      firsts.push_back(rescore_front(run_a, all, problem_of(run_a, first[i], settings), settings));
      seconds.push_back(rescore_front(run_b, within, problem_of(run_b, second[i], settings), settings));
      std::fprintf(stderr, "pair %zu of %zu re-scored\n", i + 1, first.size());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_rescored_fronts: %s\n", e.what());
    return 2;
  }
  std::printf("fronts re-scored with fresh seeds (%s repeats); the second arm's front within %.3f of the first's "
              "training seconds\n",
              settings.repeats.empty() ? "the runs' own" : settings.repeats.c_str(), settings.share);
  for (const std::string axis : {"linear", "log"}) {
    std::printf("\n%s epsilon axis\npair  first: evaluations  points  observed HV  re-scored | second: evaluations  "
                "points  observed HV  re-scored | re-scored second - first\n",
                axis.c_str());
    std::vector<double> first_minus_second, luck_first, luck_second;
    int second_ahead = 0;
    for (std::size_t i = 0; i < firsts.size(); ++i) {
      const Front &a = firsts[i], &b = seconds[i];
      const double a_seen = hypervolume_on(axis, a.info, a.observed), a_again = hypervolume_on(axis, a.info, a.rescored);
      const double b_seen = hypervolume_on(axis, b.info, b.observed), b_again = hypervolume_on(axis, b.info, b.rescored);
      first_minus_second.push_back(a_again - b_again);
      luck_first.push_back(a_seen - a_again);
      luck_second.push_back(b_seen - b_again);
      second_ahead += b_again >= a_again;
      std::printf("%4zu  %19d  %6zu  %11.4f  %9.4f | %19d  %6zu  %11.4f  %9.4f | %+.4f\n", i + 1, a.evaluations,
                  a.observed.size(), a_seen, a_again, b.evaluations, b.observed.size(), b_seen, b_again,
                  b_again - a_again);
    }
    std::printf("observed minus re-scored hypervolume (the fronts' luck), mean: first %.4f, second %.4f\n",
                mean(luck_first), mean(luck_second));
    if (firsts.size() < 2) continue;
    // The fixed 0 minus each (first − second): the mean of second − first, a one-sample t over pairs.
    const MeanDifference d = difference_from_fixed(0.0, first_minus_second);
    std::printf("re-scored second minus first: %+.4f (95%% CI %+.4f to %+.4f), t %.3g on %g df, p %.3g; second "
                "ahead or level in %d of %zu pairs\n",
                d.mean, d.low, d.high, d.t, d.degrees_of_freedom, d.p_value, second_ahead, firsts.size());
  }
  return 0;
}
