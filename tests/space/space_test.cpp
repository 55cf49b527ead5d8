#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "dpareto/core/error.hpp"
#include "dpareto/space/grid.hpp"
#include "dpareto/space/space.hpp"

using namespace dpareto;
using space::Kind;
using space::Scale;

namespace {
space::Space mixed() {
  return space::Space({{"epochs", Kind::integer, Scale::linear, 1, 64, std::nullopt},
                       {"lr", Kind::continuous, Scale::log, 1e-3, 1e-1, std::nullopt},
                       {"clip", Kind::continuous, Scale::linear, 0.5, 4, std::nullopt}});
}
}  // namespace

TEST_CASE("unit-cube mapping: log scale through log, integers rounded, round trip") {
  const auto s = mixed();
  const auto u = s.to_unit({1, 1e-2, 4});
  CHECK(u[0] == doctest::Approx(0.0));
  CHECK(u[1] == doctest::Approx(0.5));  // 1e-2 is the geometric midpoint of [1e-3, 1e-1]
  CHECK(u[2] == doctest::Approx(1.0));
  const auto back = s.from_unit({0.5, 0.25, 0.5});
  CHECK(back[0] == std::round(1 + 0.5 * 63));
  CHECK(back[1] == doctest::Approx(std::pow(10.0, -2.5)));
  CHECK(back[2] == doctest::Approx(2.25));
  const auto clamped = s.from_unit({-1, 2, 0.5});
  CHECK(clamped[0] == 1);
  CHECK(clamped[1] == doctest::Approx(0.1));
}

TEST_CASE("grid: g points per dimension on each scale, integers de-duplicated") {
  const auto s = mixed();
  const auto g = space::full_grid(s, 3);
  CHECK(g.size() == 27);
  std::set<double> lrs;
  for (const auto& p : g) lrs.insert(p[1]);
  CHECK(lrs.size() == 3);
  CHECK(lrs.count(1e-3) == 1);
  space::Space small({{"c", Kind::integer, Scale::linear, 1, 3, std::nullopt}});
  CHECK(space::full_grid(small, 10).size() == 3);  // only 3 distinct integers
}

TEST_CASE("uniform sampling stays in bounds and covers the integer range") {
  const auto s = mixed();
  Rng rng(4);
  std::set<double> epochs;
  double log_lr_sum = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    const auto p = s.sample_uniform(rng);
    CHECK(s.contains(p));
    epochs.insert(p[0]);
    log_lr_sum += std::log10(p[1]);
  }
  CHECK(epochs.size() == 64);
  // log10 lr uniform on [-3, -1]: mean -2, std 2/sqrt(12); 5 standard errors.
  CHECK(std::abs(log_lr_sum / n + 2.0) < 5 * (2 / std::sqrt(12.0)) / std::sqrt(double(n)));
}

TEST_CASE("Appx. C priors: accept ranges respected, integer-valued, shifted exponential mean") {
  space::SamplingDistribution lot{space::SamplingDistribution::Family::normal, 128, 64, 8, 512, true};
  space::SamplingDistribution lr{space::SamplingDistribution::Family::shifted_exponential, 10, 1e-3, 1e-3, 1.0, false};
  Rng rng(8);
  double sum = 0;
  const int n = 40000;
  for (int i = 0; i < n; ++i) {
    const double m = lot.sample(rng);
    CHECK(m == std::round(m));
    CHECK(m >= 8);
    CHECK(m <= 512);
    sum += lr.sample(rng);
  }
  // Exponential(rate 10) + 1e-3 truncated at 1 (negligible mass beyond): mean 0.101, std 0.1.
  CHECK(std::abs(sum / n - 0.101) < 5 * 0.1 / std::sqrt(double(n)));
  space::SamplingDistribution impossible{space::SamplingDistribution::Family::normal, 0, 1e-3, 5, 6, false};
  CHECK_THROWS_AS(impossible.sample(rng), Error);
}

TEST_CASE("parse and format of name=value settings, with clear errors") {
  const auto s = mixed();
  const auto p = s.parse("lr=0.01,clip=2,epochs=5", "--params");
  CHECK(p == space::Params{5, 0.01, 2});
  CHECK(s.parse(s.format(p), "x") == p);
  CHECK_THROWS_WITH_AS(s.parse("lr=0.01,clip=2", "--params"), "--params: parameter 'epochs' is missing", InputError);
  CHECK_THROWS_AS(s.parse("lr=abc,clip=2,epochs=5", "--params"), InputError);
  CHECK_THROWS_AS(s.parse("lr=0.01,clip=2,epochs=5.5", "--params"), InputError);
  CHECK_THROWS_AS(s.parse("lr=0.01,clip=2,epochs=5,epochs=6", "--params"), InputError);
  CHECK_THROWS_AS(s.parse("lr=0.01,clip=2,epochs=5,foo=1", "--params"), InputError);
  CHECK_THROWS_AS(s.parse("lr0.01", "--params"), InputError);
  CHECK_FALSE(s.contains(s.parse("lr=0.5,clip=2,epochs=5", "--params")));
}

TEST_CASE("parse: the text is echoed on one line, control bytes as '?', and an unknown name names the source") {
  // Fuzz findings (fuzz/params.cpp): raw bytes of the text reached the message.
  const auto s = mixed();
  CHECK_THROWS_WITH_AS(s.parse(std::string("\x17\xef\n\0\x80`", 6), "--params"),
                       "--params: '?????`' is not of the form name=value", InputError);
  CHECK_THROWS_WITH_AS(s.parse("lr=1\r\n,clip=2,epochs=5", "--params"),
                       "--params: value '1?\?' of parameter 'lr' is not a finite number", InputError);
  CHECK_THROWS_WITH_AS(s.parse("lr=0.01,clip=2,epochs=5.5\r", "--params"),
                       "--params: value '5.5?' of parameter 'epochs' is not a finite number", InputError);
  const std::string unknown = [&] {
    try {
      s.parse("e\n=1,lr=0.01,clip=2,epochs=5", "--params");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  CHECK(unknown.rfind("--params: unknown parameter 'e?'", 0) == 0);
  CHECK(unknown.find('\n') == std::string::npos);
}

TEST_CASE("invalid spaces are refused with the parameter named") {
  CHECK_THROWS_WITH_AS(space::Space({{"a", Kind::continuous, Scale::linear, 2, 1, std::nullopt}}),
                       "space: parameter 'a' has empty or inverted bounds [2, 1]", InputError);
  CHECK_THROWS_AS(space::Space({{"a", Kind::continuous, Scale::linear, 1, 1, std::nullopt}}), InputError);
  CHECK_THROWS_AS(space::Space({{"a", Kind::continuous, Scale::log, 0, 1, std::nullopt}}), InputError);
  CHECK_THROWS_AS(space::Space({{"a", Kind::integer, Scale::linear, 0.5, 3, std::nullopt}}), InputError);
  CHECK_THROWS_AS(space::Space({{"a", Kind::continuous, Scale::linear, 0, 1, std::nullopt},
                                {"a", Kind::continuous, Scale::linear, 0, 1, std::nullopt}}),
                  InputError);
}
