#include "dpareto/bo/make_proposer.hpp"

#include "dpareto/bo/grid_search.hpp"
#include "dpareto/bo/random_search.hpp"

namespace dpareto::bo {

std::unique_ptr<Proposer> make_proposer(space::Space space, const ExplorerOptions& options, std::uint64_t seed,
                                        EpsilonOracle epsilon) {
  check_options(space, options);
  switch (options.method) {
    case Method::random:
      return std::make_unique<RandomSearch>(std::move(space), options.initial_from_prior, seed);
    case Method::grid:
      return std::make_unique<GridSearch>(std::move(space), options.grid_points, seed);
    case Method::dpareto:
      break;
  }
  return std::make_unique<Explorer>(std::move(space), options, seed, std::move(epsilon));
}

}  // namespace dpareto::bo
