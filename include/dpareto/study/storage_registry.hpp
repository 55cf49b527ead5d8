#pragma once
// Storage back-ends by the scheme of a study's location: "postgresql://host/db" would go to a
// back-end registered for "postgresql"; a location without a registered scheme (a file path) goes
// to the default back-end, registered with the empty scheme (SQLite, study_database.cpp). A new
// back-end is one implementation file holding one StorageRegistration.
#include <functional>
#include <memory>
#include <string>

#include "dpareto/study/storage.hpp"

namespace dpareto::study {

// How a process uses a study, beyond its location. The study name selects one of the studies a
// PostgreSQL database holds (a file holds one: an SQLite study takes none). The rest concerns
// stores shared by several workers: heartbeats, the grace period after which a silent worker's
// trial is taken over, how long to keep trying to reach a database that went away, and where a
// finished result waits meanwhile.
struct StorageOptions {
  std::string study_name;          // empty: "default" for PostgreSQL
  double heartbeat_seconds = 30;   // --heartbeat
  double grace_seconds = 0;        // --grace; 0: 3 heartbeats
  double reconnect_seconds = 600;  // --reconnect-timeout
  std::string spool_directory;     // --spool-dir; empty: $XDG_CACHE_HOME/dpareto/spool (or ~/.cache/...)
};

struct StorageBackend {
  std::string scheme;  // "" for the default (file) back-end
  // Whether a study exists at the location (a missing or empty file does not).
  std::function<bool(const std::string& location, const StorageOptions& options)> exists;
  // A new study; InputError when one exists there.
  std::function<std::unique_ptr<Storage>(const std::string& location, const StudyIdentity& identity,
                                         const RunInfo& info, const nlohmann::json& config,
                                         const StorageOptions& options)>
      create;
  // An existing study, validated before anything is written; InputError naming the location.
  std::function<std::unique_ptr<Storage>(const std::string& location, StorageAccess access,
                                         const StorageOptions& options)>
      open;
  // Optional: moves the study out of the way, keeping it under the returned name; the location is
  // free afterwards.
  std::function<std::string(const std::string& location)> set_aside = {};
  // `dpareto study upgrade`: migrates the study (or database) at the location to the current
  // format version; returns the version it found.
  std::function<int(const std::string& location, const StorageOptions& options)> upgrade = {};
};

struct StorageRegistration {
  explicit StorageRegistration(StorageBackend backend);
};

// A location as dpareto may show it (errors, logs, exports, the study itself): a URI without a
// password (in its user information or a password= parameter); a file path as it is.
std::string shown_location(const std::string& location);

// The back-end serving `location`.
const StorageBackend& storage_backend(const std::string& location);

bool storage_exists(const std::string& location, const StorageOptions& options = {});
std::unique_ptr<Storage> create_storage(const std::string& location, const StudyIdentity& identity, const RunInfo& info,
                                        const nlohmann::json& config, const StorageOptions& options = {});
std::unique_ptr<Storage> open_storage(const std::string& location, StorageAccess access,
                                      const StorageOptions& options = {});

// A study in which nothing succeeded (every completed evaluation failed, none is running): a
// mistyped oracle command, say. Such a study may be set aside and started afresh with other settings.
bool nothing_succeeded(const Storage& storage);
// `dpareto explore --restart-failed-study`: sets aside the study at `location` (InputError unless
// nothing_succeeded) and returns where it was kept.
std::string set_aside_failed_study(const std::string& location);

// `dpareto explore --study LOCATION`: creates the study when none exists there; otherwise opens it
// for writing and refuses (InputError naming the study and the difference) a different identity, a
// different explorer configuration, or a seed that differs from the stored one (`seed_given`: the
// user passed --seed). The run seed to use is the returned study's run_info().seed. A refusal of a
// study in which nothing succeeded says how to start it afresh.
std::unique_ptr<Storage> open_or_create_study(const std::string& location, const StudyIdentity& identity,
                                              const RunInfo& info, const nlohmann::json& config, bool seed_given,
                                              const StorageOptions& options = {});

}  // namespace dpareto::study
