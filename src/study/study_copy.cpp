#include "dpareto/study/study_copy.hpp"

#include "dpareto/core/error.hpp"

namespace dpareto::study {

std::unique_ptr<Storage> copy_study(const Storage& from, const std::string& to, const StorageOptions& to_options) {
  if (storage_exists(to, to_options))
    throw InputError("study " + to + ": a study exists there already; refusing to copy " + from.location() +
                     " over it");
  auto target = create_storage(to, from.identity(), from.run_info(), from.config(), to_options);
  // Trials in proposal order, then their completions in completion order: both numberings carry over.
  for (const auto& t : from.trials()) target->begin_trial(t.record.phase, t.record.params, t.record.seed, nullptr);
  std::vector<int> trial_of(from.trials().size() + 1, -1);  // completion number -> trial
  for (const auto& t : from.trials())
    if (t.record.id > 0) trial_of.at(static_cast<std::size_t>(t.record.id)) = t.trial;
  for (const auto& record : from.completed())
    target->finish_trial(trial_of.at(static_cast<std::size_t>(record.id)), record, nullptr);
  for (const auto& t : from.trials())
    if (t.record.status == EvaluationStatus::running) target->release_trial(t.trial);
  target->set_explorer_state(from.explorer_state());
  return target;
}

}  // namespace dpareto::study
