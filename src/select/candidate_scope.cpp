#include "dpareto/select/candidate_scope.hpp"

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"

namespace dpareto::select {
namespace {

constexpr const char* kCoversAll =
    "everything released that depends on the private training rows: the tuning and the final training";

}  // namespace

CandidateScope candidate_scope(const CandidateFile& file, const problems::DpTrainingProblem& problem,
                               bool acknowledged) {
  if (!file.measured_on)
    return {"data-independent list",
            std::string(kCoversAll) +
                "; the candidate list has no measured_on, so it is taken as written without the "
                "data (by hand, or from public knowledge)"};
  const MeasuredOn& m = *file.measured_on;
  const auto settings = problem.settings();
  const int features = problem.data().train.dimension();
  if (m.features != 0 && m.features != features)
    throw InputError(file.source + ": measured_on.features " + std::to_string(m.features) + " differ from the " +
                     std::to_string(features) + " features of --problem " + problem.name() +
                     "'s data: the front was measured on different data");
  const bool same_data = m.data_id.empty() || m.data_id == settings.at("data_id");
  if (!same_data)
    return {"front on other data", std::string(kCoversAll) +
                                       "; the candidate list depends on other data (measured_on.data_id " + m.data_id +
                                       "), not on these rows"};
  const auto& roles = problem.data_roles();
  if (m.split == "proxy") {
    if (roles.split != problems::TrainingSplit::private_rows || roles.proxy_fraction != m.proxy_fraction)
      throw InputError(file.source + ": the candidates were measured on the proxy split (proxy_fraction " +
                       format_number(m.proxy_fraction) + ") of this data, which overlaps the rows --problem " +
                       problem.name() + " trains on (split=" + to_string(roles.split) +
                       (roles.split == problems::TrainingSplit::all
                            ? std::string()
                            : ", proxy_fraction " + format_number(roles.proxy_fraction)) +
                       "); tune with --set split=private --set proxy_fraction=" + format_number(m.proxy_fraction));
    return {"proxy front", std::string(kCoversAll) +
                               "; the candidate list comes from a front measured on the public proxy split, "
                               "disjoint from the private rows"};
  }
  if (m.data_role == "public")
    return {"public front", std::string(kCoversAll) +
                                "; the candidate list comes from a front measured on this data declared public "
                                "(data_role=public): if it is not public, the candidate choice is not covered"};
  if (!acknowledged)
    throw InputError(file.source +
                     ": the candidates come from a front measured on the same private data (measured_on "
                     "split=" +
                     m.split +
                     ", data_role private), a release no certificate can cover: explore on a "
                     "public proxy (--set split=proxy), tune with --set split=private, or pass "
                     "--candidates-from-private-front to accept an uncovered candidate choice");
  return {"private front",
          "the tuning and the final training on the private rows, but NOT the choice of the candidate list: it was "
          "picked from a front measured non-privately on the same private data (accepted with "
          "--candidates-from-private-front), so whoever saw that front or the list learned about these rows "
          "outside this epsilon"};
}

}  // namespace dpareto::select
