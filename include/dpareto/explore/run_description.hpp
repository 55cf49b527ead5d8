#pragma once
// What a run records about itself: the run information of summary.json and the study, the
// explorer configuration a resumed study must share with its first run, and the study identity.
#include <cstdint>
#include <nlohmann/json.hpp>

#include "dpareto/explore/explore_settings.hpp"
#include "dpareto/study/storage.hpp"

namespace dpareto::explore {

// `seed` is the run seed; `seeded`: it came from --seed (else from the OS CSPRNG).
study::RunInfo run_info(const problems::Problem& problem, const ExploreSettings& settings, std::uint64_t seed,
                        bool seeded);
// The run-info keys that follow the problem and flags of the current session, set on a fresh run
// and again on a resumed study (whose stored run info replaces the fresh one): "space";
// "baseline" ({"utility", "source"}: --baseline, else the problem's majority class, when known);
// "non_private" ({"utility"}, from --non-private; a resumed study keeps the one it has);
// "utility_name" (--utility-name, else the stored one, else the problem's); "out" (the run
// directory, where a later `explore --study FILE` alone writes).
void set_current_run_keys(nlohmann::json& extra, const problems::Problem& problem, const ExploreSettings& settings);
// What a resumed study must share with its first run (besides the problem and space).
nlohmann::json study_config(const ExploreSettings& settings);
study::StudyIdentity study_identity(const problems::Problem& problem);

}  // namespace dpareto::explore
