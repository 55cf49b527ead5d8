// Row splits of `dpareto tune` (independent per-row assignment, so one row changes one part) and
// the Koskela–Kulkarni extrapolation rule.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

#include "dpareto/select/tuning_data.hpp"

using namespace dpareto;
using namespace dpareto::select;

namespace {
std::vector<int> iota_rows(int n) {
  std::vector<int> rows(static_cast<std::size_t>(n));
  std::iota(rows.begin(), rows.end(), 0);
  return rows;
}
}  // namespace

TEST_CASE("bernoulli_rows keeps every row once and selects about p of them") {
  privacy::ChaChaRandomSource source(7);
  const int n = 20000;
  const auto split = bernoulli_rows(iota_rows(n), 0.3, source);
  CHECK(split.selected.size() + split.rest.size() == std::size_t(n));
  // Binomial(n, 0.3): 5 standard deviations.
  CHECK(std::abs(double(split.selected.size()) - 0.3 * n) < 5 * std::sqrt(n * 0.3 * 0.7));
  std::vector<int> all = split.selected;
  all.insert(all.end(), split.rest.begin(), split.rest.end());
  std::sort(all.begin(), all.end());
  CHECK(all == iota_rows(n));
  // A row's assignment does not depend on the other rows: the same stream over a prefix agrees.
  privacy::ChaChaRandomSource a(9), b(9);
  const auto full = bernoulli_rows(iota_rows(100), 0.5, a);
  const auto prefix = bernoulli_rows(iota_rows(60), 0.5, b);
  for (int row : prefix.selected) CHECK(std::count(full.selected.begin(), full.selected.end(), row) == 1);
}

TEST_CASE("uniform parts are balanced; label-skewed parts follow their home label") {
  privacy::ChaChaRandomSource source(3);
  const int n = 12000;
  const auto parts = uniform_parts(iota_rows(n), 4, source);
  std::size_t total = 0;
  for (const auto& p : parts) {
    total += p.size();
    CHECK(std::abs(double(p.size()) - n / 4.0) < 5 * std::sqrt(n * 0.25 * 0.75));
  }
  CHECK(total == std::size_t(n));

  std::vector<int> labels(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) labels[std::size_t(i)] = i % 2;
  const auto skewed = label_skewed_parts(iota_rows(n), labels, 2, 4, 0.8, source);
  // Part j's home label is j mod 2: P(home label | in part j) = (0.8·½·½ + 0.2·½·¼) / (¼) = 0.9.
  for (std::size_t j = 0; j < 4; ++j) {
    const auto home =
        std::count_if(skewed[j].begin(), skewed[j].end(), [&](int r) { return labels[std::size_t(r)] == int(j % 2); });
    const double share = double(home) / double(skewed[j].size());
    CHECK(share == doctest::Approx(0.9).epsilon(0.03));
  }
}

TEST_CASE("extrapolation keeps the sampling ratio and scales the DP-SGD learning rate") {
  learn::TrainConfig c;
  c.lot_size = 100, c.learning_rate = 0.2, c.epochs = 3, c.noise_multiplier = 1.5, c.clip_norm = 1;
  const auto small = extrapolate(c, 10000, 1000);
  CHECK(small.lot_size == 10);
  CHECK(small.learning_rate == doctest::Approx(0.02));
  CHECK(small.epochs == 3);
  CHECK(small.noise_multiplier == 1.5);
  CHECK(learn::training_steps(small, 1000) == learn::training_steps(c, 10000));
  c.optimizer = learn::Optimizer::adam;
  CHECK(extrapolate(c, 10000, 1000).learning_rate == 0.2);
  CHECK(extrapolate(c, 10000, 5).lot_size == 1);
}
