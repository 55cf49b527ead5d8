#include "dpareto/problems/external_command_problem.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <thread>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_file.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/core/shell_words.hpp"
#include "dpareto/core/stop_request.hpp"
#include "dpareto/core/subprocess.hpp"
#include "dpareto/core/worker_slot.hpp"

extern char** environ;

namespace dpareto::problems {
namespace {

using Clock = std::chrono::steady_clock;
// The oracle's stdout is kept up to its last 4 MiB (progress lines before the JSON are fine); the
// JSON it is judged on is the whole kept text or its last non-empty line, nested at most 64 deep.
constexpr std::size_t max_stdout_bytes = std::size_t{4} << 20;
constexpr int max_json_depth = 64;

// The output evaluate() is judging on this thread: privacy(), utility() and delta() read it
// instead of running the command again.
thread_local const ExternalCommandProblem::Output* pinned_output = nullptr;

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// Names the template reserves for dpareto's own placeholders.
bool reserved_placeholder(const std::string& name) {
  return name == "seed" || name == "seed32" || name == "worker";
}

// {seed32}: the seed's low 32 bits (evaluation seeds are hashes, so every bit is as random).
std::uint32_t seed32(std::uint64_t seed) {
  return static_cast<std::uint32_t>(seed & 0xffffffffu);
}

// A parameter value as it may appear in argv: a plain decimal number, nothing else.
std::string safe_number(double value, const std::string& what) {
  const std::string text = format_number(value);
  bool ok = !text.empty() && std::isfinite(value);
  for (char c : text)
    ok = ok && (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == '-' || c == '+');
  if (!ok) throw Error("external oracle: value '" + text + "' of " + what + " is not a plain number");
  return text;
}

// Replaces the bare NaN / Infinity / -Infinity tokens of Python's json.dumps (outside strings) by
// null / "inf" / "-inf", which json_number understands.
std::string normalize_python_json(const std::string& text) {
  std::string out;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size())
        out += text[++i];
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (text.compare(i, 3, "NaN") == 0) {
      out += "null";
      i += 2;
      continue;
    }
    if (text.compare(i, 9, "-Infinity") == 0) {
      out += "\"-inf\"";
      i += 8;
      continue;
    }
    if (text.compare(i, 8, "Infinity") == 0) {
      out += "\"inf\"";
      i += 7;
      continue;
    }
    out += c;
  }
  return out;
}

std::string excerpt(const std::string& raw) {
  const auto first = raw.find_first_not_of(" \t\r\n");
  const std::string text =
      first == std::string::npos ? "" : raw.substr(first, raw.find_last_not_of(" \t\r\n") - first + 1);
  std::string s = text.substr(0, 80);
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return "'" + printable(s, 80) + (text.size() > 80 ? "...'" : "'");  // binary junk is never echoed raw
}

// The last non-empty line of a text, without its line break.
std::string last_line(const std::string& text) {
  const auto end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  const auto newline = text.rfind('\n', end);
  const auto begin = newline == std::string::npos ? 0 : newline + 1;
  return text.substr(begin, end - begin + 1);
}

// The last non-empty line of a log file, for failure messages.
std::string last_log_line(const std::string& path) {
  if (path.empty()) return "";
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last.size() > 200 ? last.substr(0, 200) + "..." : last;
}

}  // namespace

ExternalCommandProblem::ExternalCommandProblem(space::Space space, ExternalCommandOptions options)
    : space_(std::move(space)), options_(std::move(options)) {
  const std::string& t = options_.command;
  const std::string& src = options_.source;
  if (!(options_.timeout_seconds >= 0)) throw InputError(src + ": the timeout must be non-negative");
  for (const auto& p : space_.parameters())
    if (reserved_placeholder(p.name))
      throw InputError(src + ": a parameter named '" + p.name + "' collides with the {" + p.name + "} placeholder");
  // Words first, as the shell would split them (quotes and backslashes; nothing expanded or run),
  // then the placeholders inside each word: a value substituted later never splits a word.
  for (const std::string& text : shell_words(t, src)) {
    Word word;
    auto literal = [&](char c) {
      if (word.empty() || word.back().kind != Piece::Kind::literal) word.push_back({});
      word.back().text += c;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      const std::size_t close = c == '{' ? text.find('}', i) : std::string::npos;
      if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {  // {{ and }} are literal braces
        literal(c);
        ++i;
      } else if (close != std::string::npos && is_identifier(text.substr(i + 1, close - i - 1))) {
        word.push_back(placeholder(text.substr(i + 1, close - i - 1)));
        i = close;
      } else {
        literal(c);
      }
    }
    words_.push_back(std::move(word));
  }
  if (words_.empty()) throw InputError(src + ": the command is empty");
}

ExternalCommandProblem::Piece ExternalCommandProblem::placeholder(const std::string& name) const {
  if (name == "seed") return {Piece::Kind::seed, name};
  if (name == "seed32") return {Piece::Kind::seed32, name};
  if (name == "worker") return {Piece::Kind::worker, name};
  try {
    return {Piece::Kind::parameter, name, space_.index_of(name)};
  } catch (const InputError&) {
    std::string known;
    for (const auto& p : space_.parameters()) known += p.name + ", ";
    throw InputError(options_.source + ": placeholder {" + name + "} names no parameter (known: " + known +
                     "seed, seed32, worker)");
  }
}

double ExternalCommandProblem::delta() const {
  if (options_.known_epsilon) return options_.known_epsilon->delta;
  return pinned_output ? pinned_output->delta : options_.delta;
}

double ExternalCommandProblem::search_privacy(const space::Params& params) const {
  static const std::vector<double> orders = privacy::search_orders();
  if (!options_.known_epsilon) return privacy(params);
  return options_.known_epsilon->epsilon(params, orders);
}

std::string ExternalCommandProblem::known_privacy_obstacle() const {
  if (options_.known_epsilon) return "";
  return "its epsilon comes only with training; declare how it is accounted in the space file's \"known_epsilon\"";
}

void ExternalCommandProblem::account_declared(const space::Params& params, Output& out) const {
  const KnownEpsilonDeclaration& declared = *options_.known_epsilon;
  std::string mismatch;  // the first printed ε the declaration disagrees with
  // The declaration's ε of a setting (InputError where it cannot account it).
  const auto account = [&](const space::Params& setting, std::optional<double> printed, const std::string& what) {
    const double epsilon = declared.epsilon(setting, privacy::default_orders());
    if (mismatch.empty() && printed && !(std::abs(*printed - epsilon) <= 0.05 * epsilon))
      mismatch = what + "\"epsilon\" " + format_number(*printed) + " is not the declared known_epsilon's " +
                 format_number(epsilon) + " (within 5 %): the declaration does not describe this oracle";
    return epsilon;
  };
  try {
    out.epsilon = account(params, out.epsilon_printed ? std::optional<double>(out.epsilon) : std::nullopt, "output ");
    for (std::size_t i = 0; i < out.intermediate.size(); ++i) {
      IntermediateResult& r = out.intermediate[i].result;
      r.epsilon = account(r.params, r.epsilon, "output \"intermediate\"[" + std::to_string(i) + "] ");
    }
  } catch (const InputError& e) {
    out.ok = false;
    out.message = std::string("the space file's ") + e.what();
    return;
  }
  if (!mismatch.empty()) {
    out.ok = false;
    out.message = mismatch;
    return;
  }
  if (out.delta_printed && out.delta != declared.delta) {
    out.ok = false;
    out.message = "output \"delta\" " + format_number(out.delta) + " is not the declared known_epsilon's " +
                  format_number(declared.delta);
    return;
  }
  out.delta = declared.delta;
}

void ExternalCommandProblem::resolve_intermediate(const space::Params& params, Output& out) const {
  for (std::size_t i = 0; i < out.intermediate.size(); ++i) {
    auto& printed = out.intermediate[i];
    const std::string where = "output \"intermediate\"[" + std::to_string(i) + "]";
    space::Params setting = params;
    for (const auto& [name, value] : printed.setting) {
      const auto& names = space_.parameters();
      const auto at = std::find_if(names.begin(), names.end(), [&](const auto& p) { return p.name == name; });
      if (at == names.end()) {
        out.ok = false;
        out.message = where + ": " + printable(name) + " is no parameter of the space (nor epsilon, utility, " +
                      "utility_min, utility_max)";
        return;
      }
      const auto index = static_cast<std::size_t>(at - names.begin());
      setting[index] = value;
      if (!space_.contains(setting)) {
        out.ok = false;
        out.message = where + ": " + printable(name) + " " + format_number(value) + " is outside its domain [" +
                      format_number(at->low) + ", " + format_number(at->high) + "]" +
                      (at->kind == space::Kind::integer ? " or not a whole number" : "");
        return;
      }
    }
    if (setting == params) {
      out.ok = false;
      out.message = where + " is the evaluated setting itself: name the parameters that differ (e.g. \"epochs\")";
      return;
    }
    printed.result.params = std::move(setting);
  }
}

double ExternalCommandProblem::privacy(const space::Params& params) const {
  if (pinned_output) return pinned_output->epsilon;
  const Output out = run(params, 0);
  if (!out.ok) throw Error(out.message);
  return out.epsilon;
}

UtilityResult ExternalCommandProblem::utility(const space::Params& params, std::uint64_t seed) const {
  Output own;
  const Output* out = pinned_output;
  if (!out) {
    own = run(params, seed);
    out = &own;
  }
  if (!out->ok) throw Error(out->message);
  UtilityResult u{out->utility, out->utility_min, out->utility_max, "", {}, {}};
  for (const auto& printed : out->intermediate) u.intermediate.push_back(printed.result);
  return u;
}

std::map<std::string, std::string> ExternalCommandProblem::settings() const {
  // The timeout is not part of the problem: a resume may change it.
  std::map<std::string, std::string> settings{{"command", options_.command}};
  if (options_.known_epsilon) settings["known_epsilon"] = known_epsilon_to_json(*options_.known_epsilon, space_).dump();
  return settings;
}

Evaluation ExternalCommandProblem::evaluate(const space::Params& params, std::uint64_t seed, const GoOn&) const {
  const auto start = Clock::now();
  const Output out = run(params, seed);
  Evaluation e;
  if (out.ok) {
    pinned_output = &out;
    e = Problem::evaluate(params, seed, {});  // Problem's own (the 2-argument overload dispatches back here)
    pinned_output = nullptr;
  } else {
    e.message = out.message;
  }
  e.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  e.further = out.further;
  if (!e.further.contains("train_seconds")) e.further["train_seconds"] = e.seconds;
  return e;
}

std::vector<std::string> ExternalCommandProblem::command_line(const space::Params& params, std::uint64_t seed) const {
  if (params.size() != space_.dimension())
    throw Error("external oracle: expected " + std::to_string(space_.dimension()) + " values");
  std::vector<std::string> argv;
  for (const auto& word : words_) {
    std::string text;
    for (const auto& piece : word) switch (piece.kind) {
        case Piece::Kind::literal:
          text += piece.text;
          break;
        case Piece::Kind::parameter:
          text += safe_number(params[piece.parameter], "parameter '" + piece.text + "'");
          break;
        case Piece::Kind::seed:
          text += std::to_string(seed);
          break;
        case Piece::Kind::seed32:
          text += std::to_string(seed32(seed));
          break;
        case Piece::Kind::worker:
          text += std::to_string(current_worker_slot());
          break;
      }
    argv.push_back(std::move(text));
  }
  return argv;
}

std::string ExternalCommandProblem::log_path(std::uint64_t seed) const {
  if (options_.log_directory.empty()) return "";
  char name[64];
  std::snprintf(name, sizeof(name), "/oracle-%016llx.log", static_cast<unsigned long long>(seed));
  return options_.log_directory + name;
}

ExternalCommandProblem::Output ExternalCommandProblem::run(const space::Params& params, std::uint64_t seed) const {
  Output out;
  const std::vector<std::string> args = command_line(params, seed);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) env_strings.emplace_back(*e);
  for (std::size_t i = 0; i < space_.dimension(); ++i)
    env_strings.push_back("DPARETO_PARAM_" + space_.parameter(i).name + "=" +
                          safe_number(params[i], "parameter '" + space_.parameter(i).name + "'"));
  env_strings.push_back("DPARETO_SEED=" + std::to_string(seed));
  env_strings.push_back("DPARETO_SEED32=" + std::to_string(seed32(seed)));
  env_strings.push_back("DPARETO_WORKER=" + std::to_string(current_worker_slot()));
  std::vector<char*> argv, envp;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : env_strings) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  pid_t pid = 0;
  const std::string log = log_path(seed);
  // A log name is predictable (the seed): never follow a link planted there. The old file (or link)
  // is removed and the log created exclusively, so a re-planted link makes the open fail instead.
  if (!log.empty()) ::unlink(log.c_str());
  const int err_fd = log.empty() ? ::open("/dev/null", O_WRONLY | O_CLOEXEC)
                                 : ::open(log.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (err_fd < 0) throw Error("external oracle: cannot open log file " + log + ": " + std::strerror(errno));
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    ::close(err_fd);
    throw Error(std::string("external oracle: pipe failed: ") + std::strerror(errno));
  }
  const int spawn_error = start_process(argv.data(), envp.data(), pipe_fds[1], err_fd, pid);
  ::close(pipe_fds[1]);
  ::close(err_fd);
  if (spawn_error != 0) {
    ::close(pipe_fds[0]);
    out.message = "cannot run '" + args[0] + "': " + std::strerror(spawn_error);
    return out;
  }

  const auto start = Clock::now();
  const bool has_timeout = options_.timeout_seconds > 0;
  const auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options_.timeout_seconds));
  ::fcntl(pipe_fds[0], F_SETFL, ::fcntl(pipe_fds[0], F_GETFL) | O_NONBLOCK);
  std::string text;
  std::size_t dropped = 0;  // bytes of stdout cut from the front to keep the last max_stdout_bytes
  int status = 0;
  bool eof = false, exited = false, timed_out = false;
  auto drain = [&] {
    char buf[1 << 16];
    while (true) {
      const ssize_t n = ::read(pipe_fds[0], buf, sizeof(buf));
      if (n > 0) {
        text.append(buf, static_cast<std::size_t>(n));
        if (text.size() > 2 * max_stdout_bytes) {
          dropped += text.size() - max_stdout_bytes;
          text.erase(0, text.size() - max_stdout_bytes);
        }
      } else if (n == 0) {
        eof = true;
        return;
      } else if (errno != EINTR) {
        return;  // EAGAIN: nothing more for now
      }
    }
  };
  while (!exited) {
    if (const int signal = stop_signal()) {  // the user stopped dpareto: stop the oracle's whole group
      kill_group(pid, status);
      ::close(pipe_fds[0]);
      throw Interrupted(signal);
    }
    int wait_ms = 50;
    if (has_timeout) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        timed_out = true;
        kill_group(pid, status);
        break;
      }
      wait_ms = static_cast<int>(std::min<long long>(wait_ms, left));
    }
    if (!eof) {
      pollfd p{pipe_fds[0], POLLIN, 0};
      ::poll(&p, 1, wait_ms);
      drain();
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min(wait_ms, 5)));
    }
    exited = reap(pid, status, false);
  }
  drain();  // what the process wrote just before exiting
  ::close(pipe_fds[0]);
  if (text.size() > max_stdout_bytes) {
    dropped += text.size() - max_stdout_bytes;
    text.erase(0, text.size() - max_stdout_bytes);
  }

  const std::string log_note = log.empty() ? "" : " (stderr: " + log + ")";
  const std::string tail = last_log_line(log);
  const std::string tail_note = tail.empty() ? "" : "; last stderr line: " + tail;
  if (timed_out) {
    out.message = "timed out after " + format_number(options_.timeout_seconds) + " s; process group killed" + log_note;
  } else if (WIFSIGNALED(status)) {
    out.message = "killed by signal " + std::to_string(WTERMSIG(status)) + tail_note + log_note;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    out.message = "exit status " + std::to_string(WEXITSTATUS(status)) + tail_note + log_note;
  } else {
    out = parse_oracle_output(text, options_.delta, !options_.known_epsilon, options_.objective_keys);
    if (out.ok) resolve_intermediate(params, out);
    if (out.ok && options_.known_epsilon) account_declared(params, out);
    if (!out.ok && dropped > 0)
      out.message += " (only the last " + std::to_string(max_stdout_bytes >> 20) + " MiB of stdout were kept; " +
                     std::to_string(dropped) + " bytes before them were cut)";
    if (!out.ok) out.message += log_note;
  }
  return out;
}

namespace {

// The output's "intermediate" array (its parameters resolved later, by the problem).
std::vector<ExternalCommandProblem::Output::Printed> parse_intermediate(
    const nlohmann::json& list, bool epsilon_required, const std::vector<std::string>& objective_keys) {
  if (!list.is_array()) throw InputError("output \"intermediate\" is not a JSON array of objects");
  std::vector<ExternalCommandProblem::Output::Printed> parsed;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "output \"intermediate\"[" + std::to_string(i) + "]";
    const auto& item = list[i];
    if (!item.is_object()) throw InputError(where + " is not a JSON object");
    auto& printed = parsed.emplace_back();
    IntermediateResult& r = printed.result;
    if (!item.contains("utility")) throw InputError(where + " has no \"utility\"");
    if (epsilon_required && !item.contains("epsilon")) throw InputError(where + " has no \"epsilon\"");
    for (const auto& [key, value] : item.items()) {
      const double number = number_from_json(value, where + " \"" + printable(key) + "\"");
      if (key == "epsilon")
        r.epsilon = number;
      else if (key == "utility")
        r.utility = number;
      else if (std::find(objective_keys.begin(), objective_keys.end(), key) != objective_keys.end())
        r.further[key] = number;
      else if (key != "utility_min" && key != "utility_max")
        printed.setting.emplace_back(key, number);
    }
    r.utility_min = item.contains("utility_min") ? number_from_json(item.at("utility_min"), where) : r.utility;
    r.utility_max = item.contains("utility_max") ? number_from_json(item.at("utility_max"), where) : r.utility;
    if (printed.setting.empty())
      throw InputError(where + " names no parameter: say which setting it measured (e.g. \"epochs\": 3)");
  }
  return parsed;
}

}  // namespace

ExternalCommandProblem::Output parse_oracle_output(const std::string& text, double default_delta, bool epsilon_required,
                                                   const std::vector<std::string>& objective_keys) {
  ExternalCommandProblem::Output out;
  nlohmann::json doc;
  const std::string normalized = normalize_python_json(text);
  const auto parse = [](const std::string& candidate) {
    if (json_nesting_depth(candidate) > max_json_depth)
      throw InputError("nests deeper than " + std::to_string(max_json_depth) + " levels");
    return nlohmann::json::parse(candidate);
  };
  try {
    doc = parse(normalized);
  } catch (const std::exception&) {
    try {
      doc = parse(last_line(normalized));  // scripts that also print progress
    } catch (const InputError& e) {
      out.message = "output " + excerpt(last_line(text)) + " " + e.what() + " (expected a flat JSON object)";
      return out;
    } catch (const nlohmann::json::exception&) {  // not JSON, or a number beyond double (1e999)
      out.message = text.find_first_not_of(" \t\r\n") == std::string::npos
                        ? "the command printed nothing on stdout (expected a JSON object)"
                        : "unparseable output " + excerpt(text) + " (expected a JSON object)";
      return out;
    }
  }
  if (!doc.is_object()) {
    out.message = "output " + excerpt(doc.dump()) + " is not a JSON object";
    return out;
  }
  try {
    if (epsilon_required && !doc.contains("epsilon")) throw InputError("output has no \"epsilon\"");
    if (!doc.contains("utility")) throw InputError("output has no \"utility\"");
    out.epsilon_printed = doc.contains("epsilon");
    out.delta_printed = doc.contains("delta");
    if (out.epsilon_printed) out.epsilon = number_from_json(doc.at("epsilon"), "output \"epsilon\"");
    out.utility = number_from_json(doc.at("utility"), "output \"utility\"");
    out.utility_min =
        doc.contains("utility_min") ? number_from_json(doc.at("utility_min"), "output \"utility_min\"") : out.utility;
    out.utility_max =
        doc.contains("utility_max") ? number_from_json(doc.at("utility_max"), "output \"utility_max\"") : out.utility;
    out.delta = doc.contains("delta") ? number_from_json(doc.at("delta"), "output \"delta\"") : default_delta;
    for (const auto& key : objective_keys)
      if (doc.contains(key)) out.further[key] = number_from_json(doc.at(key), "output \"" + key + "\"");
    if (doc.contains("intermediate"))
      out.intermediate = parse_intermediate(doc.at("intermediate"), epsilon_required, objective_keys);
  } catch (const InputError& e) {
    out.message = e.what();
    return out;
  }
  if (!(out.delta >= 0 && out.delta < 1)) {
    out.message = "invalid delta " + format_number(out.delta) + " in the output";
    return out;
  }
  out.ok = true;
  return out;
}

}  // namespace dpareto::problems
