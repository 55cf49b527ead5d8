// dpareto pick RUN_DIR (--max-epsilon E | --min-utility U) [--from observed|model]
//   [--candidates K --out FILE] [--verify] [--json]
// Chooses an operating point on a run's privacy–utility trade-off (explore/pick.hpp).
#include <cmath>
#include <iostream>
#include <optional>

#include "cli_options.hpp"
#include "command.hpp"
#include "dpareto/core/atomic_file.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/core/readable_number.hpp"
#include "dpareto/explore/pick.hpp"
#include "dpareto/explore/robust_front.hpp"
#include "dpareto/plot/front_figure.hpp"
#include "dpareto/plot/gnuplot.hpp"
#include "dpareto/select/candidate_file.hpp"

namespace dpareto::apps {
namespace {

// Candidates for a private selection (tune): each is trained at least once, so thousands are already
// far beyond use; the cap keeps a typo from asking for gigabytes.
constexpr int kMaxCandidates = 10000;

nlohmann::json params_json(const explore::OperatingPoint& p, const space::Space* space) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < p.names.size(); ++i) {
    const bool integer = space != nullptr && space->parameter(space->index_of(p.names[i])).kind == space::Kind::integer;
    if (integer)
      j[p.names[i]] = static_cast<long long>(std::llround(p.params[i]));
    else
      j[p.names[i]] = json_number(p.params[i]);
  }
  return j;
}

std::string params_text(const explore::OperatingPoint& p) {
  std::string s;
  for (std::size_t i = 0; i < p.names.size(); ++i)
    s += (i ? ", " : "") + p.names[i] + "=" + readable_number(p.params[i]);
  return s;
}

std::string point_text(const explore::OperatingPoint& p) {
  std::string s = params_text(p) + ": epsilon ";
  if (std::isnan(p.epsilon_median))
    s += readable_rounded_up(p.epsilon);
  else  // an external oracle's ε, predicted
    s += "<= " + readable_rounded_up(p.epsilon) + " (95% upper bound of the epsilon surrogate, median " +
         readable_number(p.epsilon_median) + ")";
  s += ", utility " + readable_number(p.utility);
  for (const auto& [name, value] : p.further)
    s += ", " + name + (p.source == "model" ? " <= " : " ") + readable_number(value);
  if (p.source == "model")
    s += " ± " + readable_number(p.utility_std) + " (predicted; a measurement falls in " +
         readable_number(p.utility_low) + "…" + readable_number(p.utility_high) + " with probability 0.95)";
  else
    s += " (evaluation #" + std::to_string(p.record_id) + ", repeats " + readable_number(p.utility_min) + "…" +
         readable_number(p.utility_max) +
         (std::isnan(p.robust_utility) ? "" : "; robust " + readable_number(p.robust_utility)) + ")";
  return s;
}

// --max NAME=V: a limit on one of the run's further objectives.
explore::Limit limit_from(const std::string& text, const pareto::Objectives& objectives, const std::string& dir) {
  const auto eq = text.find('=');
  const std::string flag = "--max " + printable(text);
  if (eq == std::string::npos) throw InputError(flag + ": expected NAME=VALUE");
  const std::string name = text.substr(0, eq);
  if (name == "epsilon" || name == "error")
    throw InputError(flag + ": " + name + " is the target's (--max-epsilon, --min-utility)");
  const std::size_t d = objectives.index_of(name, flag + " (run " + dir + ")");
  const double value = parse_number_list(text.substr(eq + 1), flag).at(0);
  if (!std::isfinite(value)) throw InputError(flag + ": the limit must be a finite number");
  return {objectives[d].column(), value};
}

int run_pick(int argc, char** argv) {
  po::options_description options("pick options");
  options.add_options()("run", po::value<std::string>()->required(), "run directory")(
      "max-epsilon", po::value<double>(), "target: epsilon at most E (maximize utility)")(
      "max", po::value<std::vector<std::string>>()->composing(),
      "NAME=V: also require the run's further objective NAME (e.g. train_seconds) at most V (repeatable)")(
      "min-utility", po::value<double>(), "target: utility at least U (minimize epsilon)")(
      "from", po::value<std::string>()->default_value("observed"),
      "observed (a front point) | model (an unevaluated setting from the surrogates)")(
      "by", po::value<std::string>()->default_value("robust"),
      "--from observed: rank by the robust utility (the utility GP's posterior median at each evaluated setting, "
      "which a lucky draw of the repeats cannot top) or by the observed one")(
      "candidates", po::value<int>(), "write K settings around the pick to --out (for private selection)")(
      "out", po::value<std::string>(), "candidate file (JSON) for --candidates")(
      "verify", po::bool_switch(),
      "evaluate the pick with the real oracles; report predicted vs measured (--from model: exit 1 when the measured "
      "utility falls outside the model's 95% interval)")(
      "trust-study-command", po::bool_switch(),
      "--verify of an external oracle's run: run the oracle command the run directory records")(
      "seed", po::value<std::uint64_t>()->default_value(1), "seed of the model search and of --verify's oracle")(
      "json", po::bool_switch(), "print JSON")("png", po::value<std::string>(),
                                               "draw the front with the pick marked to this file (.png, .svg or .pdf)");
  const auto parsed = parse_command_line(
      "dpareto pick RUN_DIR (--max-epsilon E | --min-utility U) [--from observed|model] "
      "[--candidates K --out FILE] [--verify] [--json]",
      "dpareto pick runs/svt --max-epsilon 50 --from model --json", options, argc, argv, {"run"});
  if (!parsed) return 0;
  const auto& vm = *parsed;
  if (vm.count("max-epsilon") == vm.count("min-utility"))
    throw InputError("pick: give exactly one of --max-epsilon and --min-utility");
  explore::Target target;
  if (vm.count("max-epsilon")) {
    target.kind = explore::Target::Kind::max_epsilon;
    target.value = vm["max-epsilon"].as<double>();
    if (!(target.value >= 0)) throw InputError("--max-epsilon " + format_number(target.value) + ": must be >= 0");
  } else {
    target.kind = explore::Target::Kind::min_utility;
    target.value = vm["min-utility"].as<double>();
    if (!(target.value >= 0 && target.value <= 1))
      throw InputError("--min-utility " + format_number(target.value) + ": must be in [0, 1]");
  }
  const std::string from = vm["from"].as<std::string>();
  if (from != "observed" && from != "model") throw InputError("--from " + from + ": expected observed or model");
  const std::string by = vm["by"].as<std::string>();
  if (by != "robust" && by != "observed") throw InputError("--by " + by + ": expected robust or observed");
  if (!vm["by"].defaulted() && from == "model")
    throw InputError("--by " + by + ": ranks front points, it has no meaning with --from model");
  const int k = vm.count("candidates") ? vm["candidates"].as<int>() : 0;
  if (vm.count("candidates") && (k < 1 || k > kMaxCandidates || !vm.count("out")))
    throw InputError("--candidates " + std::to_string(k) + ": needs 1 <= K <= " + std::to_string(kMaxCandidates) +
                     " and --out FILE");
  const bool verify = vm["verify"].as<bool>();
  if (vm.count("png")) {  // before any oracle runs
    try {
      plot::format_from_path(vm["png"].as<std::string>());
    } catch (const InputError& e) {
      throw InputError("--png: " + std::string(e.what()));
    }
  }
  const std::uint64_t seed = vm["seed"].as<std::uint64_t>();

  const std::string dir = vm["run"].as<std::string>();
  const auto run = study::read_run_directory(dir);
  if (run.records.empty()) throw InputError(dir + ": the run has no evaluations");
  if (vm.count("max"))
    for (const auto& text : vm["max"].as<std::vector<std::string>>())
      target.limits.push_back(limit_from(text, run.info.objectives, dir));
  // The model is needed for --from model and the robust front, and serves --candidates and --verify.
  // The default ranking is the robust one; it falls back to the observed one, and says so, where no
  // model can be fitted (say, one ok evaluation) or the run is too long to fit one quickly.
  const bool by_robust = from == "observed" && by == "robust";
  const std::string too_long = by_robust && vm["by"].defaulted() ? explore::robust_front_unavailable(run) : "";
  std::optional<explore::RunModel> model;
  std::string model_problem;
  if (from == "model" || verify || k > 0 || (by_robust && too_long.empty())) {
    try {
      model = explore::rebuild_run_model(run, dir, vm["trust-study-command"].as<bool>());
    } catch (const Error& e) {  // a run that cannot be modelled, or a GP fit that failed
      if (from == "model" || verify || (by_robust && !vm["by"].defaulted())) throw;
      model_problem = e.what();
    }
  }
  const bool robust = by_robust && too_long.empty() && model;
  if (by_robust && !robust)
    std::cerr << "dpareto pick: warning: no robust utilities (" << (too_long.empty() ? model_problem : too_long)
              << "); ranked by the observed ones\n";
  auto pick_front = [&] {
    return robust ? explore::pick_robust(*model, run, target) : explore::pick_observed(run, target);
  };
  if (verify && !model->problem)
    throw InputError(dir + ": --verify would run the oracle command the run records, '" +
                     printable(run.info.extra.value("settings", nlohmann::json::object()).value("command", "")) +
                     "'; pass --trust-study-command if you trust it");
  const space::Space* space = model ? &model->space() : nullptr;
  explore::ModelPickOptions mo;
  mo.seed = seed;
  const explore::PickResult result = from == "model" ? explore::pick_model(*model, target, mo) : pick_front();
  const auto& p = result.point;

  nlohmann::json j = {{"params", params_json(p, space)},
                      {"epsilon", json_number(p.epsilon)},
                      {"utility", json_number(p.utility)},
                      {"utility_std", json_number(p.utility_std)},
                      {"epsilon_median", json_number(p.epsilon_median)},
                      {"source", p.source},
                      {"target", target.describe()},
                      {"reached", result.reached}};
  if (p.source == "observed") {
    j["record_id"] = p.record_id;
    j["utility_min"] = json_number(p.utility_min);
    j["utility_max"] = json_number(p.utility_max);
    j["by"] = robust ? "robust" : "observed";
    if (robust) j["robust_utility"] = json_number(p.robust_utility);
  } else {
    j["utility_interval"] = {json_number(p.utility_low), json_number(p.utility_high)};
  }
  if (!p.further.empty()) {  // observed: measured; model: each one's 95% upper predictive bound
    j["further_objectives"] = nlohmann::json::object();
    for (const auto& [name, value] : p.further) j["further_objectives"][name] = json_number(value);
  }
  if (!result.reached) {
    if (vm["json"].as<bool>()) std::cout << j.dump() << "\n";
    throw Error("target " + target.describe() + " is unreachable " +
                (from == "model" ? "on the surrogates" : "on the observed front") +
                "; closest achievable: " + point_text(p));
  }

  std::string verify_text;
  bool outside_interval = false;
  if (verify) {
    const space::Params params = space->snap([&] {
      space::Params v(space->dimension());
      for (std::size_t i = 0; i < p.names.size(); ++i) v[space->index_of(p.names[i])] = p.params[i];
      return v;
    }());
    const auto measured = model->problem->evaluate(params, seed);
    j["verify"] = {{"ok", measured.ok},
                   {"epsilon", json_number(measured.epsilon)},
                   {"utility", json_number(measured.utility)},
                   {"utility_min", json_number(measured.utility_min)},
                   {"utility_max", json_number(measured.utility_max)},
                   {"meets_target", measured.ok && target.met_by(measured.epsilon, measured.utility, measured.further)},
                   {"message", measured.message}};
    // A model pick's interval is a claim about the measurement: one outside it says the surrogate
    // was over-confident there.
    outside_interval = p.source == "model" && measured.ok &&
                       !(measured.utility >= p.utility_low && measured.utility <= p.utility_high);
    if (p.source == "model") j["verify"]["within_interval"] = measured.ok && !outside_interval;
    verify_text =
        measured.ok
            ? "measured: epsilon " + readable_rounded_up(measured.epsilon) + ", utility " +
                  readable_number(measured.utility) + " (repeats " + readable_number(measured.utility_min) + "…" +
                  readable_number(measured.utility_max) + ")" +
                  (target.met_by(measured.epsilon, measured.utility, measured.further) ? "" : " — MISSES the target") +
                  (outside_interval ? " — OUTSIDE the model's 95% interval " + readable_number(p.utility_low) + "…" +
                                          readable_number(p.utility_high) + ": the surrogate was over-confident"
                                    : "")
            : "measured: the evaluation failed (" + measured.message + ")";
  }

  if (k > 0) {
    // The pick, then alternately observed front neighbours and model proposals meeting the target.
    std::vector<explore::OperatingPoint> neighbours, proposals;
    if (from == "observed") {
      neighbours = result.alternatives;
      if (model) {
        const auto modelled = explore::pick_model(*model, target, mo);
        if (modelled.reached) {
          proposals.push_back(modelled.point);
          proposals.insert(proposals.end(), modelled.alternatives.begin(), modelled.alternatives.end());
        }
      }
    } else {
      proposals = result.alternatives;
      const auto observed = pick_front();
      if (observed.reached) {
        neighbours.push_back(observed.point);
        neighbours.insert(neighbours.end(), observed.alternatives.begin(), observed.alternatives.end());
      }
    }
    std::vector<explore::OperatingPoint> merged{p};
    for (std::size_t i = 0;
         merged.size() < static_cast<std::size_t>(k) && (i < neighbours.size() || i < proposals.size()); ++i)
      for (const auto* list : {&neighbours, &proposals})
        if (i < list->size() && merged.size() < static_cast<std::size_t>(k)) merged.push_back((*list)[i]);
    nlohmann::json list = nlohmann::json::array();
    for (const auto& c : merged) list.push_back(params_json(c, space));
    const std::string out = vm["out"].as<std::string>();
    nlohmann::json document = {{"problem", run.info.problem}, {"candidates", list}};
    // Which data the front was measured on, so that tune can state (and check) what its
    // certificate covers (issue 17).
    const auto settings = run.info.extra.contains("settings") ? run.info.extra["settings"] : nlohmann::json();
    if (const auto measured = select::measured_on_from_settings(settings, dir + "/summary.json: settings"))
      document["measured_on"] = select::to_json(*measured);
    try {
      write_file_atomically(out, document.dump(2) + "\n");
    } catch (const InputError& e) {
      throw InputError("--out " + out + ": " + e.what());
    }
    j["candidates_file"] = out;
    j["candidates"] = merged.size();
    if (merged.size() < static_cast<std::size_t>(k))
      std::cerr << "dpareto pick: warning: only " << merged.size() << " of " << k << " candidates meet the target"
                << (model_problem.empty() ? "" : " (no model: " + model_problem + ")") << "\n";
  }

  if (vm.count("png")) {
    plot::FrontFigureOptions figure;
    figure.accuracy = true;
    figure.mark = plot::MarkedPoint{
        p.epsilon,
        p.utility,
        "picked (" + p.source + "): ε " + readable_rounded_up(p.epsilon) + ", utility " + readable_number(p.utility),
        {}};
    if (target.kind == explore::Target::Kind::max_epsilon) figure.mark->target_epsilon = target.value;
    plot::render(plot::front_figure({plot::load_run(dir)}, figure), vm["png"].as<std::string>(), plot::Canvas{});
    j["png"] = vm["png"].as<std::string>();
  }
  if (vm["json"].as<bool>()) {
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "picked (" << p.source << ", " << target.describe() << "): " << point_text(p) << "\n";
    if (!verify_text.empty()) std::cout << verify_text << "\n";
    if (k > 0)
      std::cout << "wrote " << j["candidates"].get<std::size_t>() << " candidate(s) to " << vm["out"].as<std::string>()
                << "\n";
  }
  return outside_interval ? 1 : 0;
}

const CommandRegistration pick_registration("pick", "choose an operating point (observed front or surrogate model)",
                                            run_pick);

}  // namespace
}  // namespace dpareto::apps
