#pragma once
// The external-command oracle: a user's training script evaluates one setting per run.
//
//   dpareto explore --space space.json
//                   --oracle-cmd 'python3 train.py --lr {lr} --epochs {epochs} --seed {seed}'
//
// The command runs once per evaluation and prints one JSON object on stdout:
//   {"epsilon": 1.2, "utility": 0.91}   (optional: "utility_min", "utility_max", "delta"; a further
//   objective space.json declares, e.g. "seconds": 41.5; other keys are ignored; NaN/Infinity as
//   Python's json module writes them are accepted and judged).
// It may add results measured on the way (issue 18 item 2: a training's earlier epochs), each the
// result of another setting that it names by the parameters that differ:
//   "intermediate": [{"epochs": 1, "epsilon": 0.4, "utility": 0.81}, {"epochs": 2, ...}, ...]
// (each: "utility", "epsilon" unless a known_epsilon declaration accounts it, optional "utility_min"
// and "utility_max", the declared further objectives, every other key a parameter with its value in
// its domain). In order of
// training, their ε may not decrease nor exceed the final one; a bad one fails the evaluation.
// Its stderr goes to a per-evaluation log file. A non-zero exit, a signal, a timeout (the whole
// process group is killed: SIGTERM, then SIGKILL after 1 s), unparseable output, or invalid values
// make a failed evaluation whose message says why. The command dies with dpareto (parent-death
// signal), so a killed run leaves no orphaned training behind.
//
// Safe substitution: the template is split into argv words by dpareto itself (whitespace separates
// words; '...' and "..." quote, backslash escapes) and executed directly (execvpe), never through
// a shell. A placeholder {name} is replaced inside its word by the parameter's value formatted by
// dpareto (shortest round-trip decimal; every value is checked to be a plain number), so a value
// can neither split a word nor reach a shell. {seed} is the evaluation's seed (64 bits), {seed32}
// its low 32 bits (for generators that take no more, numpy's among them), {worker} the slot
// 0..workers−1 the evaluation runs in (core/worker_slot.hpp; e.g. a GPU index); {{ and }} are
// literal braces. The same values are also exported as environment variables DPARETO_PARAM_<name>,
// DPARETO_SEED, DPARETO_SEED32 and DPARETO_WORKER. A placeholder naming no parameter is an
// InputError at construction.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dpareto/problems/known_epsilon_declaration.hpp"
#include "dpareto/problems/problem.hpp"

namespace dpareto::problems {

struct ExternalCommandOptions {
  std::string command;                  // the template
  double timeout_seconds = 0;           // 0: no timeout
  std::string log_directory;            // per-evaluation stderr logs; empty: stderr is discarded
  double delta = 0;                     // reported when the output has no "delta"
  std::string source = "--oracle-cmd";  // names the template in error messages
  // space.json's "known_epsilon": dpareto accounts ε (and δ) itself; the output's "epsilon" may be
  // left out, and one more than 5 % away from the declared accounting (or another "delta") fails
  // the evaluation: the declaration would not describe the oracle.
  std::optional<KnownEpsilonDeclaration> known_epsilon;
  // The further objectives (space.json's "objectives", issue 13 item 2): the output keys that report
  // them. train_seconds, unless the output prints it, is the command's wall time.
  std::vector<std::string> objective_keys;
};

class ExternalCommandProblem : public Problem {
 public:
  // What one run of the command produced.
  struct Output {
    bool ok = false;
    std::string message;  // why it failed
    double epsilon = 0, delta = 0, utility = 0, utility_min = 0, utility_max = 0;
    bool epsilon_printed = false, delta_printed = false;
    std::map<std::string, double> further;  // the declared objective keys it printed
    // "intermediate": each result with the parameters it names, by name (resolved by run()).
    struct Printed {
      std::vector<std::pair<std::string, double>> setting;
      IntermediateResult result;  // params filled by run()
    };
    std::vector<Printed> intermediate;
  };

  // Throws InputError (naming options.source) for an empty or badly quoted template, or a
  // placeholder that names no parameter of `space`.
  ExternalCommandProblem(space::Space space, ExternalCommandOptions options);

  std::string name() const override { return "external"; }
  const space::Space& space() const override { return space_; }
  double delta() const override;
  // Each runs the command (privacy() with seed 0) unless called from evaluate().
  double privacy(const space::Params& params) const override;
  // With a known_epsilon declaration: its ε on privacy::search_orders(), no command run.
  double search_privacy(const space::Params& params) const override;
  std::string known_privacy_obstacle() const override;
  UtilityResult utility(const space::Params& params, std::uint64_t seed) const override;
  std::map<std::string, std::string> settings() const override;
  std::string early_stop_obstacle() const override { return "an external oracle runs to its end"; }
  // Runs the command once and judges its output with Problem::evaluate's checks; the command cannot
  // stop early (`go_on` is not asked).
  using Problem::evaluate;
  Evaluation evaluate(const space::Params& params, std::uint64_t seed, const GoOn& go_on) const override;

  // The argv for one evaluation (placeholders substituted).
  std::vector<std::string> command_line(const space::Params& params, std::uint64_t seed) const;
  // Runs the command once.
  Output run(const space::Params& params, std::uint64_t seed) const;
  // Where run() writes the stderr of the evaluation with this seed ("" without a log directory).
  std::string log_path(std::uint64_t seed) const;

 private:
  // A word of the template: literal text and placeholders.
  struct Piece {
    enum class Kind { literal, parameter, seed, seed32, worker } kind = Kind::literal;
    std::string text;           // the literal text, or the placeholder's name
    std::size_t parameter = 0;  // Kind::parameter: index into space_
  };
  using Word = std::vector<Piece>;
  // A successful output under a known_epsilon declaration: ε and δ by the declaration, or a failure
  // when the output's own disagree.
  void account_declared(const space::Params& params, Output& out) const;
  // The settings of the output's intermediate results: `params` with the parameters each names (a
  // failure naming the result when a name is no parameter, a value outside its domain, or the
  // setting is `params` itself).
  void resolve_intermediate(const space::Params& params, Output& out) const;
  // The piece of a placeholder {name}: a parameter, seed, seed32 or worker (InputError otherwise).
  Piece placeholder(const std::string& name) const;

  space::Space space_;
  ExternalCommandOptions options_;
  std::vector<Word> words_;
};

// Parses a stdout text as the oracle's JSON object (the whole text, or else its last non-empty
// line). Returns an Output whose message says what is wrong when it cannot be used.
// `epsilon_required` false: an output without "epsilon" is fine (a known_epsilon declaration accounts it).
// The `objective_keys` it prints (at the top and in "intermediate" items) must be numbers.
ExternalCommandProblem::Output parse_oracle_output(const std::string& text, double default_delta,
                                                   bool epsilon_required = true,
                                                   const std::vector<std::string>& objective_keys = {});

}  // namespace dpareto::problems
