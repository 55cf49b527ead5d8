#include <doctest/doctest.h>

#include <cmath>

#include "../plot/run_fixtures.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/explore/surrogate_maps.hpp"

using namespace dpareto;

TEST_CASE("surrogate maps: the GP means and the acquisition on the grid, the evaluated settings") {
  const std::string dir = plot::test::temp_dir("surrogate-maps");
  plot::test::write_synthetic_run(dir, "dpareto", 3, 24, {5});
  const auto run = plot::load_run(dir);
  const auto model = explore::rebuild_run_model(run.data, run.directory);
  const auto maps = explore::surrogate_maps(run, model, {"noise", "bound", 6});
  CHECK(maps.x.name == "noise");
  CHECK(maps.x.log_scale);
  CHECK(maps.x.low == doctest::Approx(1e-2));
  CHECK(maps.y.name == "bound");
  CHECK(maps.y.log_scale);  // svt models C on a log scale
  REQUIRE(maps.epsilon.size() == 36);
  REQUIRE(maps.error.size() == 36);
  REQUIRE(maps.acquisition.size() == 36);
  for (std::size_t k = 0; k < maps.epsilon.size(); ++k) {
    CHECK(maps.epsilon[k].value > 0);
    CHECK(maps.error[k].value >= 0);
    CHECK(maps.error[k].value <= 1);
    CHECK(maps.acquisition[k].value >= 0);
    CHECK(maps.acquisition[k].x == maps.epsilon[k].x);
  }
  CHECK(maps.evaluated.size() == 23);  // the ok records
  CHECK(maps.slice.empty());           // a 2-D space is drawn whole

  CHECK_THROWS_WITH_AS(explore::surrogate_maps(run, model, {"bound", "bound", 6}),
                       "surrogate figure: --x and --y name the same parameter 'bound'", InputError);
  CHECK_THROWS_AS(explore::surrogate_maps(run, model, {"nope", "", 6}), InputError);
}
