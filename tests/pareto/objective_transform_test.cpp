#include <doctest/doctest.h>

#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/pareto/objective_transform.hpp"

using namespace dpareto::pareto;

TEST_CASE("output transforms round-trip") {
  for (double v : {1e-4, 0.3, 0.5, 0.9, 0.999}) {
    CHECK(inverse(Transform::logit, forward(Transform::logit, v)) == doctest::Approx(v).epsilon(1e-12));
    CHECK(inverse(Transform::log, forward(Transform::log, v)) == doctest::Approx(v).epsilon(1e-12));
    CHECK(inverse(Transform::identity, forward(Transform::identity, v)) == v);
  }
  CHECK(forward(Transform::log, 1000.0) == doctest::Approx(std::log(1000.0)));
  CHECK(forward(Transform::logit, 0.25) == doctest::Approx(std::log(1.0 / 3.0)));
  CHECK(inverse(Transform::logit, 0.0) == 0.5);
  CHECK(inverse(Transform::logit, -800.0) >= 0.0);
  CHECK(inverse(Transform::logit, 800.0) == 1.0);
  CHECK(transform_name(Transform::identity) == "identity");
  CHECK(transform_name(Transform::log) == "log");
  CHECK(transform_name(Transform::logit) == "logit");
  CHECK(transform_name(Transform::arcsine) == "arcsine");
  CHECK(parse_transform("arcsine", "test") == Transform::arcsine);
  CHECK_THROWS_WITH_AS(parse_transform("probit", "space.json"),
                       "space.json: unknown transform 'probit' (expected identity, log, logit or arcsine)",
                       dpareto::InputError);
}

TEST_CASE("arcsine: ½ asin(2u − 1) onto [−π/4, π/4], finite at 0 and 1, its inverse clamped") {
  for (double v : {0.0, 1e-4, 0.3, 0.5, 0.9, 1.0})
    CHECK(inverse(Transform::arcsine, forward(Transform::arcsine, v)) == doctest::Approx(v).epsilon(1e-12));
  CHECK(forward(Transform::arcsine, 0.0) == doctest::Approx(-kArcsineBound).epsilon(1e-15));
  CHECK(forward(Transform::arcsine, 1.0) == doctest::Approx(kArcsineBound).epsilon(1e-15));
  CHECK(forward(Transform::arcsine, 0.5) == 0.0);
  // asin(√u) − π/4: u = 1/4 gives π/6 − π/4 = −π/12.
  CHECK(forward(Transform::arcsine, 0.25) == doctest::Approx(-kArcsineBound / 3).epsilon(1e-14));
  CHECK(forward(Transform::arcsine, -0.5) == forward(Transform::arcsine, 0.0));
  CHECK(forward(Transform::arcsine, 1.5) == forward(Transform::arcsine, 1.0));
  CHECK(inverse(Transform::arcsine, 5.0) == 1.0);
  CHECK(inverse(Transform::arcsine, -5.0) == 0.0);
  // Symmetric about 1/2: 1 − h(−z) = h(z), so the error (1 − u) on −arcsine(u) has the same link.
  for (double z : {-0.7, -0.2, 0.1, 0.6})
    CHECK(1 - inverse(Transform::arcsine, -z) == doctest::Approx(inverse(Transform::arcsine, z)));
  CHECK(transform_domain_problem(Transform::arcsine, 1.2) == "must be in [0, 1] (its surrogate is an arcsine)");
  CHECK(transform_domain_problem(Transform::arcsine, 0.0) == "");
  CHECK(is_unit_interval_transform(Transform::arcsine));
  CHECK(is_unit_interval_transform(Transform::logit));
  CHECK_FALSE(is_unit_interval_transform(Transform::log));
  CHECK_THROWS_AS(forward(Transform::arcsine, NAN), dpareto::InputError);
}

TEST_CASE("logit clamps at kLogitMargin; log clamps at 1e-300") {
  const double edge = std::log(kLogitMargin) - std::log1p(-kLogitMargin);  // ≈ −13.8155
  CHECK(edge == doctest::Approx(-13.81551).epsilon(1e-6));
  CHECK(forward(Transform::logit, 0.0) == doctest::Approx(edge));
  CHECK(forward(Transform::logit, -0.5) == doctest::Approx(edge));
  CHECK(forward(Transform::logit, 1.0) == doctest::Approx(-edge));
  CHECK(forward(Transform::logit, kLogitMargin / 2) == doctest::Approx(edge));
  CHECK(forward(Transform::logit, 2 * kLogitMargin) > edge);
  CHECK(std::isfinite(forward(Transform::log, 0.0)));
  CHECK(forward(Transform::log, 0.0) == doctest::Approx(std::log(1e-300)));
  CHECK_THROWS_AS(forward(Transform::log, NAN), dpareto::InputError);
  CHECK_THROWS_AS(forward(Transform::logit, NAN), dpareto::InputError);
}
