#include "dpareto/study/storage.hpp"

#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::study {

std::vector<EvaluationRecord> Storage::completed() const {
  std::size_t completions = 0;
  for (const auto& t : trials()) completions += t.record.id > 0;
  std::vector<EvaluationRecord> out(completions);
  for (const auto& t : trials())
    if (t.record.id > 0) out.at(static_cast<std::size_t>(t.record.id - 1)) = t.record;
  return out;
}

void Storage::check_identity(const StudyIdentity& given) const {
  const StudyIdentity& stored = identity();
  const std::string w = "study " + location() + ": refusing to continue: ";
  if (given.problem != stored.problem)
    throw InputError(w + "it was created for problem '" + printable(stored.problem) + "', not '" + given.problem + "'");
  if (given.space != stored.space)
    throw InputError(w + "its space " + stored.space.dump() + " differs from the given " + given.space.dump());
  if (given.settings != stored.settings)
    throw InputError(w + "its problem settings " + stored.settings.dump() + " differ from the given " +
                     given.settings.dump());
}

}  // namespace dpareto::study
