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
