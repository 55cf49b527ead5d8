#pragma once
// How both study back-ends (SQLite, PostgreSQL) write a trial's fields as text and read them back,
// validating what they read: a study is a file or a database someone else may have edited.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dpareto/study/storage.hpp"

namespace dpareto::study {

// Seconds since the Unix epoch: the creation, start and finish times both back-ends store.
double now_unix();
// JSON text; InputError naming `where` when it is not JSON.
nlohmann::json parse_json(const std::string& text, const std::string& where);
// A 64-bit seed as decimal text; InputError naming `where` otherwise.
std::uint64_t parse_seed(const std::string& text, const std::string& where);
// A trial's parameters as a JSON array of exact (round-trip) numbers, and back: an array of `count`
// finite numbers, else InputError naming `row`.
std::string params_text(const std::vector<double>& params);
std::vector<double> parse_params(const std::string& text, std::size_t count, const std::string& row);
// Checks a trial read from a study against its run information: a phase, a completion number for
// exactly the completed trials, in-range measurements for ok ones. InputError naming `row`.
void check_trial(const Trial& trial, bool has_completion, const std::string& row);

// Reading a study incrementally: completed rows never change, so a refresh reads only the rows that
// are running, new (trial >= known_trials) or completed since (completion > known_completions).
constexpr const char* kChangedRows = "(trial >= ? OR status = 'running' OR completion > ?)";
int last_completion(const std::vector<Trial>& trials);
// Puts a trial read from a study into `trials` (indexed by trial number): replaces a known one or
// appends the next; InputError naming `row` for a gap.
void place_trial(std::vector<Trial>& trials, Trial trial, const std::string& row);
// The completion numbers of `trials` are 1..k, each once; InputError naming `where` otherwise.
void check_completion_numbers(const std::vector<Trial>& trials, const std::string& where);

}  // namespace dpareto::study
