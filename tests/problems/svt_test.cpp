#include <doctest/doctest.h>

#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/problems/registry.hpp"
#include "dpareto/problems/svt_problem.hpp"

using namespace dpareto;

TEST_CASE("SVT privacy oracle is DPareto Appx. B's closed form") {
  problems::SvtProblem svt;
  for (int c : {1, 2, 5, 30})
    for (double b : {0.01, 0.7, 3.0, 100.0}) {
      const double expected = (1 + std::cbrt(2.0 * c)) * (1 + std::cbrt(4.0 * c * c)) / b;
      CHECK(svt.privacy({double(c), b}) == doctest::Approx(expected).epsilon(1e-12));
    }
  // Hand-checked: C = 4, b = 1: (1 + 2)(1 + 4) = 15.
  CHECK(svt.privacy({4, 1}) == doctest::Approx(15.0));
  CHECK(svt.delta() == 0);
}

TEST_CASE("F1 score") {
  CHECK(problems::f1_score({1, 1, 0, 0}, {1, 1, 0, 0}) == 1.0);
  CHECK(problems::f1_score({1, 1, 0, 0}, {0, 0, 0, 0}) == 0.0);  // no positives in the output
  // tp = 1, fp = 1, fn = 1: 2/(2 + 1 + 1) = 0.5
  CHECK(problems::f1_score({1, 1, 0, 0}, {1, 0, 1, 0}) == doctest::Approx(0.5));
  CHECK(problems::f1_score({1, 0, 0, 0}, {1, 1, 1, 1}) == doctest::Approx(2.0 / 5.0));
}

TEST_CASE("sparse vector: stops after C positives; tiny noise answers exactly") {
  Rng rng(1);
  std::vector<int> answers(100, 0);
  for (int i = 0; i < 10; ++i) answers[i * 7] = 1;
  const auto exact = problems::run_sparse_vector(answers, 30, 1e-6, rng);
  CHECK(exact == answers);
  const auto capped = problems::run_sparse_vector(answers, 3, 1e-6, rng);
  CHECK(std::count(capped.begin(), capped.end(), 1) == 3);
  // the first three true queries in order
  CHECK(capped[0] == 1);
  CHECK(capped[7] == 1);
  CHECK(capped[14] == 1);
  CHECK(capped[21] == 0);
}

TEST_CASE("SVT utility: near 1 with little noise and C >= 10, poor with huge noise, deterministic for a seed") {
  problems::SvtProblem svt;
  const auto good = svt.utility({10, 0.01}, 5);
  CHECK(good.utility == doctest::Approx(1.0));
  const auto noisy = svt.utility({10, 100}, 5);
  CHECK(noisy.utility < 0.4);
  CHECK(noisy.utility_min <= noisy.utility);
  CHECK(noisy.utility <= noisy.utility_max);
  // C = 5 < 10 true answers: at best F1 = 2*5/(2*5 + 5) = 2/3.
  CHECK(svt.utility({5, 0.01}, 3).utility == doctest::Approx(2.0 / 3.0));
  CHECK(svt.utility({7, 2.0}, 99).utility == svt.utility({7, 2.0}, 99).utility);
  CHECK(svt.utility({7, 2.0}, 99).utility != svt.utility({7, 2.0}, 100).utility);
}

TEST_CASE("SVT Monte-Carlo mean is consistent across repeats counts (standard error bound)") {
  problems::SvtProblem many({100, 10, 4000});
  problems::SvtProblem few({100, 10, 400});
  const double a = many.utility({15, 5.0}, 1).utility;
  const double b = few.utility({15, 5.0}, 2).utility;
  // F1 ∈ [0, 1] so its std is at most 0.5: 4 standard errors of the difference.
  CHECK(std::abs(a - b) < 4 * 0.5 * std::sqrt(1.0 / 4000 + 1.0 / 400));
}

TEST_CASE("SVT problem from the registry: options and bad input") {
  auto p = problems::make_problem("svt", {{"repeats", "7"}, {"queries", "50"}});
  CHECK(p->settings().at("repeats") == "7");
  CHECK(p->space().dimension() == 2);
  CHECK(p->default_reference().epsilon == 1000);
  CHECK(p->default_reference().axis == problems::HvAxis::log10);
  CHECK_THROWS_AS(problems::make_problem("svt", {{"bogus", "1"}}), InputError);
  CHECK_THROWS_AS(problems::make_problem("svt", {{"repeats", "abc"}}), InputError);
  CHECK_THROWS_AS(problems::make_problem("svt", {{"true_queries", "500"}}), InputError);
  CHECK_THROWS_AS(problems::make_problem("no-such-problem"), InputError);
}

TEST_CASE("evaluate turns invalid oracle output into failed evaluations, never a crash") {
  struct Broken : problems::Problem {
    double eps;
    double util;
    Broken(double e, double u) : eps(e), util(u) {}
    std::string name() const override { return "broken"; }
    const space::Space& space() const override { return s; }
    double delta() const override { return 0; }
    double privacy(const space::Params&) const override { return eps; }
    problems::UtilityResult utility(const space::Params&, std::uint64_t) const override {
      if (util == 42) throw std::runtime_error("oracle crashed");
      return {util, util, util, "", {}, {}};
    }
    space::Space s{{{"x", space::Kind::continuous, space::Scale::linear, 0, 1, std::nullopt}}};
  };
  CHECK(Broken(1, 0.5).evaluate({0.5}, 1).ok);
  CHECK_FALSE(Broken(std::nan(""), 0.5).evaluate({0.5}, 1).ok);
  CHECK_FALSE(Broken(-1, 0.5).evaluate({0.5}, 1).ok);
  CHECK_FALSE(Broken(1, 1.5).evaluate({0.5}, 1).ok);
  CHECK_FALSE(Broken(1, std::nan("")).evaluate({0.5}, 1).ok);
  const auto crashed = Broken(1, 42).evaluate({0.5}, 1);
  CHECK_FALSE(crashed.ok);
  CHECK(crashed.message.find("oracle crashed") != std::string::npos);
  CHECK(Broken(INFINITY, 0.5).evaluate({0.5}, 1).ok);  // no privacy is a valid answer
}
