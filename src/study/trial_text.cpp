#include "trial_text.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::study {

double now_unix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

nlohmann::json parse_json(const std::string& text, const std::string& where) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {  // not JSON, or a number beyond double (1e999)
    throw InputError(where + ": not valid JSON");
  }
}

std::uint64_t parse_seed(const std::string& text, const std::string& where) {
  std::uint64_t v = 0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size())
    throw InputError(where + ": seed '" + printable(text) + "' is not a 64-bit unsigned integer");
  return v;
}

std::string params_text(const std::vector<double>& params) {
  nlohmann::json a = nlohmann::json::array();
  for (double p : params) a.push_back(json_number(p));
  return a.dump();
}

std::vector<double> parse_params(const std::string& text, std::size_t count, const std::string& row) {
  const auto params = parse_json(text, row + ": params");
  if (!params.is_array() || params.size() != count)
    throw InputError(row + ": params " + printable(text) + " is not an array of " + std::to_string(count) + " numbers");
  std::vector<double> out;
  for (const auto& p : params) {
    const double v = number_from_json(p, row + ": params");
    if (!std::isfinite(v)) throw InputError(row + ": params " + printable(text) + " holds a non-finite value");
    out.push_back(v);
  }
  return out;
}

void check_trial(const Trial& t, bool has_completion, const std::string& row) {
  const auto& r = t.record;
  if (r.phase.empty()) throw InputError(row + ": empty phase");
  if ((r.status == EvaluationStatus::running) == has_completion)
    throw InputError(row + ": status '" + to_string(r.status) + "' does not match its completion number");
  if (r.ok() && !(r.epsilon >= 0 && r.utility >= 0 && r.utility <= 1))
    throw InputError(row + ": status ok but epsilon/utility are missing or out of range");
}

int last_completion(const std::vector<Trial>& trials) {
  int last = 0;
  for (const auto& t : trials) last = std::max(last, t.record.id);
  return last;
}

void place_trial(std::vector<Trial>& trials, Trial trial, const std::string& row) {
  const auto index = static_cast<std::size_t>(trial.trial);
  if (trial.trial < 0 || index > trials.size())
    throw InputError(row + ": trials are not numbered 0, 1, 2, ... (expected at most " + std::to_string(trials.size()) +
                     ")");
  if (index == trials.size())
    trials.push_back(std::move(trial));
  else
    trials[index] = std::move(trial);
}

void check_completion_numbers(const std::vector<Trial>& trials, const std::string& where) {
  std::vector<char> seen(trials.size() + 1, 0);
  std::size_t completed = 0;
  for (const auto& t : trials) {
    if (t.record.id == 0) continue;
    const auto id = static_cast<std::size_t>(t.record.id);
    if (t.record.id < 0 || id > trials.size() || seen[id])
      throw InputError(where + ": corrupt row (trial " + std::to_string(t.trial) + "): invalid completion number '" +
                       std::to_string(t.record.id) + "'");
    seen[id] = 1;
    ++completed;
  }
  for (std::size_t id = 1; id <= completed; ++id)
    if (!seen[id])
      throw InputError(where + ": corrupt rows: completion numbers are not 1.." + std::to_string(completed));
}

}  // namespace dpareto::study
