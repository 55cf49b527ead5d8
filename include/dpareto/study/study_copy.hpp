#pragma once
// `dpareto study copy`: a study moved between back-ends (an SQLite file to a PostgreSQL database and
// back): identity, run information, explorer configuration and state, and every trial with its
// parameters, seed, phase, status, measurements and completion order. Evaluations still running in
// the source are running in the copy, free for any worker (or a resume) to take.
#include <memory>
#include <string>

#include "dpareto/study/storage_registry.hpp"

namespace dpareto::study {

// Copies `from` to a new study at `to`; InputError when a study exists there already.
std::unique_ptr<Storage> copy_study(const Storage& from, const std::string& to, const StorageOptions& to_options);

}  // namespace dpareto::study
