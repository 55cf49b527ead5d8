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
// The utility a useful setting must beat, as summary.json records it ({"utility", "source"}):
// --baseline, else the problem's majority class; null when neither is known.
nlohmann::json run_baseline(const problems::Problem& problem, const ExploreSettings& settings);
// What a resumed study must share with its first run (besides the problem and space).
nlohmann::json study_config(const ExploreSettings& settings);
study::StudyIdentity study_identity(const problems::Problem& problem);

}  // namespace dpareto::explore
