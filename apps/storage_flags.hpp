#pragma once
// Flags that say which study of a location to use and how a shared (PostgreSQL) study is worked
// on: --study-name, and for commands that evaluate, --heartbeat, --grace, --reconnect-timeout,
// --spool-dir. Shared by explore, worker, status, export and study.
#include "cli_options.hpp"
#include "dpareto/study/storage_registry.hpp"

namespace dpareto::apps {

enum class StorageUse { read, evaluate };

void add_storage_flags(po::options_description& options, StorageUse use = StorageUse::evaluate);
// The flags as storage options; InputError naming a flag whose value is out of range.
study::StorageOptions storage_options_from(const po::variables_map& vm);

}  // namespace dpareto::apps
