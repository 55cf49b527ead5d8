#include "dpareto/study/storage_registry.hpp"

#include <algorithm>
#include <map>

#include "dpareto/core/error.hpp"

namespace dpareto::study {
namespace {

std::map<std::string, StorageBackend>& backends() {
  static std::map<std::string, StorageBackend> table;
  return table;
}

}  // namespace

StorageRegistration::StorageRegistration(StorageBackend backend) {
  const std::string scheme = backend.scheme;
  backends()[scheme] = std::move(backend);
}

std::string shown_location(const std::string& location) {
  std::string out = location;
  const auto scheme = out.find("://");
  if (scheme != std::string::npos) {
    const auto authority_end = out.find_first_of("/?", scheme + 3);
    const auto at = out.rfind('@', authority_end == std::string::npos ? std::string::npos : authority_end);
    if (at != std::string::npos && at > scheme) {
      const auto colon = out.find(':', scheme + 3);
      if (colon < at) out.erase(colon, at - colon);
    }
  }
  // password=... in the query string (or a key=value connection string)
  for (auto p = out.find("password="); p != std::string::npos; p = out.find("password=", p + 1)) {
    const auto end = out.find_first_of("& ", p);
    out.replace(p + 9, (end == std::string::npos ? out.size() : end) - (p + 9), "***");
  }
  return out;
}

const StorageBackend& storage_backend(const std::string& location) {
  const auto separator = location.find("://");
  if (separator != std::string::npos) {
    const auto it = backends().find(location.substr(0, separator));
    if (it != backends().end()) return it->second;
  }
  const auto it = backends().find("");
  if (it == backends().end()) throw Error("no default study storage back-end is registered");
  return it->second;
}

bool storage_exists(const std::string& location, const StorageOptions& options) {
  return storage_backend(location).exists(location, options);
}

std::unique_ptr<Storage> create_storage(const std::string& location, const StudyIdentity& identity, const RunInfo& info,
                                        const nlohmann::json& config, const StorageOptions& options) {
  return storage_backend(location).create(location, identity, info, config, options);
}

std::unique_ptr<Storage> open_storage(const std::string& location, StorageAccess access,
                                      const StorageOptions& options) {
  return storage_backend(location).open(location, access, options);
}

bool nothing_succeeded(const Storage& storage) {
  return std::all_of(storage.trials().begin(), storage.trials().end(),
                     [](const Trial& t) { return t.record.status == EvaluationStatus::failed; });
}

std::string set_aside_failed_study(const std::string& location) {
  const auto& backend = storage_backend(location);
  if (!backend.set_aside)
    throw InputError("study " + shown_location(location) + ": its storage back-end cannot set a study aside");
  {
    const auto storage = open_storage(location, StorageAccess::read_write);
    if (!nothing_succeeded(*storage))
      throw InputError("study " + storage->location() +
                       ": refusing to start it afresh: it holds evaluations that succeeded "
                       "or are still running (only a study whose every evaluation failed can be restarted)");
  }
  return backend.set_aside(location);
}

namespace {

void check_resumable(const Storage& db, const StudyIdentity& identity, const RunInfo& info,
                     const nlohmann::json& config, bool seed_given) {
  const std::string& location = db.location();
  db.check_identity(identity);
  // Every difference, one per line (a single one stays a one-line message).
  std::vector<std::string> differences;
  for (const auto& [key, value] : db.config().items())
    if (!config.contains(key) || config.at(key) != value)
      differences.push_back("it was run with " + key + "=" + value.dump() + ", not " +
                            (config.contains(key) ? config.at(key).dump() : "(unset)"));
  for (const auto& [key, value] : config.items())
    if (!db.config().contains(key)) differences.push_back("it has no setting " + key + " (a different version?)");
  if (seed_given && db.run_info().seed != info.seed)
    differences.push_back("it was seeded with " +
                          (db.run_info().seed ? std::to_string(*db.run_info().seed) : std::string("no seed")) +
                          ", not " + (info.seed ? std::to_string(*info.seed) : std::string("no seed")) +
                          " (omit --seed to continue its stream)");
  if (differences.empty()) return;
  std::string message = "study " + location + ": refusing to continue: ";
  if (differences.size() == 1) throw InputError(message + differences.front());
  message += std::to_string(differences.size()) + " settings differ (omit a flag to keep the study's value):";
  for (const auto& d : differences) message += "\n  " + d;
  throw InputError(message);
}

}  // namespace

std::unique_ptr<Storage> open_or_create_study(const std::string& location, const StudyIdentity& identity,
                                              const RunInfo& info, const nlohmann::json& config, bool seed_given,
                                              const StorageOptions& options) {
  if (!storage_exists(location, options)) return create_storage(location, identity, info, config, options);
  auto db = open_storage(location, StorageAccess::read_write, options);
  try {
    check_resumable(*db, identity, info, config, seed_given);
  } catch (const InputError& e) {
    if (db->trials().empty() || !nothing_succeeded(*db)) throw;
    throw InputError(std::string(e.what()) + "; all " + std::to_string(db->trials().size()) +
                     " of its evaluations failed: add --restart-failed-study to set it aside and start afresh");
  }
  return db;
}

}  // namespace dpareto::study
