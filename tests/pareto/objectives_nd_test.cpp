#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "dpareto/core/error.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/pareto/boxes.hpp"
#include "dpareto/pareto/dominance.hpp"
#include "dpareto/pareto/hypervolume.hpp"
#include "dpareto/pareto/objectives.hpp"

using namespace dpareto::pareto;

namespace {

// Random points on a coarse grid of [0, 1.2)^d (ties, exact duplicates, points beyond r = 1).
std::vector<Point> grid_points(dpareto::Rng& rng, std::size_t n, std::size_t d) {
  std::uniform_int_distribution<int> u(0, 6);
  std::vector<Point> points;
  for (std::size_t i = 0; i < n; ++i) {
    Point p(d);
    for (double& v : p) v = u(rng) / 5.0;
    points.push_back(p);
  }
  return points;
}

bool dominated_by_any(const std::vector<Point>& points, const Point& q) {
  for (const Point& p : points) {
    bool weakly = true;
    for (std::size_t k = 0; k < q.size(); ++k) weakly = weakly && p[k] <= q[k];
    if (weakly) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("N-D non-dominated filter: the brute-force definition, sorted, first duplicate kept") {
  dpareto::Rng rng(11);
  for (std::size_t d = 2; d <= 5; ++d)
    for (int trial = 0; trial < 60; ++trial) {
      const auto points = grid_points(rng, 1 + trial % 20, d);
      std::vector<std::size_t> expected;
      for (std::size_t i = 0; i < points.size(); ++i) {
        bool keep = true;
        for (std::size_t j = 0; j < points.size(); ++j) {
          bool weakly = true, strictly = false;
          for (std::size_t k = 0; k < d; ++k) {
            weakly = weakly && points[j][k] <= points[i][k];
            strictly = strictly || points[j][k] < points[i][k];
          }
          if ((weakly && strictly) || (j < i && points[j] == points[i])) keep = false;
        }
        if (keep) expected.push_back(i);
      }
      std::sort(expected.begin(), expected.end(), [&](auto a, auto b) { return points[a] < points[b]; });
      CHECK(non_dominated_indices(points) == expected);
      const auto front = pareto_front(points);
      REQUIRE(front.size() == expected.size());
      for (std::size_t k = 0; k < front.size(); ++k) CHECK(front[k] == points[expected[k]]);
    }
  CHECK_THROWS_AS(non_dominated_indices(std::vector<Point>{{1, 2, 3}, {1, 2}}), dpareto::InputError);
  CHECK_THROWS_AS(non_dominated_indices(std::vector<Point>{{1, NAN, 3}}), dpareto::InputError);
}

TEST_CASE("4-D hypervolume against a Monte-Carlo estimate") {
  dpareto::Rng rng(13);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Point> points;
  for (int i = 0; i < 40; ++i) {
    Point p(4);
    for (double& v : p) v = u(rng);
    // Push points toward a front: scale so that the coordinates sum to about 2.
    double sum = 0;
    for (double v : p) sum += v;
    for (double& v : p) v = std::min(0.999, v * 2.0 / sum);
    points.push_back(p);
  }
  const Point reference(4, 1.0);
  const double exact = hypervolume(points, reference);
  const int samples = 200000;
  int hits = 0;
  for (int s = 0; s < samples; ++s) {
    Point q(4);
    for (double& v : q) v = u(rng);
    if (dominated_by_any(points, q)) ++hits;
  }
  const double estimate = double(hits) / samples;  // the box [0, 1]^4 has volume 1
  const double se = std::sqrt(estimate * (1 - estimate) / samples);
  CHECK(exact > 0.1);
  CHECK(std::abs(exact - estimate) < 5 * se);  // a false alarm once in ~1.7 million seeds
}

TEST_CASE("N-D boxes: disjoint, they fill the box with the hypervolume, HVI = HV(P ∪ {m}) − HV(P)") {
  dpareto::Rng rng(14);
  std::uniform_real_distribution<double> u(0.0, 1.2);
  for (std::size_t d = 2; d <= 4; ++d)
    for (int trial = 0; trial < 30; ++trial) {
      const auto points = grid_points(rng, 1 + trial % 8, d);
      const Point reference(d, 1.0);
      const auto boxes = nondominated_boxes(points, reference);
      // Clipped to [0, r]: total = 1 = HV + Σ box volumes; a random point lies in exactly one box iff
      // no point weakly dominates it.
      double volume = 0;
      for (const Box& b : boxes) {
        double v = 1;
        for (std::size_t k = 0; k < d; ++k) v *= std::max(0.0, b.upper[k] - std::max(b.lower[k], 0.0));
        volume += v;
      }
      CHECK(volume + hypervolume(points, reference) == doctest::Approx(1.0).epsilon(1e-12));
      for (int s = 0; s < 20; ++s) {
        Point q(d);
        for (double& v : q) v = u(rng) * 0.83;  // inside [0, r) mostly
        int inside = 0;
        for (const Box& b : boxes) {
          bool in = true;
          for (std::size_t k = 0; k < d; ++k) in = in && q[k] > b.lower[k] && q[k] < b.upper[k];
          inside += in;
        }
        CHECK(inside == (dominated_by_any(points, q) ? 0 : 1));
        auto with = points;
        with.push_back(q);
        const double hvi = hypervolume(with, reference) - hypervolume(points, reference);
        CHECK(hypervolume_improvement(boxes, q) == doctest::Approx(hvi).epsilon(1e-12));
        CHECK(hypervolume_improvement(points, q, reference) == doctest::Approx(hvi).epsilon(1e-12));
      }
    }
}

TEST_CASE("Objectives: today's pair, its columns and transforms, a third objective") {
  const auto o = Objectives::privacy_utility(1000, 1);
  REQUIRE(o.size() == 2);
  CHECK(o.names() == std::vector<std::string>{"epsilon", "error"});
  CHECK(o.columns() == std::vector<std::string>{"epsilon", "delta", "utility", "utility_min", "utility_max"});
  CHECK(o.reference() == Point{1000, 1});
  CHECK(o[0].known_exactly);
  CHECK_FALSE(o[1].known_exactly);
  CHECK(o.point({0.5, 0.75}) == Point{0.5, 1.0 - 0.75});
  // GP space, smaller is better: log ε and −logit u; from_gp inverts to the column value.
  CHECK(o[0].to_gp(2.0) == std::log(2.0));
  CHECK(o[1].to_gp(0.75) == -forward(Transform::logit, 0.75));
  CHECK(o[1].from_gp(o[1].to_gp(0.75)) == doctest::Approx(0.75).epsilon(1e-12));
  CHECK(o[1].to_gp(0.9) < o[1].to_gp(0.8));  // higher utility, lower error, lower coordinate
  CHECK(o.further_names().empty());

  const auto three = Objectives::with({"train_seconds"}, {10, 1, 60});
  CHECK(three.names() == std::vector<std::string>{"epsilon", "error", "train_seconds"});
  CHECK(three.columns().back() == "train_seconds");
  CHECK(three.further_names() == std::vector<std::string>{"train_seconds"});
  CHECK(three[2].surrogate == Transform::log);
  CHECK(three.reference() == Point{10, 1, 60});
  CHECK_THROWS_AS(Objectives::with({"train_seconds"}, {10, 1}), dpareto::InputError);
  CHECK_THROWS_AS(Objectives::with({"bogus"}, {10, 1, 1}), dpareto::InputError);
  CHECK_THROWS_AS(Objectives::with({"error"}, {10, 1, 1}), dpareto::InputError);
  CHECK_THROWS_AS(o.point({1.0}), dpareto::InputError);
}

TEST_CASE("declared objectives (issue 13 item 2): identifiers, not record columns, references in their domain") {
  const auto latency = declared_objective("latency_ms", Transform::log, 250, "space.json");
  CHECK(latency.column() == "latency_ms");
  CHECK(latency.surrogate == Transform::log);
  CHECK_FALSE(latency.complement);
  const auto three = Objectives::with_further({latency}, {10, 1, 250});
  CHECK(three.names() == std::vector<std::string>{"epsilon", "error", "latency_ms"});
  CHECK(three.index_of("latency_ms", "--max") == 2);
  CHECK(three.point({2, 0.75, 40}) == Point{2, 0.25, 40});  // minimized as it is
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const dpareto::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message([&] { three.index_of("memory", "--max memory=1"); }) ==
        "--max memory=1: no objective 'memory' (this run has epsilon, error, latency_ms)");
  for (const std::string& bad :
       std::vector<std::string>{"", "Latency", "9lives", "a-b", "drop table", std::string(41, 'a')})
    CHECK(message([&] { declared_objective(bad, Transform::identity, 1, "space.json"); }).find("a name is") !=
          std::string::npos);
  for (const std::string taken : {"seconds", "epsilon", "utility", "status", "train_seconds"})
    CHECK(message([&] { declared_objective(taken, Transform::identity, 1, "space.json"); }).find("taken") !=
          std::string::npos);
  CHECK(message([&] { declared_objective("cost", Transform::log, 0, "space.json"); }) ==
        "space.json: objective 'cost': reference 0 must be positive (its surrogate is on a log scale)");
  CHECK(message([&] { parse_transform("sqrt", "space.json"); }) ==
        "space.json: unknown transform 'sqrt' (expected identity, log, logit or arcsine)");
  CHECK(parse_transform("logit", "x") == Transform::logit);
  CHECK(transform_domain_problem(Transform::logit, 1.5) != "");
  CHECK(transform_domain_problem(Transform::identity, -3) == "");
  CHECK(transform_domain_problem(Transform::identity, std::nan("")) != "");
  CHECK_THROWS_AS(Objectives::with_further({latency, latency}, {10, 1, 2, 2}), dpareto::InputError);
}
