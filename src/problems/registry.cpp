#include "dpareto/problems/registry.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <thread>

#include "dpareto/core/did_you_mean.hpp"
#include "dpareto/core/error.hpp"

namespace dpareto::problems {
namespace {

std::map<std::string, ProblemInfo>& table() {
  static std::map<std::string, ProblemInfo> problems;
  return problems;
}

template <typename T>
T parse_option(const ProblemOptions& options, const std::string& key, T fallback, const char* kind) {
  const auto it = options.find(key);
  if (it == options.end()) return fallback;
  const std::string& text = it->second;
  T value{};
  const auto res = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size())
    throw InputError("option " + key + "=" + text + ": expected " + kind);
  return value;
}

}  // namespace

void register_problem(ProblemInfo info) {
  table()[info.name] = std::move(info);
}

std::unique_ptr<Problem> make_problem(const std::string& name, const ProblemOptions& options) {
  const auto it = table().find(name);
  if (it == table().end()) {
    std::string known;
    std::vector<std::string> names;
    for (const auto& [n, info] : table()) {
      known += (known.empty() ? "" : ", ") + n;
      names.push_back(n);
    }
    throw InputError("unknown problem '" + name + "'" + did_you_mean(name, names) + " (known: " + known + ")");
  }
  return it->second.make(options);
}

std::vector<ProblemInfo> list_problems() {
  std::vector<ProblemInfo> out;
  for (const auto& [n, info] : table()) out.push_back(info);
  return out;
}

int option_int(const ProblemOptions& options, const std::string& key, int fallback) {
  return parse_option<int>(options, key, fallback, "an integer");
}

double option_double(const ProblemOptions& options, const std::string& key, double fallback) {
  const double v = parse_option<double>(options, key, fallback, "a number");
  if (!std::isfinite(v)) throw InputError("option " + key + ": expected a finite number");
  return v;
}

int option_threads(const ProblemOptions& options) {
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int threads = option_int(options, "threads", cores);
  if (threads < 1 || threads > 64 * cores)
    throw InputError("option threads=" + std::to_string(threads) + ": expected 1.." + std::to_string(64 * cores) +
                     " (at most 64 per core; this host has " + std::to_string(cores) + ")");
  return threads;
}

std::string option_string(const ProblemOptions& options, const std::string& key, const std::string& fallback) {
  const auto it = options.find(key);
  return it == options.end() ? fallback : it->second;
}

void reject_unknown_options(const ProblemOptions& options, const std::vector<std::string>& known,
                            const std::string& problem_name) {
  for (const auto& [key, value] : options) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw InputError("problem " + problem_name + ": unknown option '" + key + "'" + did_you_mean(key, known) +
                       " (known: " + (list.empty() ? "none" : list) + ")");
    }
  }
}

}  // namespace dpareto::problems
