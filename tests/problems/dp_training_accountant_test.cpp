// The accountant of DP-training problems (issue 15 item 2): PLD by default (--set accountant=pld),
// RDP on request; privacy() is exactly the chosen accountant's ε of the configuration, the PLD one
// below the RDP one, and privacy_upper_bound() (pick's screening) is the RDP ε.
#include <doctest/doctest.h>

#include "dpareto/core/error.hpp"
#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/problems/dp_training_problem.hpp"

using namespace dpareto;

namespace {

problems::DpTrainingProblem synthetic(const problems::ProblemOptions& options) {
  return problems::DpTrainingProblem(
      {"synthetic-logreg-sgd", problems::DataSource::synthetic, learn::logistic_regression(20)}, options);
}

}  // namespace

TEST_CASE("DP-training problems account by PLD by default, by RDP on request") {
  const space::Params params{4, 64, 0.05, 1.1, 1};  // epochs, lot, learning rate, sigma, clip
  const auto pld = synthetic({{"train_subset", "2000"}});
  const auto rdp = synthetic({{"train_subset", "2000"}, {"accountant", "rdp"}});
  CHECK(pld.settings().at("accountant") == "pld");
  CHECK(rdp.settings().at("accountant") == "rdp");
  const auto config = pld.config(params, 1);
  const double exact_pld = learn::training_epsilon(config, 2000, 1e-5, privacy::AccountantKind::pld).epsilon;
  const double exact_rdp = learn::training_epsilon(config, 2000, 1e-5, privacy::AccountantKind::rdp).epsilon;
  CHECK(pld.privacy(params) == exact_pld);
  CHECK(rdp.privacy(params) == exact_rdp);
  CHECK(exact_pld < exact_rdp);
  CHECK(pld.privacy_upper_bound(params) == exact_rdp);
  CHECK(rdp.privacy_upper_bound(params) == exact_rdp);
  // Fixed-size lots have no PLD here: the PLD accountant answers by RDP for them.
  const auto fixed = synthetic({{"train_subset", "2000"}, {"sampling", "fixed"}});
  CHECK(fixed.privacy(params) ==
        doctest::Approx(
            learn::training_epsilon(fixed.config(params, 1), 2000, 1e-5, privacy::AccountantKind::rdp).epsilon)
            .epsilon(1e-12));
  CHECK_THROWS_WITH_AS(synthetic({{"accountant", "moments"}}), doctest::Contains("option accountant: 'moments'"),
                       InputError);
}

TEST_CASE("known epsilon (issue 18): search_privacy is RDP on the search orders; PLD and calibrated noise refuse") {
  const space::Params params{4, 64, 0.05, 1.1, 1};
  const auto rdp = synthetic({{"train_subset", "2000"}, {"accountant", "rdp"}});
  CHECK(rdp.known_privacy_obstacle().empty());
  const auto config = rdp.config(params, 1);
  CHECK(rdp.search_privacy(params) == privacy::dpsgd_epsilon(config.sampling, 64.0 / 2000, 1.1,
                                                             learn::training_steps(config, 2000), 1e-5,
                                                             privacy::search_orders())
                                          .epsilon);
  CHECK(rdp.search_privacy(params) >= rdp.privacy(params));
  CHECK(rdp.search_privacy(params) == doctest::Approx(rdp.privacy(params)).epsilon(1e-6));
  CHECK(synthetic({{"train_subset", "2000"}}).known_privacy_obstacle().find("accountant=rdp") != std::string::npos);
  CHECK(synthetic({{"train_subset", "2000"}, {"accountant", "rdp"}, {"noise", "calibrated"}})
            .known_privacy_obstacle()
            .find("calibrated") != std::string::npos);
}
