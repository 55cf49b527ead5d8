#pragma once
// The proposer of a method: the DPareto loop (Explorer), or the random or grid baseline.
#include <memory>

#include "dpareto/bo/explorer.hpp"

namespace dpareto::bo {

// InputError for options check_options refuses. `epsilon`: the DPareto loop's known ε (options.known_epsilon).
std::unique_ptr<Proposer> make_proposer(space::Space space, const ExplorerOptions& options, std::uint64_t seed,
                                        EpsilonOracle epsilon = {});

}  // namespace dpareto::bo
