#pragma once
// The privacy ledger of one dataset (issue 22): every `dpareto tune` on the same private training
// data spends budget again — also a run that ended "nothing released", which still looked at the
// data — so each run appends its RDP curve and outcome to the dataset's ledger, and the total is
// their composition (RDP adds, Mironov 2017 Prop. 1), converted once at δ.
//
// The ledger is bookkeeping for honest users, not a protection against a malicious one: whoever
// can write the file can remove entries, and nothing stops a run with another ledger.
//
// File (JSON): {"format": "dpareto-ledger 1", "dataset": {"id", "description", "files": [{"name",
// "sha256"}]}, "cap": null | {"epsilon", "delta"}, "entries": [{"time", "problem", "method",
// "outcome", "epsilon", "delta", "orders": [...], "rdp": [...], "out"}]}. An entry is appended
// *before* the run touches the data (outcome "started") and its outcome is updated afterwards, so
// a crash still counts. Writes go to FILE.tmp and are renamed; an advisory lock on FILE.lock
// serialises concurrent runs.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpareto/core/file_lock.hpp"
#include "dpareto/privacy/rdp_conversion.hpp"
#include "dpareto/problems/dp_training_problem.hpp"

namespace dpareto::select {

struct LedgerDataset {
  std::string id;  // SHA-256 of the training files' contents (problems::DpTrainingProblem::data_identity)
  std::string description;
  std::vector<std::pair<std::string, std::string>> files;  // (name, SHA-256)
};

// The dataset of a problem's private training rows (checksums its files).
LedgerDataset ledger_dataset_of(const problems::DpTrainingProblem& problem);

struct LedgerCap {
  double epsilon = 0;
  double delta = 0;
};

struct LedgerEntry {
  std::string time;  // UTC, ISO 8601
  std::string problem, method, outcome, out;
  double epsilon = 0, delta = 0;  // the run's own certificate
  std::vector<double> orders, rdp;
};

class Ledger {
 public:
  // Reads FILE (an absent file is an empty ledger of `dataset`). InputError naming the file for a
  // corrupt ledger or one that belongs to other data (another dataset id).
  static Ledger open(const std::filesystem::path& file, const LedgerDataset& dataset);
  // Reads FILE whatever its dataset (for `ledger show FILE`); InputError if absent or corrupt.
  static Ledger read(const std::filesystem::path& file);

  const std::filesystem::path& file() const { return file_; }
  const LedgerDataset& dataset() const { return dataset_; }
  const std::optional<LedgerCap>& cap() const { return cap_; }
  const std::vector<LedgerEntry>& entries() const { return entries_; }

  // The composed total of the entries (plus `extra`, a curve on `extra_orders`, when given) at δ:
  // RDP summed on the orders every curve has, converted once. An empty ledger is ε = 0.
  privacy::EpsilonResult total(double delta, const std::vector<double>* extra_orders = nullptr,
                               const std::vector<double>* extra = nullptr) const;

  // Sets the cap (ε > 0 finite, δ in (0, 1); InputError naming the value otherwise) and saves.
  void set_cap(const LedgerCap& cap);
  // Appends an entry and saves; returns its index.
  std::size_t append(const LedgerEntry& entry);
  // Updates entry `index`'s outcome and saves.
  void set_outcome(std::size_t index, const std::string& outcome);

  nlohmann::json to_json() const;

 private:
  std::filesystem::path file_;
  LedgerDataset dataset_;
  std::optional<LedgerCap> cap_;
  std::vector<LedgerEntry> entries_;

  void save() const;
};

// Where a dataset's ledger lives by default: $DPARETO_LEDGER_DIR/<id>.json, else
// $XDG_DATA_HOME/dpareto/ledgers/<id>.json, else ~/.local/share/dpareto/ledgers/<id>.json.
std::filesystem::path default_ledger_path(const std::string& dataset_id);

// Takes FILE.lock (flock, exclusive; waits for another tune to finish): one tune at a time per ledger.
FileLock lock_ledger(const std::filesystem::path& ledger_file);

}  // namespace dpareto::select
