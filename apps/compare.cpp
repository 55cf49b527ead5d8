// dpareto compare RUN_DIR... --against RUN_DIR...: two sets of runs by hypervolume on one axis, with
// DPareto's Table 2 statistic (each run minus each run of the other set, 95% CI, t) and Welch's t.
#include <algorithm>
#include <iostream>

#include "cli_options.hpp"
#include "command.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/explore/run_comparison.hpp"
#include "dpareto/study/run_record.hpp"

namespace dpareto::apps {
namespace {

nlohmann::json to_json(const MeanDifference& d) {
  return {{"mean_difference", json_number(d.mean)},
          {"low", json_number(d.low)},
          {"high", json_number(d.high)},
          {"t", json_number(d.t)},
          {"degrees_of_freedom", json_number(d.degrees_of_freedom)},
          {"p_value", json_number(d.p_value)},
          {"level", json_number(d.level)}};
}

nlohmann::json to_json(const std::vector<explore::ComparedRun>& runs) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& r : runs)
    list.push_back({{"directory", r.directory},
                    {"problem", r.problem},
                    {"method", r.method},
                    {"evaluations", r.evaluations},
                    {"hypervolume", json_number(r.hypervolume)}});
  return list;
}

std::string interval_text(const MeanDifference& d) {
  return readable_number(d.mean) + " (" + readable_number(100 * d.level) + "% CI " + readable_number(d.low) + " to " +
         readable_number(d.high) + "), t " + readable_number(d.t) + " on " + readable_number(d.degrees_of_freedom) +
         " df, p " + readable_number(d.p_value);
}

void print_side(const std::string& name, const std::vector<explore::ComparedRun>& runs) {
  double low = runs.front().hypervolume, high = low, sum = 0;
  for (const auto& r : runs) {
    low = std::min(low, r.hypervolume);
    high = std::max(high, r.hypervolume);
    sum += r.hypervolume;
  }
  std::cout << "  " << name << " (" << runs.size() << (runs.size() == 1 ? " run" : " runs") << "): mean "
            << readable_number(sum / double(runs.size())) << ", min " << readable_number(low) << ", max "
            << readable_number(high) << "\n";
  for (const auto& r : runs)
    std::cout << "    " << r.directory << " (" << r.method << ", " << r.evaluations
              << " evaluations): " << readable_number(r.hypervolume) << "\n";
}

// CSV for scripts (experiments/dpareto): side,directory,method,evaluations,hypervolume, then the
// difference columns (empty where there is no test); the last row, side "welch", has only those.
void print_csv(const explore::RunComparison& c) {
  std::cout << "side,directory,method,evaluations,hypervolume,mean_difference,low,high,t,degrees_of_freedom,p_value\n";
  auto test_columns = [](const MeanDifference* d) {
    if (!d) return std::string(",,,,,");
    return format_number(d->mean) + "," + format_number(d->low) + "," + format_number(d->high) + "," +
           format_number(d->t) + "," + format_number(d->degrees_of_freedom) + "," + format_number(d->p_value);
  };
  for (std::size_t i = 0; i < c.runs.size(); ++i) {
    const auto& r = c.runs[i];
    std::cout << "runs," << study::csv_escape(r.directory) << "," << r.method << "," << r.evaluations << ","
              << format_number(r.hypervolume) << "," << test_columns(i < c.per_run.size() ? &c.per_run[i] : nullptr)
              << "\n";
  }
  for (const auto& r : c.against)
    std::cout << "against," << study::csv_escape(r.directory) << "," << r.method << "," << r.evaluations << ","
              << format_number(r.hypervolume) << "," << test_columns(nullptr) << "\n";
  std::cout << "welch,,,,," << test_columns(c.welch ? &*c.welch : nullptr) << "\n";
}

int run_compare(int argc, char** argv) {
  po::options_description options("compare options");
  options.add_options()("runs", po::value<std::vector<std::string>>()->required(), "run directories (e.g. DPareto's)")(
      "against", po::value<std::vector<std::string>>()->multitoken()->required(),
      "run directories to compare with (e.g. random sampling's), 2 or more for a t test")(
      "evaluations", po::value<std::size_t>()->default_value(0),
      "compare each run's first N evaluations (0: all of them)")(
      "split-against", po::value<std::size_t>()->default_value(0),
      "cut each --against run into consecutive parts of N evaluations, each compared as a run (the paper: "
      "5000 random samples in 19 parts of 256)")(
      "reference", po::value<std::string>(),
      "anti-ideal point EPSILON,ERROR[,FURTHER...], one value per objective (default: the first run's)")(
      "hv-axis", po::value<std::string>(), "linear | log: epsilon axis of the hypervolume (default: the first run's)")(
      "log-floor", po::value<double>(), "log axis: epsilon below this counts as this (default: the first run's)")(
      "level", po::value<double>()->default_value(0.95, "0.95"), "confidence level of the intervals")(
      "json", po::bool_switch(), "print the comparison as JSON")(
      "csv", po::bool_switch(), "print the comparison as CSV: one row per run, then a Welch row");
  const auto parsed = parse_command_line("dpareto compare RUN_DIR... --against RUN_DIR... [options]",
                                         "dpareto compare runs/svt --against runs/svt-random --split-against 64",
                                         options, argc, argv, {"runs"});
  if (!parsed) return 0;
  const auto& vm = *parsed;
  explore::ComparisonAxis axis;
  axis.evaluations = vm["evaluations"].as<std::size_t>();
  axis.split_against = vm["split-against"].as<std::size_t>();
  if (vm.count("reference")) axis.reference = parse_number_list(vm["reference"].as<std::string>(), "--reference");
  if (vm.count("hv-axis")) axis.hv_axis = vm["hv-axis"].as<std::string>();
  if (vm.count("log-floor")) axis.log_floor = vm["log-floor"].as<double>();
  const auto c = explore::compare_runs(vm["runs"].as<std::vector<std::string>>(),
                                       vm["against"].as<std::vector<std::string>>(), axis, vm["level"].as<double>());
  for (const auto& w : c.warnings) std::cerr << "dpareto compare: warning: " << w << "\n";
  if (vm["json"].as<bool>()) {
    nlohmann::json out = {
        {"reference", c.reference},     {"hv_axis", c.hv_axis},    {"log_floor", json_number(c.log_floor)},
        {"evaluations", c.evaluations}, {"runs", to_json(c.runs)}, {"against", to_json(c.against)}};
    nlohmann::json per_run = nlohmann::json::array();
    for (std::size_t i = 0; i < c.per_run.size(); ++i) {
      auto d = to_json(c.per_run[i]);
      d["directory"] = c.runs[i].directory;
      per_run.push_back(d);
    }
    out["per_run"] = per_run;
    out["welch"] = c.welch ? to_json(*c.welch) : nlohmann::json();
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  if (vm["csv"].as<bool>()) {
    print_csv(c);
    return 0;
  }
  std::cout << "hypervolume, " << c.hv_axis << " epsilon axis, reference (" << readable_number(c.reference[0]);
  for (std::size_t i = 1; i < c.reference.size(); ++i) std::cout << ", " << readable_number(c.reference[i]);
  std::cout << "), " << (c.evaluations ? "first " + std::to_string(c.evaluations) : std::string("all"))
            << " evaluations of each run\n";
  print_side("runs", c.runs);
  print_side("against", c.against);
  if (c.per_run.empty()) {
    std::cout << "no t test: --against needs 2 or more runs\n";
    return 0;
  }
  std::cout << "each run minus each run of --against (DPareto's Table 2 statistic, one-sample t):\n";
  for (std::size_t i = 0; i < c.per_run.size(); ++i)
    std::cout << "  " << c.runs[i].directory << ": " << interval_text(c.per_run[i]) << "\n";
  if (c.welch) std::cout << "Welch (mean of runs minus mean of --against): " << interval_text(*c.welch) << "\n";
  return 0;
}

const CommandRegistration compare_registration("compare",
                                               "two sets of runs by hypervolume: mean difference, CI, t test",
                                               run_compare);

}  // namespace
}  // namespace dpareto::apps
