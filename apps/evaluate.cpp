// dpareto evaluate: run both oracles of a problem once at a given setting.
#include <iostream>

#include "command.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/readable_number.hpp"
#include "problem_flags.hpp"

namespace dpareto::apps {
namespace {

int run_evaluate(int argc, char** argv) {
  po::options_description options("evaluate options");
  add_problem_flags(options);
  options.add_options()("params", po::value<std::string>(), "the setting: name=value,... (every parameter)")(
      "seed", po::value<std::uint64_t>(), "seed of the utility oracle (default: OS CSPRNG)")("json", po::bool_switch(),
                                                                                             "print one JSON object");
  const auto parsed = parse_command_line("dpareto evaluate --problem NAME --params k=v,... [options]",
                                         "dpareto evaluate --problem svt --params bound=10,noise=0.5 --seed 3 --json",
                                         options, argc, argv);
  if (!parsed) return 0;
  const auto& vm = *parsed;
  const auto problem = make_problem_from(vm);
  if (!vm.count("params")) {
    std::string names;
    for (const auto& p : problem->space().parameters()) names += (names.empty() ? "" : ",") + p.name + "=...";
    throw InputError("--params is required: --params " + names);
  }
  const auto params = problem->space().parse(vm["params"].as<std::string>(), "--params");
  if (!problem->space().contains(params))
    std::cerr << "warning: --params " << vm["params"].as<std::string>() << " lies outside the exploration domain of "
              << problem->name() << "; evaluating it anyway\n";
  const std::uint64_t seed = vm.count("seed") ? vm["seed"].as<std::uint64_t>() : os_random_u64();
  const auto e = problem->evaluate(params, seed);
  if (!e.ok) throw Error("evaluation failed: " + e.message);
  if (vm["json"].as<bool>()) {
    nlohmann::json j = {{"epsilon", json_number(e.epsilon)},         {"delta", json_number(e.delta)},
                        {"utility", json_number(e.utility)},         {"utility_min", json_number(e.utility_min)},
                        {"utility_max", json_number(e.utility_max)}, {"seconds", e.seconds}};
    if (!e.message.empty()) j["message"] = e.message;
    std::cout << j.dump() << "\n";
  } else {
    std::cout << problem->name() << " at " << problem->space().format(params) << ": epsilon "
              << readable_rounded_up(e.epsilon) << " (delta " << readable_rounded_up(e.delta) << "), utility "
              << readable_number(e.utility) << " [min " << readable_number(e.utility_min) << ", max "
              << readable_number(e.utility_max) << "] in " << readable_number(e.seconds) << " s"
              << (e.message.empty() ? "" : " (" + e.message + ")") << "\n";
  }
  return 0;
}

const CommandRegistration evaluate_registration("evaluate", "evaluate a problem's privacy and utility at one setting",
                                                run_evaluate);

}  // namespace
}  // namespace dpareto::apps
