#include "dpareto/select/tuning_data.hpp"

#include <algorithm>
#include <cmath>

#include "dpareto/core/error.hpp"

namespace dpareto::select {

RowSplit bernoulli_rows(const std::vector<int>& rows, double p, privacy::RandomSource& source) {
  if (!(p >= 0 && p <= 1)) throw Error("bernoulli_rows: probability outside [0, 1]");
  const privacy::Rational probability = privacy::exact_rational(p, "row selection probability");
  RowSplit split;
  for (int row : rows) (privacy::bernoulli(source, probability) ? split.selected : split.rest).push_back(row);
  return split;
}

namespace {
std::size_t uniform_index(std::size_t count, privacy::RandomSource& source) {
  return static_cast<std::size_t>(privacy::uniform_below(source, privacy::BigInt(count)));
}
}  // namespace

std::vector<std::vector<int>> uniform_parts(const std::vector<int>& rows, std::size_t parts,
                                            privacy::RandomSource& source) {
  if (parts == 0) throw Error("uniform_parts: no parts");
  std::vector<std::vector<int>> out(parts);
  for (int row : rows) out[uniform_index(parts, source)].push_back(row);
  return out;
}

std::vector<std::vector<int>> label_skewed_parts(const std::vector<int>& rows, const std::vector<int>& labels,
                                                 int num_classes, std::size_t parts, double skew,
                                                 privacy::RandomSource& source) {
  if (parts == 0 || num_classes < 1) throw Error("label_skewed_parts: no parts or classes");
  const privacy::Rational skew_probability = privacy::exact_rational(skew, "label skew");
  std::vector<std::vector<std::size_t>> home(static_cast<std::size_t>(num_classes));
  for (std::size_t j = 0; j < parts; ++j) home[j % static_cast<std::size_t>(num_classes)].push_back(j);
  std::vector<std::vector<int>> out(parts);
  for (int row : rows) {
    const auto& own = home[static_cast<std::size_t>(labels[static_cast<std::size_t>(row)])];
    const bool skewed = privacy::bernoulli(source, skew_probability) && !own.empty();
    const std::size_t part = skewed ? own[uniform_index(own.size(), source)] : uniform_index(parts, source);
    out[part].push_back(row);
  }
  return out;
}

learn::TrainConfig extrapolate(const learn::TrainConfig& config, int n_from, int n_to) {
  if (n_from < 1 || n_to < 1) throw Error("extrapolate: row counts must be >= 1");
  learn::TrainConfig out = config;
  const double ratio = static_cast<double>(n_to) / n_from;
  out.lot_size = std::clamp(static_cast<int>(std::lround(config.lot_size * ratio)), 1, n_to);
  if (config.optimizer == learn::Optimizer::sgd) out.learning_rate = config.learning_rate * ratio;
  return out;
}

privacy::ChaChaRandomSource::Key draw_noise_key(privacy::RandomSource& source) {
  privacy::ChaChaRandomSource::Key key;
  for (auto& word : key) word = static_cast<std::uint32_t>(source.next_u64());
  return key;
}

learn::TrainResult train_keyed(const learn::Network& net, const learn::Dataset& data, learn::TrainConfig config,
                               privacy::RandomSource& source) {
  config.noise_key = draw_noise_key(source);
  return learn::train(net, data, config, source.next_u64());
}

privacy::Rational score_noise_scale(double score_epsilon) {
  if (!(score_epsilon > 0)) throw Error("score_noise_scale: score epsilon must be > 0");
  privacy::Rational epsilon = privacy::exact_rational(score_epsilon, "score epsilon");
  return {std::move(epsilon.den), std::move(epsilon.num)};
}

double noisy_accuracy(const learn::Network& net, const Eigen::VectorXf& params, const learn::Dataset& validation,
                      double score_epsilon, int threads, privacy::RandomSource& source) {
  const int rows = validation.size();
  if (rows < 1) throw Error("noisy_accuracy: empty validation set");
  const auto correct = std::llround(learn::accuracy(net, params, validation, threads) * rows);
  const auto noise = privacy::discrete_laplace(source, score_noise_scale(score_epsilon));
  return static_cast<double>(correct + noise) / rows;
}

}  // namespace dpareto::select
