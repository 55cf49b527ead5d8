// dpareto explore: learn the privacy–utility Pareto front of a problem (DPareto Alg. 2) or run
// the random / grid baselines, writing evaluations.csv, front.csv and summary.json as each
// evaluation completes. Every run is a study (study::StudyRunner); with --study FILE it is stored in
// an SQLite database that a later run with the same flags resumes or extends (docs/study.md).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>

#include "command.hpp"
#include "dpareto/bo/acquisition_registry.hpp"
#include "dpareto/core/did_you_mean.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_file.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/core/stop_request.hpp"
#include "dpareto/explore/explore_run.hpp"
#include "dpareto/explore/objective_declaration.hpp"
#include "dpareto/explore/robust_front.hpp"
#include "dpareto/explore/run_study.hpp"
#include "dpareto/explore/study_job.hpp"
#include "dpareto/plot/front_figure.hpp"
#include "dpareto/plot/gnuplot.hpp"
#include "dpareto/plot/labelled_run.hpp"
#include "dpareto/problems/external_command_problem.hpp"
#include "dpareto/space/space_json.hpp"
#include "dpareto/study/storage_registry.hpp"
#include "problem_flags.hpp"
#include "progress_bar.hpp"
#include "storage_flags.hpp"

namespace dpareto::apps {
namespace {

// --objective NAME (repeatable): further objectives known by name (train_seconds).
std::vector<std::string> flag_objective_names(const po::variables_map& vm) {
  if (!vm.count("objective")) return {};
  const auto names = vm["objective"].as<std::vector<std::string>>();
  for (const auto& name : names)
    if (name != "train_seconds")
      throw InputError("--objective " + printable(name) +
                       ": expected train_seconds (an external oracle's own objectives are declared in space.json)" +
                       did_you_mean(name, {"train_seconds"}));
  return names;
}

bo::Method parse_method(const std::string& text) {
  if (text == "dpareto") return bo::Method::dpareto;
  if (text == "random") return bo::Method::random;
  if (text == "grid") return bo::Method::grid;
  throw InputError("--method " + text + ": expected dpareto, random or grid" +
                   did_you_mean(text, {"dpareto", "random", "grid"}));
}

// --problem NAME, or --oracle-cmd TEMPLATE with --space FILE (its stderr logs go to `log_directory`).
// The further objectives space.json declares are added to `declared`.
std::unique_ptr<problems::Problem> make_explored_problem(const po::variables_map& vm, const std::string& log_directory,
                                                         std::vector<pareto::Objective>& declared) {
  if (!vm.count("oracle-cmd")) {
    if (vm.count("space")) throw InputError("--space goes with --oracle-cmd (built-in problems have their own space)");
    return make_problem_from(vm);
  }
  if (vm.count("problem")) throw InputError("--problem and --oracle-cmd exclude each other");
  if (!vm.count("space")) throw InputError("--oracle-cmd needs --space FILE (the hyperparameters as JSON)");
  problems::ExternalCommandOptions options;
  options.command = vm["oracle-cmd"].as<std::string>();
  options.timeout_seconds = vm["oracle-timeout"].as<double>();
  if (!(options.timeout_seconds >= 0 && std::isfinite(options.timeout_seconds)))
    throw InputError("--oracle-timeout " + format_number(options.timeout_seconds) + ": expected seconds >= 0");
  options.log_directory = log_directory;
  const auto path = vm["space"].as<std::string>();
  const auto document = read_json_file(path, "space file");
  auto space = space::space_from_json(document, path);
  if (document.contains("known_epsilon"))
    options.known_epsilon = problems::parse_known_epsilon(document.at("known_epsilon"), space, path);
  if (document.contains("objectives"))
    declared = explore::parse_objective_declarations(document.at("objectives"), space, path);
  for (const auto& o : declared) options.objective_keys.push_back(o.column());
  for (const auto& name : flag_objective_names(vm)) options.objective_keys.push_back(name);
  return std::make_unique<problems::ExternalCommandProblem>(std::move(space), options);
}

// --png: a figure format gnuplot can write, checked before a long run, not after it.
void check_png_flag(const po::variables_map& vm) {
  if (!vm.count("png")) return;
  const auto png = vm["png"].as<std::string>();
  const auto dot = png.rfind('.');
  const auto extension = dot == std::string::npos ? "" : png.substr(dot);
  if (extension != ".png" && extension != ".svg" && extension != ".pdf")
    throw InputError("--png " + png + ": the file name must end in .png, .svg or .pdf");
  plot::gnuplot_executable();
}

// The flags as explore settings, each checked with a one-line error naming it.
explore::ExploreSettings settings_from(const po::variables_map& vm, const problems::Problem& problem,
                                       const std::string& out, std::vector<pareto::Objective> further) {
  const auto spec = problem.default_reference();
  explore::ExploreSettings settings;
  bo::ExplorerOptions& explorer_options = settings.explorer;
  explorer_options.method = parse_method(vm["method"].as<std::string>());
  const auto acquisition = vm["acquisition"].as<std::string>();
  if (!bo::acquisition_exists(acquisition))
    throw InputError("--acquisition " + acquisition + ": expected " + bo::acquisition_choices(", ", " or ") +
                     did_you_mean(acquisition, bo::acquisition_names()));
  explorer_options.acquisition = acquisition;
  const auto reference_mode = vm["reference-mode"].as<std::string>();
  if (reference_mode != "fixed" && reference_mode != "estimated")
    throw InputError("--reference-mode " + reference_mode + ": expected fixed or estimated");
  explorer_options.reference_mode =
      reference_mode == "estimated" ? bo::ReferenceMode::estimated : bo::ReferenceMode::fixed;
  explorer_options.improvement_front =
      bo::parse_improvement_front(vm["improvement-front"].as<std::string>(), "--improvement-front");
  explorer_options.initial_points = vm["init"].as<int>();
  explorer_options.initial_from_prior = vm["prior"].as<bool>();
  explorer_options.grid_points = vm["grid-points"].as<int>();
  explorer_options.dense_candidates = vm["candidates"].as<int>();
  explorer_options.known_epsilon = vm["known-epsilon"].as<bool>();
  explorer_options.cost_aware = vm["cost-aware"].as<bool>();
  explorer_options.early_stop = vm["early-stop"].as<bool>();
  for (const auto& name : flag_objective_names(vm)) further.push_back(pareto::known_objective(name));
  pareto::Point reference = {spec.epsilon, spec.error};
  for (const auto& o : further) reference.push_back(o.reference);
  explorer_options.objectives = pareto::Objectives::with_further(further, reference);
  const auto utility_transform =
      vm.count("utility-transform") ? vm["utility-transform"].as<std::string>() : problem.utility_transform();
  explorer_options.objectives.set_utility_transform(pareto::parse_transform(utility_transform, "--utility-transform"),
                                                    "--utility-transform");
  if (vm.count("reference")) {
    auto r = parse_number_list(vm["reference"].as<std::string>(), "--reference");
    const auto names = explorer_options.objectives.names();
    if (r.size() == 2) r.insert(r.end(), reference.begin() + 2, reference.end());
    if (r.size() != names.size()) {
      std::string expected;
      for (const auto& n : names)
        expected += (expected.empty() ? "" : ",") + (n == "epsilon" ? "EPSILON" : n == "error" ? "ERROR" : n);
      throw InputError("--reference " + vm["reference"].as<std::string>() + ": expected " + expected +
                       (names.size() > 2 ? " (or EPSILON,ERROR)" : ""));
    }
    for (std::size_t d = 2; d < r.size(); ++d)
      if (const std::string why = pareto::transform_domain_problem(explorer_options.objectives[d].surrogate, r[d]);
          !why.empty())
        throw InputError("--reference: " + names[d] + " " + format_number(r[d]) + " " + why);
    explorer_options.objectives.set_reference(r);
  }
  explorer_options.axis.kind =
      spec.axis == problems::HvAxis::log10 ? pareto::EpsilonAxis::Kind::log10 : pareto::EpsilonAxis::Kind::linear;
  explorer_options.axis.floor = spec.log_floor;
  if (vm.count("hv-axis")) {
    const auto axis = vm["hv-axis"].as<std::string>();
    if (axis != "linear" && axis != "log") throw InputError("--hv-axis " + axis + ": expected linear or log");
    explorer_options.axis.kind = axis == "log" ? pareto::EpsilonAxis::Kind::log10 : pareto::EpsilonAxis::Kind::linear;
  }
  if (vm.count("log-floor")) {
    const double floor = vm["log-floor"].as<double>();
    if (!(floor > 0 && std::isfinite(floor)))
      throw InputError("--log-floor " + format_number(floor) + ": must be positive");
    explorer_options.axis.floor = floor;
  }
  const int budget = vm["budget"].as<int>();
  if (budget < 1) throw InputError("--budget must be at least 1, got " + std::to_string(budget));
  // The explorer keeps every evaluation and refits its GPs on all of them (O(n^3)): beyond 10^5
  // evaluations a run would never finish, so a typo like 2000000000 is refused up front.
  if (budget > 100000) throw InputError("--budget " + std::to_string(budget) + " is above 100000 evaluations");
  check_png_flag(vm);
  settings.budget = budget;
  settings.workers = vm["workers"].as<int>();
  if (vm.count("seed")) settings.seed = vm["seed"].as<std::uint64_t>();
  if (vm.count("study")) settings.study = vm["study"].as<std::string>();
  settings.storage = storage_options_from(vm);
  if (settings.study.empty() && vm.count("study-name")) throw InputError("--study-name goes with --study");
  settings.retry_interrupted = !vm["no-retry"].as<bool>();
  settings.crash_limit = vm["crash-limit"].as<int>();
  if (settings.crash_limit < 0)
    throw InputError("--crash-limit " + std::to_string(settings.crash_limit) + ": must be >= 0");
  settings.keep_going = vm["keep-going"].as<bool>();
  settings.out = out;
  settings.problem_options = problem_options_from(vm);
  if (vm.count("utility-name")) {
    settings.utility_name = vm["utility-name"].as<std::string>();
    if (settings.utility_name.empty() || settings.utility_name.size() > 60 ||
        printable(settings.utility_name) != settings.utility_name)
      throw InputError("--utility-name '" + printable(settings.utility_name) +
                       "': expected 1 to 60 printable characters");
  }
  settings.baseline = utility_flag(vm, "baseline");
  settings.non_private = utility_flag(vm, "non-private");
  return settings;
}

// The reference point as "10,1" (one value per objective, "10,1,3600" with training seconds).
std::string reference_text(const study::RunInfo& info) {
  std::string text;
  for (const double r : info.objectives.reference()) text += (text.empty() ? "" : ",") + readable_number(r);
  return text;
}

// A front no better than a trivial model is worth a word (issue 21 item 1): say when no evaluated
// setting beats the run's baseline utility, or how many front points do not.
void warn_below_baseline(const std::vector<study::EvaluationRecord>& records, const std::vector<std::size_t>& front,
                         const study::RunInfo& info) {
  const auto it = info.extra.find("baseline");
  if (it == info.extra.end() || !it->is_object() || !it->contains("utility")) return;
  const double baseline = it->at("utility").get<double>();
  const std::string what = it->value("source", std::string("baseline"));
  double best = -1;
  for (const auto& r : records)
    if (r.ok()) best = std::max(best, r.utility);
  const auto below =
      std::count_if(front.begin(), front.end(), [&](std::size_t i) { return records[i].utility <= baseline; });
  if (best < 0) return;
  if (best <= baseline)
    std::cerr << "dpareto explore: warning: no evaluated setting beats the baseline utility "
              << readable_number(baseline) << " (" << what << "); the best reached " << readable_number(best)
              << " — more budget, a larger epsilon range or other parameter ranges may help\n";
  else if (below > 0)
    std::cerr << "dpareto explore: warning: front points no better than the baseline utility "
              << readable_number(baseline) << " (" << what << "): " << below << " of " << front.size()
              << " — the most private end of the front is not useful\n";
}

// The study `explore --study S` resumes when no problem flag is given (read only: it is opened
// again for writing once the run is set up).
std::unique_ptr<study::Storage> open_recorded_study(const po::variables_map& vm) {
  const std::string location = vm["study"].as<std::string>();
  const auto options = storage_options_from(vm);
  if (!study::storage_exists(location, options))
    throw InputError("--study " + study::shown_location(location) +
                     ": no such study; a new study needs --problem NAME (or --oracle-cmd CMD --space FILE)");
  return study::open_storage(location, study::StorageAccess::read_only, options);
}

// Where a resumed study wrote before (its run info's "out"), when that is a relative path that stays
// below the current directory: a study from elsewhere must not choose where files are written.
// Otherwise `fallback`, with a note.
std::string recorded_run_directory(const study::Storage& recorded, const std::string& fallback) {
  const auto out = recorded.run_info().extra.value("out", nlohmann::json());
  if (!out.is_string()) return fallback;
  const std::filesystem::path path(out.get<std::string>());
  bool below = !path.empty() && path.is_relative();
  for (const auto& part : path) below = below && part != "..";
  if (below) return path.string();
  std::cerr << "dpareto explore: note: the study wrote to '" << printable(out.get<std::string>())
            << "', which is not a relative path below this directory; writing to " << fallback << " (--out chooses)\n";
  return fallback;
}

// The recorded study's problem, rebuilt on this host (--data-dir, --threads and --oracle-timeout may differ).
std::unique_ptr<problems::Problem> recorded_problem(const po::variables_map& vm, const study::Storage& recorded,
                                                    const std::string& log_directory) {
  if (vm.count("space")) throw InputError("--space goes with --oracle-cmd (a resumed study has its own space)");
  explore::HostOverrides overrides;
  for (const auto& [key, value] : problem_options_from(vm)) overrides.problem_options[key] = value;
  overrides.oracle_timeout_seconds = vm["oracle-timeout"].as<double>();
  if (recorded.identity().problem == "external") overrides.oracle_log_directory = log_directory;
  overrides.trust_study_command = vm["trust-study-command"].as<bool>();
  return explore::study_problem(recorded, overrides);
}

// A resumed study's explorer configuration and budget, with the flags given explicitly on top (a
// flag that differs from the study is then refused by open_run_study, naming every difference).
void adopt_recorded_settings(const po::variables_map& vm, const study::Storage& recorded,
                             explore::ExploreSettings& settings) {
  const auto given = [&](const char* flag) { return vm.count(flag) && !vm[flag].defaulted(); };
  auto& mine = settings.explorer;
  auto study_options = explore::study_explorer_options(recorded);
  if (given("method")) study_options.method = mine.method;
  if (given("acquisition")) study_options.acquisition = mine.acquisition;
  if (given("reference-mode")) study_options.reference_mode = mine.reference_mode;
  if (given("improvement-front")) study_options.improvement_front = mine.improvement_front;
  if (given("init")) study_options.initial_points = mine.initial_points;
  if (given("prior")) study_options.initial_from_prior = mine.initial_from_prior;
  if (given("grid-points")) study_options.grid_points = mine.grid_points;
  if (given("candidates")) study_options.dense_candidates = mine.dense_candidates;
  if (given("known-epsilon")) study_options.known_epsilon = mine.known_epsilon;
  if (given("cost-aware")) study_options.cost_aware = mine.cost_aware;
  if (given("early-stop")) study_options.early_stop = mine.early_stop;
  if (given("reference") || given("objective")) {
    const auto recorded_transform = study_options.objectives.utility_transform();
    study_options.objectives = mine.objectives;
    study_options.objectives.set_utility_transform(recorded_transform, "the study");
  }
  if (given("utility-transform"))
    study_options.objectives.set_utility_transform(mine.objectives.utility_transform(), "--utility-transform");
  if (given("hv-axis")) study_options.axis.kind = mine.axis.kind;
  if (given("log-floor")) study_options.axis.floor = mine.axis.floor;
  mine = study_options;
  if (!given("budget"))
    settings.budget = std::max(recorded.run_info().extra.value("budget", settings.budget),
                               study::evaluation_count(recorded.completed()));
  problems::ProblemOptions options;
  const auto recorded_options = recorded.run_info().extra.value("problem_options", nlohmann::json::object());
  for (const auto& [key, value] : recorded_options.items())
    options[key] = value.is_string() ? value.get<std::string>() : value.dump();
  for (const auto& [key, value] : settings.problem_options) options[key] = value;
  settings.problem_options = options;
}

int run_explore(int argc, char** argv) {
  po::options_description options("explore options");
  add_problem_flags(options);
  add_storage_flags(options);
  options.add_options()("method", po::value<std::string>()->default_value("dpareto"), "dpareto | random | grid")(
      "acquisition", po::value<std::string>()->default_value(bo::kDefaultAcquisition),
      bo::acquisition_choices(" | ", " | ").c_str())(
      "reference-mode", po::value<std::string>()->default_value("fixed"),
      "fixed (cells from the observed front and --reference) | estimated (GPflowOpt, as DPareto ran it)")(
      "improvement-front", po::value<std::string>()->default_value("posterior"),
      "with --reference-mode fixed, the front the cells are cut from: posterior (the evaluated settings at "
      "the GP posterior means: noisy utilities denoised) | observed (at their measured values)")(
      "utility-transform", po::value<std::string>(),
      "logit | arcsine: the utility GP's output transform (default: the problem's; svt: arcsine, whose F1 "
      "scores sit at 0 and 1)")("init", po::value<int>()->default_value(16), "random initial points before BO (k0)")(
      "budget", po::value<int>()->default_value(64), "total evaluations")(
      "seed", po::value<std::uint64_t>(), "seed for a reproducible run (default: OS CSPRNG)")(
      "reference", po::value<std::string>(),
      "anti-ideal point EPSILON,ERROR[,FURTHER...] (default: the problem's; a further objective's own)")(
      "objective", po::value<std::vector<std::string>>()->composing(),
      "a further objective to minimize, with its own GP: train_seconds (the training's wall time, log GP; "
      "reference 3600 s unless --reference gives one); an external oracle's are declared in space.json")(
      "hv-axis", po::value<std::string>(), "linear | log: epsilon axis of the hypervolume (default: the problem's)")(
      "log-floor", po::value<double>(), "log axis: epsilon below this counts as this (default: the problem's)")(
      "grid-points", po::value<int>()->default_value(3), "grid method: points per dimension")(
      "prior", po::bool_switch(), "draw random/initial points from the problem's Appx. C distributions")(
      "candidates", po::value<int>()->default_value(1000), "acquisition: size of the dense random stage")(
      "known-epsilon", po::bool_switch(),
      "compute epsilon exactly inside the acquisition (no epsilon GP) and propose nothing beyond the epsilon "
      "reference; for problems whose accountant is fast (svt, output perturbation, --set accountant=rdp)")(
      "cost-aware", po::bool_switch(),
      "rank proposals by acquisition per predicted training second (a GP on the log seconds of the evaluations "
      "so far): cheap settings win where they promise as much")(
      "early-stop", po::bool_switch(),
      "stop a training observed every epoch (--set observe=every-epoch) once its next epochs cannot improve the "
      "front by the largest rise in utility any training made after as many epochs")(
      "workers", po::value<int>()->default_value(1), "evaluations running at once (Kriging-believer batch BO)")(
      "study", po::value<std::string>(),
      "SQLite study file or postgresql:// URI: created, or resumed/extended when it exists")(
      "no-retry", po::bool_switch(), "resume: record evaluations a crash left running as failed (default: re-run)")(
      "crash-limit", po::value<int>()->default_value(2),
      "resume: record as failed an evaluation that was running each time dpareto crashed or was killed, this many "
      "times (0: re-run it forever)")("keep-going", po::bool_switch(),
                                      "run the whole budget even when the first evaluations all fail the same way")(
      "restart-failed-study", po::bool_switch(),
      "when every evaluation of the --study failed (a mistyped --oracle-cmd, say), keep it as STUDY.failed-N and "
      "start afresh with the given settings")("oracle-cmd", po::value<std::string>(),
                                              "external oracle command template, e.g. 'python3 train.py --lr {lr}'")(
      "space", po::value<std::string>(), "space.json of the external oracle's hyperparameters")(
      "oracle-timeout", po::value<double>()->default_value(0), "seconds before an oracle run is killed (0: never)")(
      "trust-study-command", po::bool_switch(),
      "resuming an external-oracle --study alone: run the command recorded in it (only for a study you trust)")(
      "out", po::value<std::string>(), "run directory to write (default: runs/<problem>-<method>)")(
      "png", po::value<std::string>(), "at the end, draw the front figure to this file (.png, .svg or .pdf)")(
      "json", po::bool_switch(), "print the final summary as JSON")(
      "utility-name", po::value<std::string>(),
      "what the utility measures, for axes and reports (default: the problem's, e.g. test accuracy)")(
      "baseline", po::value<double>(),
      "a utility in [0, 1] that a useful setting must beat (default: the majority class, for classifiers)")(
      "non-private", po::value<double>(),
      "the utility a model trained without DP reaches, drawn on the front figure for comparison")(
      "overwrite", po::bool_switch(),
      "replace the run --out holds even if it is another run (other problem, seed or study)");
  const auto parsed =
      parse_command_line("dpareto explore (--problem NAME | --oracle-cmd CMD --space FILE) [--study FILE] [options]",
                         "dpareto explore --problem svt --budget 64 --init 16 --seed 1 --study svt.db --out runs/svt",
                         options, argc, argv);
  if (!parsed) return 0;
  const auto& vm = *parsed;

  // `explore --study S` with no problem flags resumes S as it was set up (issue 21 item 3).
  const bool from_study = vm.count("study") && !vm.count("problem") && !vm.count("oracle-cmd");
  auto recorded = from_study ? open_recorded_study(vm) : nullptr;
  const std::string method = recorded && vm["method"].defaulted() ? recorded->config().at("method").get<std::string>()
                                                                  : vm["method"].as<std::string>();
  const std::string problem_name = recorded                 ? recorded->identity().problem
                                   : vm.count("oracle-cmd") ? "external"
                                   : vm.count("problem")    ? vm["problem"].as<std::string>()
                                                            : "";
  const std::string out = vm.count("out") ? vm["out"].as<std::string>()
                          : recorded      ? recorded_run_directory(*recorded, "runs/" + problem_name + "-" + method)
                                          : "runs/" + problem_name + "-" + method;
  std::vector<pareto::Objective> declared;
  const auto problem = recorded ? recorded_problem(vm, *recorded, out + "/oracle-logs")
                                : make_explored_problem(vm, out + "/oracle-logs", declared);
  explore::ExploreSettings settings = settings_from(vm, *problem, out, declared);
  if (recorded) adopt_recorded_settings(vm, *recorded, settings);
  recorded.reset();  // the study is opened again below, for writing
  if (settings.explorer.method == bo::Method::dpareto && settings.explorer.initial_points > settings.budget)
    throw InputError("--init " + std::to_string(settings.explorer.initial_points) + " is larger than --budget " +
                     std::to_string(settings.budget));
  explore::known_epsilon_oracle(*problem, settings.explorer);  // refused before a study is touched
  explore::check_early_stop(*problem, settings.explorer);
  if (vm["restart-failed-study"].as<bool>()) {
    if (settings.study.empty()) throw InputError("--restart-failed-study needs --study");
    if (study::storage_exists(settings.study, settings.storage))
      std::cerr << "study " << study::shown_location(settings.study) << ": nothing in it succeeded; kept as "
                << study::set_aside_failed_study(settings.study) << ", starting afresh\n";
  }
  // No silent loss (issue 21): --out holding another run (another problem, seed or study) is
  // replaced only with --overwrite; the same run (same problem and seed, or its study resumed) may
  // be rewritten. --restart-failed-study replaces the failed run's directory.
  const bool overwrite = vm["overwrite"].as<bool>() || vm["restart-failed-study"].as<bool>();
  const bool resuming = !settings.study.empty() && study::storage_exists(settings.study, settings.storage);
  const auto refuse = [&](const std::string& why) {
    throw InputError("--out " + out + " holds another run (" + why +
                     "); choose another --out, or pass --overwrite to replace it");
  };
  std::optional<study::RunData> previous;
  if (!overwrite && std::filesystem::exists(std::filesystem::path(out) / "summary.json")) {
    try {
      previous = study::read_run_directory(out);
    } catch (const InputError& e) {
      refuse(std::string("unreadable: ") + e.what());
    }
    if (previous->info.problem != problem->name()) refuse("problem " + previous->info.problem);
  }
  const auto seed_text = [](const std::optional<std::uint64_t>& seed) {
    return seed ? std::to_string(*seed) : std::string("none");
  };
  if (previous && !resuming && previous->info.seed != settings.seed)
    refuse("seed " + seed_text(previous->info.seed) + ", this run's " + seed_text(settings.seed));
  auto study = explore::open_run_study(*problem, settings);
  if (previous && resuming && previous->info.seed != study->run_info().seed)
    refuse("seed " + seed_text(previous->info.seed) + ", study " + study::shown_location(settings.study) + "'s " +
           seed_text(study->run_info().seed));
  if (const int held = study::evaluation_count(study->completed()); held > settings.budget)
    throw InputError("--budget " + std::to_string(settings.budget) + " is below the " + std::to_string(held) +
                     " evaluations study " + study::shown_location(settings.study) + " already holds; give --budget " +
                     std::to_string(held) + " or more");
  const auto problem_settings = problem->settings();
  if (const auto roles = problem_settings.find("data_roles"); roles != problem_settings.end())
    std::cerr << "data roles: " << roles->second
              << (problem_settings.at("data_role") == "private"
                      ? " — the front depends on these private rows: keep it private; candidates picked from it "
                        "need tune --candidates-from-private-front (docs/tune.md)"
                      : "")
              << "\n";
  const int resumed = study ? study::evaluation_count(study->completed()) : 0;
  if (!settings.study.empty() && !study->trials().empty())
    std::cerr << "resuming study " << study->location() << ": " << resumed << " evaluations completed, "
              << study->trials().size() - study->completed().size() << " interrupted\n";
  explore::ExploreRun run(*problem, settings, std::move(study));
  const auto& info = run.info();
  ProgressBar progress("explore " + info.problem, settings.budget, "evaluations", 0, resumed);
  install_stop_handlers();  // Ctrl-C, SIGTERM, SIGHUP: stop proposing, stop the oracles, keep the study
  const auto outcome = run.run([&](const study::RunDirectoryWriter& writer) {
    progress.update(study::evaluation_count(writer.records()), "HV " + readable_number(writer.hv_history().back()));
  });
  progress.finish();
  const auto& writer = run.writer();
  const std::string resume = !settings.study.empty()
                                 ? "resume with the same command (the study " + study::shown_location(settings.study) +
                                       " keeps every evaluation)"
                                 : "without --study the run cannot be resumed";
  if (outcome.interrupted_signal) {
    std::cerr << "dpareto explore: interrupted by " << signal_name(outcome.interrupted_signal) << " after "
              << study::evaluation_count(writer.records()) << " of " << settings.budget << " evaluations (written to "
              << out << "); " << resume << "\n";
    return 128 + outcome.interrupted_signal;
  }
  if (outcome.stopped)
    throw Error("the first " + std::to_string(explore::kSameFailureLimit) +
                " evaluations all failed: " + printable(writer.records().back().message) + " — fix the oracle and " +
                resume + ", or pass --keep-going");
  if (std::none_of(writer.records().begin(), writer.records().end(), [](const auto& r) { return r.ok(); }))
    throw Error("no evaluation succeeded (" + std::to_string(writer.records().size()) +
                " failed; the last: " + printable(writer.records().back().message) + ")");

  if (vm.count("png"))
    plot::render(plot::front_figure({plot::load_run(out)}), vm["png"].as<std::string>(), plot::Canvas{});
  const auto& records = writer.records();
  const int failed = study::failed_evaluation_count(records);
  const int evaluations = study::evaluation_count(records);
  const auto intermediate = records.size() - static_cast<std::size_t>(evaluations);
  const auto front = study::run_front(records, info.objectives);
  const double hv = writer.hv_history().empty() ? 0.0 : writer.hv_history().back();
  // Beside the observed front, the robust one (explore/robust_front.hpp), which lucky repeats cannot lift.
  std::string no_robust;
  const auto robust = explore::robust_run_of(study::read_run_directory(out), out, no_robust);
  const auto& timings = run.proposer().timings();
  warn_below_baseline(records, front, info);
  if (vm["json"].as<bool>()) {
    nlohmann::json j = {
        {"out", out},
        {"evaluations", evaluations},
        {"intermediate_results", intermediate},
        {"failed", failed},
        {"front_size", front.size()},
        {"hypervolume", json_number(hv)},
        {"robust_hypervolume",
         robust ? json_number(study::run_hypervolume(robust->info, robust->records)) : nlohmann::json()},
        {"ask_seconds", {{"gp_fit", timings.gp_fit}, {"acquisition", timings.acquisition}}}};
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "explored " << info.problem << " with " << info.method << ": " << evaluations << " evaluations ("
              << failed << " failed"
              << (intermediate > 0 ? ", " + std::to_string(intermediate) + " intermediate results" : std::string())
              << "), front of " << front.size() << (front.size() == 1 ? " point" : " points") << ", hypervolume "
              << readable_number(hv) << " (" << info.hv_axis << " epsilon axis, reference " << reference_text(info)
              << ")\n"
              << (robust ? "robust front (each evaluated setting at the utility GP's posterior median): " +
                               std::to_string(study::run_front(robust->records, info.objectives).size()) +
                               " points, hypervolume " +
                               readable_number(study::run_hypervolume(robust->info, robust->records))
                         : "no robust front: " + no_robust)
              << "\n"
              << "ask() time: GP fit " << readable_number(timings.gp_fit) << " s, acquisition "
              << readable_number(timings.acquisition) << " s\n"
              << "wrote " << out << "/{evaluations.csv,front.csv,summary.json}"
              << (!settings.study.empty() ? " and study " + run.study().location() : std::string()) << "\n";
  }
  return 0;
}

const CommandRegistration explore_registration("explore", "learn the privacy-utility Pareto front of a problem",
                                               run_explore);

}  // namespace
}  // namespace dpareto::apps
