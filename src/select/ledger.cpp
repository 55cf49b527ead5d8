#include "dpareto/select/ledger.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "dpareto/core/atomic_file.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_file.hpp"
#include "dpareto/core/json_number.hpp"

namespace dpareto::select {
namespace fs = std::filesystem;
namespace {

constexpr const char* kFormat = "dpareto-ledger 1";

void check_cap(const LedgerCap& cap, const std::string& where) {
  if (!(cap.epsilon > 0) || !std::isfinite(cap.epsilon))
    throw InputError(where + "cap epsilon " + format_number(cap.epsilon) + " must be a finite number > 0");
  if (!(cap.delta > 0 && cap.delta < 1))
    throw InputError(where + "cap delta " + format_number(cap.delta) + " must be in (0, 1)");
}

std::vector<double> numbers(const nlohmann::json& j, const std::string& what) {
  if (!j.is_array()) throw InputError(what + " is not an array");
  std::vector<double> out;
  for (const auto& v : j) out.push_back(number_from_json(v, what));
  return out;
}

// Parses a ledger document; every malformed field is an InputError naming the file and the field.
void parse(const nlohmann::json& j, const std::string& where, LedgerDataset& dataset, std::optional<LedgerCap>& cap,
           std::vector<LedgerEntry>& entries) {
  try {
    if (!j.is_object() || j.value("format", "") != kFormat)
      throw InputError("not a dpareto ledger (expected \"format\": \"" + std::string(kFormat) + "\")");
    const auto& d = j.at("dataset");
    dataset.id = d.at("id").get<std::string>();
    dataset.description = d.at("description").get<std::string>();
    for (const auto& f : d.at("files"))
      dataset.files.emplace_back(f.at("name").get<std::string>(), f.at("sha256").get<std::string>());
    if (!j.at("cap").is_null()) {
      cap = LedgerCap{number_from_json(j["cap"].at("epsilon"), "cap.epsilon"),
                      number_from_json(j["cap"].at("delta"), "cap.delta")};
      check_cap(*cap, "");
    }
    for (const auto& e : j.at("entries")) {
      LedgerEntry entry;
      entry.time = e.at("time").get<std::string>();
      entry.problem = e.at("problem").get<std::string>();
      entry.method = e.at("method").get<std::string>();
      entry.outcome = e.at("outcome").get<std::string>();
      entry.out = e.at("out").get<std::string>();
      entry.epsilon = number_from_json(e.at("epsilon"), "entry epsilon");
      entry.delta = number_from_json(e.at("delta"), "entry delta");
      entry.orders = numbers(e.at("orders"), "entry orders");
      entry.rdp = numbers(e.at("rdp"), "entry rdp");
      if (entry.orders.empty() || entry.orders.size() != entry.rdp.size())
        throw InputError("entry " + std::to_string(entries.size()) + ": orders and rdp differ in length");
      for (std::size_t i = 0; i < entry.orders.size(); ++i)
        if (!(entry.orders[i] > 1) || !(entry.rdp[i] >= 0))
          throw InputError("entry " + std::to_string(entries.size()) + ": order " + format_number(entry.orders[i]) +
                           " with RDP " + format_number(entry.rdp[i]) + " (orders > 1, RDP >= 0)");
      entries.push_back(std::move(entry));
    }
  } catch (const InputError& e) {
    throw InputError(where + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where + "malformed ledger (" + std::string(e.what()) + ")");
  }
}

nlohmann::json read_json(const fs::path& file) {
  try {
    return read_json_file(file, "ledger");
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) + " (corrupt ledger; it was left untouched)");
  }
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buffer[32];
  std::tm utc{};
  ::gmtime_r(&t, &utc);  // thread-safe, unlike std::gmtime
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

}  // namespace

LedgerDataset ledger_dataset_of(const problems::DpTrainingProblem& problem) {
  const auto identity = problem.data_identity();
  return {identity.id, identity.description, identity.files};
}

Ledger Ledger::read(const fs::path& file) {
  Ledger ledger;
  ledger.file_ = file;
  parse(read_json(file), "ledger " + file.string() + ": ", ledger.dataset_, ledger.cap_, ledger.entries_);
  return ledger;
}

Ledger Ledger::open(const fs::path& file, const LedgerDataset& dataset) {
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    Ledger ledger;
    ledger.file_ = file;
    ledger.dataset_ = dataset;
    return ledger;
  }
  Ledger ledger = read(file);
  if (ledger.dataset_.id != dataset.id)
    throw InputError("ledger " + file.string() + " belongs to other data (dataset " + ledger.dataset_.id.substr(0, 12) +
                     "..., " + ledger.dataset_.description + "), not to this one (" + dataset.id.substr(0, 12) +
                     "..., " + dataset.description + ")");
  return ledger;
}

privacy::EpsilonResult Ledger::total(double delta, const std::vector<double>* extra_orders,
                                     const std::vector<double>* extra) const {
  // The orders every curve has (entries written with another order grid still compose there).
  std::vector<const std::vector<double>*> order_lists, curves;
  for (const auto& e : entries_) {
    order_lists.push_back(&e.orders);
    curves.push_back(&e.rdp);
  }
  if (extra) {
    order_lists.push_back(extra_orders);
    curves.push_back(extra);
  }
  if (curves.empty()) return {0, delta, 0, privacy::Conversion::improved};
  std::vector<double> common = *order_lists.front();
  for (const auto* list : order_lists) {
    std::vector<double> keep;
    for (double a : common)
      if (std::find(list->begin(), list->end(), a) != list->end()) keep.push_back(a);
    common = std::move(keep);
  }
  if (common.empty()) throw InputError("ledger " + file_.string() + ": its entries share no RDP order to compose at");
  std::vector<double> sum(common.size(), 0.0);
  for (std::size_t c = 0; c < curves.size(); ++c)
    for (std::size_t i = 0; i < common.size(); ++i) {
      const auto at = std::find(order_lists[c]->begin(), order_lists[c]->end(), common[i]) - order_lists[c]->begin();
      sum[i] += (*curves[c])[static_cast<std::size_t>(at)];
    }
  return privacy::rdp_to_epsilon(common, sum, delta, privacy::Conversion::improved);
}

void Ledger::set_cap(const LedgerCap& cap) {
  check_cap(cap, "ledger " + file_.string() + ": ");
  cap_ = cap;
  save();
}

std::size_t Ledger::append(const LedgerEntry& entry) {
  LedgerEntry e = entry;
  if (e.time.empty()) e.time = utc_now();
  entries_.push_back(std::move(e));
  save();
  return entries_.size() - 1;
}

void Ledger::set_outcome(std::size_t index, const std::string& outcome) {
  entries_.at(index).outcome = outcome;
  save();
}

nlohmann::json Ledger::to_json() const {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& [name, sha] : dataset_.files) files.push_back({{"name", name}, {"sha256", sha}});
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& e : entries_) {
    nlohmann::json orders = nlohmann::json::array(), rdp = nlohmann::json::array();
    for (double a : e.orders) orders.push_back(json_number(a));
    for (double r : e.rdp) rdp.push_back(json_number(r));
    entries.push_back({{"time", e.time},
                       {"problem", e.problem},
                       {"method", e.method},
                       {"outcome", e.outcome},
                       {"out", e.out},
                       {"epsilon", json_number(e.epsilon)},
                       {"delta", json_number(e.delta)},
                       {"orders", orders},
                       {"rdp", rdp}});
  }
  return {{"format", kFormat},
          {"dataset", {{"id", dataset_.id}, {"description", dataset_.description}, {"files", files}}},
          {"cap", cap_ ? nlohmann::json{{"epsilon", json_number(cap_->epsilon)}, {"delta", json_number(cap_->delta)}}
                       : nlohmann::json(nullptr)},
          {"entries", entries}};
}

void Ledger::save() const {
  std::error_code ec;
  if (file_.has_parent_path()) fs::create_directories(file_.parent_path(), ec);
  try {
    write_file_atomically(file_, to_json().dump(1) + "\n");
  } catch (const InputError& e) {
    throw InputError("ledger " + file_.string() + ": " + e.what());
  }
}

fs::path default_ledger_path(const std::string& dataset_id) {
  const std::string name = dataset_id + ".json";
  if (const char* dir = std::getenv("DPARETO_LEDGER_DIR"); dir && *dir) return fs::path(dir) / name;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return fs::path(xdg) / "dpareto" / "ledgers" / name;
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".local" / "share" / "dpareto" / "ledgers" / name;
  throw InputError("no place for the privacy ledger: set --ledger FILE, DPARETO_LEDGER_DIR or HOME");
}

FileLock lock_ledger(const fs::path& ledger_file) {
  std::error_code ec;
  if (ledger_file.has_parent_path()) fs::create_directories(ledger_file.parent_path(), ec);
  return FileLock(ledger_file.string() + ".lock", O_RDWR | O_CREAT | O_NOFOLLOW, FileLock::Wait::yes,
                  "ledger " + ledger_file.string());
}

}  // namespace dpareto::select
