#pragma once
// The PostgreSQL study::Storage (scheme postgresql:// or postgres://, registered in
// postgres_storage.cpp): several studies in one database, each served by any number of worker
// processes on any number of hosts (DESIGN.md §3.6). Credentials come only through libpq (the URI,
// PG* variables, ~/.pgpass, sslmode); what dpareto shows of a location has its password removed.
//
// Tables (created by the first study in a database):
//   dpareto_schema(version)                 the schema version (kPostgresSchemaVersion)
//   dpareto_studies(id, name UNIQUE, identity, run_info, config, explorer_state (JSON text),
//                   trials, completions)    counters: the next trial and completion numbers
//   dpareto_trials(study_id, trial, completion, phase, status, params (JSON array),
//                  objectives (JSON object: column -> number, "inf" or null), seconds, started_at,
//                  finished_at (Unix seconds), message, seed (decimal text), claim, worker,
//                  heartbeat_at, unfinished_starts)   PRIMARY KEY (study_id, trial)
//   dpareto_workers(study_id, worker, host, pid, started_at, heartbeat_at, left_at)
//
// Proposals are made under a session advisory lock on the study (lock_proposals), held for the ask
// only. Every running trial carries the claim of the process evaluating it; that process refreshes
// its heartbeat (server time) from a thread of its own, and a trial whose heartbeat is older than
// the grace period may be claimed by another worker. A completion is recorded once: the first
// completion of a running trial wins, and a retried completion finds it recorded. A result that
// cannot be recorded because the database is unreachable waits in a spool file (replayed when a
// worker of the study next opens it) while the worker retries with backoff.
namespace dpareto::study {

constexpr int kPostgresSchemaVersion = 1;

}  // namespace dpareto::study
