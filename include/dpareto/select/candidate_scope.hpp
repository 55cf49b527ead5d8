#pragma once
// What a `dpareto tune` certificate covers, given where its candidates came from (issue 17). The
// certificate's ε covers everything computed from the private training rows inside `tune`; the
// candidate list is an input. It is safe when it does not depend on those rows: a hand-written
// (data-independent) list, a front measured on public data or on the disjoint proxy split, or on
// other data. A front measured on the same private rows is a release of its own that no ε here
// accounts for: tune refuses it unless the user acknowledges it, and the certificate then says so.
#include <string>

#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/select/candidate_file.hpp"

namespace dpareto::select {

struct CandidateScope {
  // "data-independent list", "proxy front", "public front", "front on other data" or "private front".
  std::string source;
  std::string covers;  // in words: what the certificate's (ε, δ) covers, and what it does not
};

// InputError (one line naming the candidate file and the conflict) when the candidates were
// measured on data with other features, on a proxy split that overlaps the rows `problem` trains
// on, or on the same private rows without `acknowledged` (--candidates-from-private-front).
CandidateScope candidate_scope(const CandidateFile& file, const problems::DpTrainingProblem& problem,
                               bool acknowledged);

}  // namespace dpareto::select
