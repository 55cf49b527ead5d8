#include <doctest/doctest.h>

#include <cmath>

#include "dpareto/bo/acquisition_registry.hpp"
#include "dpareto/bo/explorer.hpp"
#include "dpareto/bo/maximize.hpp"

using namespace dpareto;

namespace {

space::Space square() {
  return space::Space({{"x", space::Kind::continuous, space::Scale::linear, 0, 1, std::nullopt},
                       {"n", space::Kind::integer, space::Scale::linear, 0, 10, std::nullopt}});
}

// A smooth bump at (0.3, 0.7), counting its calls and the starts of local refinements.
struct Bump : bo::UnitFunction {
  double value(const std::vector<double>& x) override {
    ++calls;
    return -(x[0] - 0.3) * (x[0] - 0.3) - (x[1] - 0.7) * (x[1] - 0.7);
  }
  void begin_local(const std::vector<double>& start) override { starts.push_back(start); }
  int calls = 0;
  std::vector<std::vector<double>> starts;
};

// A multimodal function whose value() may run on several threads (no state): local refinements
// from several starts end at different optima.
struct Waves : bo::UnitFunction {
  explicit Waves(bool concurrent) : concurrent_(concurrent) {}
  double value(const std::vector<double>& x) override {
    return std::sin(9 * x[0]) * std::cos(7 * x[1]) - 0.1 * (x[0] - x[1]) * (x[0] - x[1]);
  }
  bool concurrent() const override { return concurrent_; }
  bool concurrent_;
};

// An acquisition added by one registration: the negated predicted log ε (most private first).
struct MostPrivate : bo::Acquisition {
  std::string name() const override { return "test_most_private"; }
  std::string label() const override { return "most private"; }
  double value(const bo::ImprovementRegion&, const bo::GpPrediction& p) const override { return -p.mean[0]; }
};
const bo::AcquisitionRegistration registration("test_most_private", [] { return std::make_unique<MostPrivate>(); });

}  // namespace

TEST_CASE("maximize: dense stage then local refinement finds the maximum; ranked is best first") {
  Bump bump;
  Rng rng(4);
  bo::MaximizeOptions options;
  options.dense_candidates = 200;
  options.local_starts = 3;
  const auto result = bo::maximize(bump, square(), rng, options);
  REQUIRE(result.screened.size() == 200);
  for (std::size_t k = 1; k < result.screened.size(); ++k)
    CHECK(result.screened[k - 1].value >= result.screened[k].value);
  REQUIRE(result.refinements.size() == 3);
  CHECK(bump.starts.size() == 3);
  const auto ranked = result.ranked();
  CHECK(ranked.size() >= 200);
  CHECK(ranked.front().x[0] == doctest::Approx(0.3).epsilon(1e-3));
  CHECK(ranked.front().x[1] == doctest::Approx(0.7).epsilon(1e-3));
  for (std::size_t k = 1; k < ranked.size(); ++k) CHECK(ranked[k - 1].value >= ranked[k].value);
}

TEST_CASE("maximize: extra screened points, snapping to settings, separated starts, skipped flat starts") {
  Bump bump;
  Rng rng(5);
  bo::MaximizeOptions options;
  options.dense_candidates = 50;
  options.also_screened = {{0.3, 0.7}};
  options.snap = true;
  options.local_starts = 4;
  options.start_separation = 0.2;
  options.skip_at_or_below = -0.01;  // only starts within 0.1 of the bump are refined
  const auto result = bo::maximize(bump, square(), rng, options);
  REQUIRE(result.screened.size() == 51);
  CHECK(result.screened.front().index == 50);  // the extra point is the best
  for (const auto& p : result.screened) CHECK(p.x[1] * 10 == doctest::Approx(std::round(p.x[1] * 10)));
  for (std::size_t a = 0; a < result.refinements.size(); ++a)
    for (std::size_t b = a + 1; b < result.refinements.size(); ++b)
      CHECK(bo::max_norm_distance(result.screened[result.refinements[a].start].x,
                                  result.screened[result.refinements[b].start].x) >= 0.2);
  for (const auto& r : result.refinements) CHECK(r.optimum.has_value() == (result.screened[r.start].value > -0.01));
}

TEST_CASE("an acquisition registered in one place drives the explorer") {
  CHECK(bo::acquisition_exists("test_most_private"));
  bo::ExplorerOptions options;
  options.acquisition = "test_most_private";
  options.initial_points = 4;
  options.dense_candidates = 100;
  options.gp_restarts = 0;
  options.objectives.set_reference({100, 1});
  bo::Explorer explorer(square(), options, 2);
  for (int i = 0; i < 7; ++i) {
    const auto s = explorer.ask();
    REQUIRE(s);
    explorer.tell({s->params, true, {10 * s->params[0] + 0.1, 0.5 + 0.04 * s->params[1]}});
  }
  CHECK(explorer.acquisition().label() == "most private");
  CHECK(explorer.observations().back().params[0] < 0.2);  // the last BO asks go where ε is smallest
}

TEST_CASE("maximize: refinements side by side for a concurrent function end where they end one by one") {
  bo::MaximizeOptions options;
  options.dense_candidates = 200;
  options.local_starts = 6;
  options.start_separation = 0.15;
  options.skip_at_or_below = -0.5;
  Waves serial(false), parallel(true);
  Rng a(11), b(11);
  const auto one_by_one = bo::maximize(serial, square(), a, options);
  const auto side_by_side = bo::maximize(parallel, square(), b, options);
  REQUIRE(one_by_one.refinements.size() == side_by_side.refinements.size());
  int refined = 0;
  for (std::size_t k = 0; k < one_by_one.refinements.size(); ++k) {
    const auto& s = one_by_one.refinements[k];
    const auto& p = side_by_side.refinements[k];
    CHECK(s.start == p.start);
    REQUIRE(s.optimum.has_value() == p.optimum.has_value());
    if (!s.optimum) continue;
    ++refined;
    CHECK(s.optimum->x == p.optimum->x);  // bit for bit
    CHECK(s.optimum->value == p.optimum->value);
    CHECK(s.optimum->value >= one_by_one.screened[s.start].value);
  }
  CHECK(refined >= 2);
}
