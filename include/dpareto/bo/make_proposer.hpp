#pragma once
// The proposer of a method: the DPareto loop (Explorer), or the random or grid baseline.
#include <memory>

#include "dpareto/bo/explorer_options.hpp"
#include "dpareto/bo/proposer.hpp"

namespace dpareto::bo {

// InputError for options check_options refuses.
std::unique_ptr<Proposer> make_proposer(space::Space space, const ExplorerOptions& options, std::uint64_t seed);

}  // namespace dpareto::bo
