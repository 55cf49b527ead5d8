// Issue 18 item 2: intermediate results (a training's earlier epochs) are observations of the
// explorer, but no proposals: the initial design counts evaluations only, and the GPs are fitted on
// every evaluation plus at most Explorer::kMaxGpResultsPerTraining results of each training, thinned
// further to the room Explorer::kMaxGpObservations leaves.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "dpareto/bo/explorer.hpp"

using namespace dpareto;

namespace {

space::Space epochs_space() {
  return space::Space({{"epochs", space::Kind::integer, space::Scale::linear, 1, 200, std::nullopt},
                       {"noise", space::Kind::continuous, space::Scale::log, 0.1, 10, std::nullopt}});
}

bo::Observation outcome(const space::Params& p, bool intermediate) {
  return {p, true, {p[0] / p[1], 0.9 * (1 - std::exp(-0.05 * p[0])) / (1 + 0.2 * p[1])}, intermediate};
}

// Tells the evaluation of `p` with its results at epochs 1 .. p[0] − 1 after it, as a study does.
void tell_training(bo::Explorer& explorer, const space::Params& p) {
  explorer.tell(outcome(p, false));
  for (int e = 1; e < static_cast<int>(p[0]); ++e) explorer.tell(outcome({static_cast<double>(e), p[1]}, true));
}

bo::ExplorerOptions epoch_options() {
  bo::ExplorerOptions o;
  o.initial_points = 4;
  o.dense_candidates = 200;
  o.local_starts = 1;
  o.gp_restarts = 0;
  o.objectives.set_reference({100, 1});
  return o;
}

}  // namespace

TEST_CASE("intermediate results do not count as initial points") {
  bo::Explorer explorer(epochs_space(), epoch_options(), 5);
  for (int i = 0; i < 3; ++i) {
    const auto s = explorer.ask();
    REQUIRE(s);
    CHECK(s->phase == "init");
    tell_training(explorer, s->params);
  }
  CHECK(explorer.observations().size() > 4);  // the results of the first trainings
  const auto fourth = explorer.ask();
  REQUIRE(fourth);
  CHECK(fourth->phase == "init");
  tell_training(explorer, fourth->params);
  const auto fifth = explorer.ask();
  REQUIRE(fifth);
  CHECK(fifth->phase == "bo");
}

TEST_CASE("the GPs see every evaluation and intermediate results up to kMaxGpObservations") {
  // 120 trainings of 5 to 24 epochs: 120 evaluations and 120 × 4 results after the per-training cap.
  bo::Explorer explorer(epochs_space(), epoch_options(), 7);
  for (int i = 0; i < 120; ++i) tell_training(explorer, {5.0 + i % 20, 0.2 + 0.08 * i});
  explorer.fit_surrogates();
  const auto& inputs = explorer.surrogates().inputs();
  CHECK(inputs.rows() == bo::Explorer::kMaxGpObservations);
  // Every evaluation is among them (its unit-cube point appears as a row).
  for (int i = 0; i < 120; ++i) {
    const auto unit = explorer.space().to_unit({5.0 + i % 20, 0.2 + 0.08 * i});
    bool found = false;
    for (Eigen::Index r = 0; r < inputs.rows() && !found; ++r)
      found = std::abs(inputs(r, 0) - unit[0]) < 1e-12 && std::abs(inputs(r, 1) - unit[1]) < 1e-12;
    CHECK(found);
  }
  // Below both caps, every observation is used.
  bo::Explorer few(epochs_space(), epoch_options(), 7);
  for (int i = 0; i < 3; ++i) tell_training(few, {3.0 + i, 1.0 + i});  // 2, 3 and 4 results
  few.fit_surrogates();
  CHECK(few.surrogates().inputs().rows() == static_cast<Eigen::Index>(few.observations().size()));
}

TEST_CASE("the GPs see at most kMaxGpResultsPerTraining results of a training, spread over its epochs") {
  bo::Explorer explorer(epochs_space(), epoch_options(), 9);
  const std::vector<double> noises = {0.3, 1.1, 4.2};
  for (const double noise : noises) tell_training(explorer, {64.0, noise});  // 63 results each
  REQUIRE(explorer.observations().size() == 3 * 64);
  explorer.fit_surrogates();
  const auto& inputs = explorer.surrogates().inputs();
  REQUIRE(inputs.rows() == 3 * (1 + bo::Explorer::kMaxGpResultsPerTraining));
  // Evaluation, then epochs 16, 32, 48 and 63: result j of 63 is kept where ⌊(j + 1)·4/63⌋ steps.
  for (std::size_t t = 0; t < noises.size(); ++t)
    for (const int epochs : {64, 16, 32, 48, 63}) {
      CAPTURE(noises[t]);
      CAPTURE(epochs);
      const auto unit = explorer.space().to_unit({static_cast<double>(epochs), noises[t]});
      int found = 0;
      for (Eigen::Index r = 0; r < inputs.rows(); ++r)
        found += std::abs(inputs(r, 0) - unit[0]) < 1e-12 && std::abs(inputs(r, 1) - unit[1]) < 1e-12;
      CHECK(found == 1);
    }
}
