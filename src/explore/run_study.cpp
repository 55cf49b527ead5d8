#include "dpareto/explore/run_study.hpp"

#include "dpareto/core/random.hpp"
#include "dpareto/explore/run_description.hpp"
#include "dpareto/study/storage_registry.hpp"
#include "dpareto/study/study_database.hpp"

namespace dpareto::explore {

std::unique_ptr<study::Storage> open_run_study(const problems::Problem& problem, const ExploreSettings& settings) {
  const bool seeded = settings.seed.has_value();
  const std::uint64_t seed = seeded ? *settings.seed : os_random_u64();
  study::RunInfo info = run_info(problem, settings, seed, seeded);
  const nlohmann::json config = study_config(settings);
  const study::StudyIdentity identity = study_identity(problem);
  std::unique_ptr<study::Storage> db =
      !settings.study.empty()
          ? study::open_or_create_study(settings.study, identity, info, config, seeded, settings.storage)
          : std::make_unique<study::StudyDatabase>(study::StudyDatabase::in_memory(identity, info, config));
  info = db->run_info();  // a resumed study keeps its seed and its seed source
  info.extra["budget"] = settings.budget;
  info.extra["workers"] = settings.workers;
  set_current_run_keys(info.extra, problem, settings);
  db->set_run_info(info);
  return db;
}

}  // namespace dpareto::explore
