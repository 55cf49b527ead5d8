#pragma once
// The study a run is recorded in: with ExploreSettings::study, the study at that location (created,
// or resumed/extended after checking identity, configuration and seed; an SQLite file unless another
// storage back-end serves the location's scheme); otherwise an SQLite study in memory.
#include <memory>

#include "dpareto/explore/explore_settings.hpp"
#include "dpareto/study/storage.hpp"

namespace dpareto::explore {

// The run seed is --seed, or drawn from the OS CSPRNG; a resumed study keeps its own seed and seed
// source. The study's run information records this run's budget and workers.
std::unique_ptr<study::Storage> open_run_study(const problems::Problem& problem, const ExploreSettings& settings);

}  // namespace dpareto::explore
