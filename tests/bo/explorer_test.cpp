#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "dpareto/bo/explorer.hpp"
#include "dpareto/bo/grid_search.hpp"
#include "dpareto/bo/make_proposer.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/problems/svt_problem.hpp"

using namespace dpareto;

namespace {

// A cheap two-objective oracle with a trade-off: more "noise" x0 means smaller epsilon and lower
// utility; x1 is an integer that helps utility up to a point.
space::Space synthetic_space() {
  return space::Space({{"noise", space::Kind::continuous, space::Scale::log, 0.1, 10, std::nullopt},
                       {"steps", space::Kind::integer, space::Scale::linear, 1, 20, std::nullopt}});
}

bo::Observation oracle(const space::Params& p) {
  const double eps = p[1] / p[0];
  const double util = 0.95 / (1 + 0.3 * p[0]) * (1 - std::exp(-0.4 * p[1]));
  return {p, true, {eps, util}};
}

bo::ExplorerOptions small_options() {
  bo::ExplorerOptions o;
  o.initial_points = 6;
  o.dense_candidates = 300;
  o.local_starts = 2;
  o.gp_restarts = 1;
  o.objectives.set_reference({200, 1});
  return o;
}

std::vector<space::Params> run(bo::Proposer& explorer, int evaluations) {
  std::vector<space::Params> asked;
  for (int i = 0; i < evaluations; ++i) {
    auto s = explorer.ask();
    REQUIRE(s);
    asked.push_back(s->params);
    explorer.tell(oracle(s->params));
  }
  return asked;
}

}  // namespace

TEST_CASE("explorer: k0 initial points, then BO; deterministic for a seed; never repeats a setting") {
  bo::Explorer a(synthetic_space(), small_options(), 42), b(synthetic_space(), small_options(), 42);
  std::vector<std::string> phases;
  std::vector<space::Params> asked_a;
  for (int i = 0; i < 14; ++i) {
    auto s = a.ask();
    REQUIRE(s);
    phases.push_back(s->phase);
    asked_a.push_back(s->params);
    a.tell(oracle(s->params));
  }
  CHECK(std::count(phases.begin(), phases.end(), "init") == 6);
  CHECK(std::count(phases.begin(), phases.end(), "bo") == 8);
  CHECK(run(b, 14) == asked_a);
  std::set<space::Params> distinct(asked_a.begin(), asked_a.end());
  CHECK(distinct.size() == asked_a.size());
  for (const auto& p : asked_a) CHECK(synthetic_space().contains(p));
}

TEST_CASE("explorer: a third objective (training seconds) gets its own GP, HVPoI and EHVI on 3-D boxes") {
  for (const std::string acquisition : {"hvpoi", "ehvi"}) {
    auto options = small_options();
    options.objectives = pareto::Objectives::with({"train_seconds"}, {200, 1, 100});
    options.acquisition = acquisition;
    bo::Explorer explorer(synthetic_space(), options, 4);
    std::vector<space::Params> asked;
    for (int i = 0; i < 10; ++i) {
      auto s = explorer.ask();
      REQUIRE(s);
      asked.push_back(s->params);
      auto o = oracle(s->params);
      o.values.push_back(2.0 * s->params[1] + 1);  // seconds grow with the steps
      explorer.tell(o);
    }
    CHECK(std::set<space::Params>(asked.begin(), asked.end()).size() == asked.size());
    explorer.fit_surrogates();
    CHECK(explorer.surrogates().gp(2).inputs().rows() == 10);
    const auto p = explorer.predict(synthetic_space().to_unit(asked.back()));
    REQUIRE(p.mean.size() == 3);
    CHECK(p.mean[2] == doctest::Approx(std::log(2.0 * asked.back()[1] + 1)).epsilon(0.2));
    CHECK(explorer.state().contains("train_seconds_theta"));
  }
  // Told two values where three objectives are declared: an InputError, not a silent misfit.
  auto options = small_options();
  options.objectives = pareto::Objectives::with({"train_seconds"}, {200, 1, 100});
  bo::Explorer explorer(synthetic_space(), options, 4);
  for (int i = 0; i < 6; ++i) explorer.tell(oracle(explorer.ask()->params));
  CHECK_THROWS_AS(explorer.ask(), InputError);
}

TEST_CASE("explorer: a different seed explores differently") {
  bo::Explorer a(synthetic_space(), small_options(), 1), b(synthetic_space(), small_options(), 2);
  CHECK(run(a, 8) != run(b, 8));
}

TEST_CASE("explorer: failed evaluations are excluded from the surrogates and never proposed again") {
  bo::Explorer explorer(synthetic_space(), small_options(), 5);
  std::vector<space::Params> failed;
  for (int i = 0; i < 16; ++i) {
    auto s = explorer.ask();
    REQUIRE(s);
    auto obs = oracle(s->params);
    if (i % 3 == 0) {
      obs.ok = false;
      obs.values = {std::nan(""), std::nan("")};
      failed.push_back(s->params);
    }
    for (const auto& f : failed)
      if (&f != &failed.back() || !(i % 3 == 0)) CHECK(s->params != f);
    explorer.tell(obs);
  }
  CHECK(explorer.observations().size() == 16);
}

TEST_CASE("explorer: a resumed explorer (observations told again, state restored) continues identically") {
  bo::Explorer uninterrupted(synthetic_space(), small_options(), 9);
  const auto full = run(uninterrupted, 14);

  bo::Explorer first(synthetic_space(), small_options(), 9);
  auto head = run(first, 9);
  const auto state = first.state();
  bo::Explorer resumed(synthetic_space(), small_options(), 9);
  for (const auto& o : first.observations()) resumed.tell(o);
  resumed.restore_state(state);
  const auto tail = run(resumed, 5);
  head.insert(head.end(), tail.begin(), tail.end());
  CHECK(head == full);
}

TEST_CASE("explorer: pending settings are never proposed and proposals spread out") {
  bo::Explorer explorer(synthetic_space(), small_options(), 3);
  run(explorer, 8);
  std::vector<space::Params> pending;
  for (int i = 0; i < 3; ++i) {
    auto s = explorer.ask(pending);
    REQUIRE(s);
    for (const auto& p : pending) CHECK(s->params != p);
    pending.push_back(s->params);
  }
}

TEST_CASE("explorer: grid and random baselines behind the same interface") {
  auto options = small_options();
  options.method = bo::Method::grid;
  options.grid_points = 3;
  const auto grid = bo::make_proposer(synthetic_space(), options, 1);
  int count = 0;
  while (auto s = grid->ask()) {
    CHECK(s->phase == "grid");
    grid->tell(oracle(s->params));
    ++count;
  }
  CHECK(count == 9);

  options.method = bo::Method::random;
  const auto random = bo::make_proposer(synthetic_space(), options, 1);
  std::vector<space::Params> asked;
  for (int i = 0; i < 20; ++i) {
    auto s = random->ask();
    REQUIRE(s);
    CHECK(s->phase == "random");
    CHECK(synthetic_space().contains(s->params));
    random->tell(oracle(s->params));
    asked.push_back(s->params);
  }
  // A baseline resumes like the explorer: its state is the ask counter.
  const auto resumed = bo::make_proposer(synthetic_space(), options, 1);
  for (const auto& o : random->observations()) resumed->tell(o);
  resumed->restore_state(random->state());
  CHECK(resumed->ask()->params == random->ask()->params);
  options.objectives.set_reference({0, 1});  // every method checks the same options
  CHECK_THROWS_AS(bo::make_proposer(synthetic_space(), options, 1), InputError);
}

TEST_CASE("grid search walks the grid lazily, in order, and resumes past what it was told") {
  // 30 parameters with 3 points each: 3^30 grid points, of which only the proposed are built.
  std::vector<space::Parameter> parameters;
  for (int i = 0; i < 30; ++i) {
    space::Parameter p;
    p.name = "p" + std::to_string(i);
    parameters.push_back(p);
  }
  const space::Space wide(parameters);
  bo::GridSearch grid(wide, 3, 1);
  std::vector<space::Params> expected(4, space::Params(30, 0.0));
  expected[1][29] = 0.5;
  expected[2][29] = 1.0;
  expected[3][28] = 0.5;  // the last parameter runs fastest
  for (const auto& e : expected) CHECK(grid.ask()->params == e);

  // Same order as the full grid; a fresh proposer told some points (a resume) proposes the rest.
  const auto all = space::full_grid(synthetic_space(), 4);
  bo::GridSearch first(synthetic_space(), 4, 1), resumed(synthetic_space(), 4, 1);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto s = first.ask();
    REQUIRE(s);
    CHECK(s->params == all[i]);
    if (i % 3 == 0) resumed.tell({all[i], true, {1, 0.5}});
  }
  CHECK_FALSE(first.ask());
  std::vector<space::Params> rest;
  while (auto s = resumed.ask()) rest.push_back(s->params);
  CHECK(rest.size() == all.size() - (all.size() + 2) / 3);
  for (const auto& p : rest) CHECK(std::find(all.begin(), all.end(), p) != all.end());
  CHECK_THROWS_AS(bo::GridSearch(synthetic_space(), space::Space::kMaxGridPoints + 1, 1), InputError);
}

namespace {

// The closest pair among the BO proposals (after the initial points) and every earlier setting,
// in max norm on the unit cube.
double closest_bo_spacing(const space::Space& space, const std::vector<space::Params>& asked, int initial) {
  double closest = 1;
  for (std::size_t i = static_cast<std::size_t>(initial); i < asked.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      const auto a = space.to_unit(asked[i]), b = space.to_unit(asked[j]);
      double distance = 0;
      for (std::size_t k = 0; k < a.size(); ++k) distance = std::max(distance, std::abs(a[k] - b[k]));
      closest = std::min(closest, distance);
    }
  return closest;
}

}  // namespace

TEST_CASE("explorer: no BO proposal within min_spacing of an earlier setting; without it, near-copies") {
  // SVT scored precisely (R = 2000): HVPoI refines pockets of the steep part of the front with
  // settings a few thousandths apart on the unit cube, unless told to keep its distance.
  const problems::SvtProblem svt({100, 10, 2000});
  const auto closest = [&](double min_spacing, std::uint64_t seed) {
    bo::ExplorerOptions options;
    options.objectives.set_reference({1000, 1});
    options.axis.kind = pareto::EpsilonAxis::Kind::log10;
    options.axis.floor = 1e-2;
    options.min_spacing = min_spacing;
    bo::Explorer explorer(svt.space(), options, seed);
    std::vector<space::Params> asked;
    for (int n = 0; n < 64; ++n) {
      const auto s = explorer.ask();
      REQUIRE(s);
      const auto e = svt.evaluate(s->params, derive_seed(seed, n));
      explorer.tell({s->params, e.ok, {e.epsilon, e.utility}});
      asked.push_back(s->params);
    }
    return closest_bo_spacing(svt.space(), asked, options.initial_points);
  };
  double unspaced = 1;
  for (const std::uint64_t seed : {1, 2, 3}) {
    unspaced = std::min(unspaced, closest(0, seed));
    const double spaced = closest(0.005, seed);
    MESSAGE("seed " << seed << ": closest BO proposal to an earlier setting, spaced " << spaced);
    CHECK(spaced >= 0.005);
  }
  MESSAGE("unspaced, over the seeds: " << unspaced);
  CHECK(unspaced < 0.005);
}

TEST_CASE("explorer: past spacing_shrinks_after settings the spacing shrinks as (after / n)^(1/d)") {
  // SVT scored precisely (R = 2000), whose HVPoI asks for near-copies: 0.02 apart up to 16 settings,
  // then 0.02·(16 / n)^(1/2) with n evaluated; without the shrinking never closer than 0.02.
  const problems::SvtProblem svt({100, 10, 2000});
  const auto run = [&](int after) {
    bo::ExplorerOptions options;
    options.objectives.set_reference({1000, 1});
    options.axis.kind = pareto::EpsilonAxis::Kind::log10;
    options.axis.floor = 1e-2;
    options.min_spacing = 0.02;
    options.spacing_shrinks_after = after;
    bo::Explorer explorer(svt.space(), options, 1);
    std::vector<space::Params> asked;
    double least_margin = 1;  // over BO proposals: distance to the nearest earlier one minus the bound
    double closest = 1;
    for (int n = 0; n < 64; ++n) {
      const auto s = explorer.ask();
      REQUIRE(s);
      if (n >= options.initial_points) {
        double nearest = 1;
        for (const auto& earlier : asked) {
          const auto a = svt.space().to_unit(s->params), b = svt.space().to_unit(earlier);
          nearest = std::min(nearest, std::max(std::abs(a[0] - b[0]), std::abs(a[1] - b[1])));
        }
        const double bound = after > 0 && n > after ? 0.02 * std::sqrt(static_cast<double>(after) / n) : 0.02;
        least_margin = std::min(least_margin, nearest - bound);
        closest = std::min(closest, nearest);
      }
      const auto e = svt.evaluate(s->params, derive_seed(1, n));
      explorer.tell({s->params, e.ok, {e.epsilon, e.utility}});
      asked.push_back(s->params);
    }
    return std::pair{least_margin, closest};
  };
  const auto [fixed_margin, fixed_closest] = run(0);
  CHECK(fixed_margin >= -1e-12);
  CHECK(fixed_closest >= 0.02);
  const auto [shrunk_margin, shrunk_closest] = run(16);
  MESSAGE("closest BO proposal: fixed " << fixed_closest << ", shrinking " << shrunk_closest);
  CHECK(shrunk_margin >= -1e-12);
  CHECK(shrunk_closest < 0.02);
}

TEST_CASE("explorer: bad configurations are refused with InputError") {
  auto options = small_options();
  options.objectives.set_reference({0, 1});
  CHECK_THROWS_AS(bo::Explorer(synthetic_space(), options, 1), InputError);
  options = small_options();
  options.objectives.set_reference({10, 0});
  CHECK_THROWS_AS(bo::Explorer(synthetic_space(), options, 1), InputError);
  options = small_options();
  options.initial_points = 0;
  CHECK_THROWS_AS(bo::Explorer(synthetic_space(), options, 1), InputError);
  for (const double spacing : {-0.1, 1.0, std::nan("")}) {
    options = small_options();
    options.min_spacing = spacing;
    CHECK_THROWS_WITH_AS(bo::Explorer(synthetic_space(), options, 1), doctest::Contains("min_spacing"), InputError);
  }
  options = small_options();
  options.spacing_shrinks_after = -1;
  CHECK_THROWS_WITH_AS(bo::Explorer(synthetic_space(), options, 1), doctest::Contains("spacing_shrinks_after -1"),
                       InputError);
  options = small_options();
  options.acquisition = "pi";
  CHECK_THROWS_WITH_AS(bo::Explorer(synthetic_space(), options, 1), doctest::Contains("unknown acquisition 'pi'"),
                       InputError);
}

TEST_CASE("explorer: EHVI and the estimated (GPflowOpt) reference mode run the same loop") {
  for (const char* kind : {"hvpoi", "ehvi"})
    for (auto mode : {bo::ReferenceMode::fixed, bo::ReferenceMode::estimated}) {
      auto options = small_options();
      options.acquisition = kind;
      options.reference_mode = mode;
      bo::Explorer explorer(synthetic_space(), options, 21);
      const auto asked = run(explorer, 12);
      std::set<space::Params> distinct(asked.begin(), asked.end());
      CHECK(distinct.size() == asked.size());
      // The surrogates are usable afterwards, and the acquisition is finite and non-negative.
      const double a = explorer.acquisition_at({0.3, 0.6});
      CHECK(std::isfinite(a));
      CHECK(a >= 0);
    }
}

TEST_CASE("explorer: under EHVI the noisy GPs warp their inputs; under HVPoI and for the noiseless epsilon GP not") {
  bo::ExplorerOptions ehvi_options = small_options();
  ehvi_options.acquisition = "ehvi";
  bo::Explorer ehvi(synthetic_space(), ehvi_options, 4), hvpoi(synthetic_space(), small_options(), 4);
  run(ehvi, 10);
  run(hvpoi, 10);
  const std::size_t d = synthetic_space().dimension();
  CHECK(ehvi.state().at("utility_theta").size() == 3 * d + 2);  // log ℓ, log s², log σ_n², log a, log b
  CHECK(ehvi.state().at("epsilon_theta").size() == d + 2);
  CHECK(hvpoi.state().at("utility_theta").size() == d + 2);
  CHECK(hvpoi.state().at("epsilon_theta").size() == d + 2);

  // A state saved with or without the warp entries restores into either explorer: missing warp
  // entries are no warp (0), surplus ones are dropped; any other length is refused.
  bo::Explorer from_plain(synthetic_space(), ehvi_options, 4);
  from_plain.restore_state(hvpoi.state());
  const auto widened = from_plain.state().at("utility_theta").get<std::vector<double>>();
  const auto plain = hvpoi.state().at("utility_theta").get<std::vector<double>>();
  REQUIRE(widened.size() == 3 * d + 2);
  CHECK(std::equal(plain.begin(), plain.end(), widened.begin()));
  CHECK(std::all_of(widened.begin() + static_cast<std::ptrdiff_t>(d + 2), widened.end(),
                    [](double v) { return v == 0; }));
  bo::Explorer from_warped(synthetic_space(), small_options(), 4);
  from_warped.restore_state(ehvi.state());
  const auto narrowed = from_warped.state().at("utility_theta").get<std::vector<double>>();
  const auto warped = ehvi.state().at("utility_theta").get<std::vector<double>>();
  REQUIRE(narrowed.size() == d + 2);
  CHECK(std::equal(narrowed.begin(), narrowed.end(), warped.begin()));
  auto bad = ehvi.state();
  bad["utility_theta"] = std::vector<double>(d + 3, 0.0);
  CHECK_THROWS_WITH_AS(from_warped.restore_state(bad),
                       doctest::Contains("utility_theta has 5 entries, this space needs 4 (or 8 with input warping)"),
                       InputError);
}

TEST_CASE("explorer: a resumed EHVI explorer (warped utility GP) continues identically") {
  bo::ExplorerOptions options = small_options();
  options.acquisition = "ehvi";
  bo::Explorer uninterrupted(synthetic_space(), options, 12);
  const auto full = run(uninterrupted, 14);
  bo::Explorer first(synthetic_space(), options, 12);
  auto head = run(first, 9);
  bo::Explorer resumed(synthetic_space(), options, 12);
  for (const auto& o : first.observations()) resumed.tell(o);
  resumed.restore_state(first.state());
  const auto tail = run(resumed, 5);
  head.insert(head.end(), tail.begin(), tail.end());
  CHECK(head == full);
}

TEST_CASE("explorer: the posterior improvement front sees past a lucky draw that the observed front stops at") {
  // ε = 1 + 9x exactly; utility 0.5 + 0.4x measured with noise, one draw (x = 0.5) lucky by 0.3.
  const space::Space line({{"x", space::Kind::continuous, space::Scale::linear, 0, 1, std::nullopt}});
  const auto acquisition_near_lucky = [&](bo::ImprovementFront front) {
    bo::ExplorerOptions options;
    options.objectives.set_reference({10, 1});
    options.improvement_front = front;
    bo::Explorer explorer(line, options, 3);
    Rng rng(11);
    std::normal_distribution<double> noise(0, 0.02);
    for (int k = 0; k <= 20; ++k) {
      const double x = k / 20.0;
      const double lucky = k == 10 ? 0.3 : 0.0;
      explorer.tell({{x}, true, {1 + 9 * x, 0.5 + 0.4 * x + noise(rng) + lucky}});
    }
    explorer.fit_surrogates();
    return explorer.acquisition_at({0.53});  // ε 5.77, utility about 0.71: below the lucky 0.99
  };
  CHECK(acquisition_near_lucky(bo::ImprovementFront::observed) == 0);
  CHECK(acquisition_near_lucky(bo::ImprovementFront::posterior) > 0);
}

TEST_CASE("explorer: an improvement front named neither observed nor posterior is refused, naming it") {
  CHECK(bo::parse_improvement_front("posterior", "--improvement-front") == bo::ImprovementFront::posterior);
  CHECK(bo::parse_improvement_front("observed", "--improvement-front") == bo::ImprovementFront::observed);
  CHECK_THROWS_WITH_AS(bo::parse_improvement_front("mean", "--improvement-front"),
                       "--improvement-front 'mean': expected observed or posterior", InputError);
}
