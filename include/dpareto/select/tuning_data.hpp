#pragma once
// The data side of `dpareto tune`: row splits drawn from a RandomSource, configuration
// extrapolation between data sizes, private training runs and noisy validation scores.
//
// Every split assigns each row independently of the others (never a permutation cut at a fixed
// count), so adding, removing or replacing one row changes exactly one part and leaves the other
// rows' assignments alone: the sensitivity arguments of subsample-and-aggregate, DP-HYPE's
// per-client votes and the Poisson subsample X₁ of Koskela & Kulkarni hold as stated.
#include <cstddef>
#include <vector>

#include "dpareto/learn/dataset.hpp"
#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/learn/network.hpp"
#include "dpareto/privacy/secure_noise.hpp"

namespace dpareto::select {

struct RowSplit {
  std::vector<int> selected;  // rows drawn with probability p
  std::vector<int> rest;
};

// Each row of `rows` is selected independently with probability p (an exact Bernoulli on the
// dyadic value of p).
RowSplit bernoulli_rows(const std::vector<int>& rows, double p, privacy::RandomSource& source);

// Each row goes to one of `parts` parts, uniformly and independently.
std::vector<std::vector<int>> uniform_parts(const std::vector<int>& rows, std::size_t parts,
                                            privacy::RandomSource& source);

// Label-skewed parts (a common non-iid federated split): part j's "home" label is j mod C. A row
// with label y goes, with probability `skew`, to a uniformly drawn part whose home label is y
// (if there is one), otherwise to a uniformly drawn part.
std::vector<std::vector<int>> label_skewed_parts(const std::vector<int>& rows, const std::vector<int>& labels,
                                                 int num_classes, std::size_t parts, double skew,
                                                 privacy::RandomSource& source);

// Koskela & Kulkarni Sec. 3.2: a configuration found on n_from rows, moved to n_to rows, keeps
// the sampling ratio γ = m/n (lot size rounded, at least 1), the epochs (hence about the same
// number of steps), σ and the clipping norm; DP-SGD's learning rate scales by n_to/n_from, Adam's
// is unchanged.
learn::TrainConfig extrapolate(const learn::TrainConfig& config, int n_from, int n_to);

// A 256-bit ChaCha20 key for the training noise, drawn from `source`.
privacy::ChaChaRandomSource::Key draw_noise_key(privacy::RandomSource& source);

// One training run whose noise is ChaCha20 keyed from `source` and whose initialization and lots
// are seeded from it too.
learn::TrainResult train_keyed(const learn::Network& net, const learn::Dataset& data, learn::TrainConfig config,
                               privacy::RandomSource& source);

// The scale of the score noise: exactly 1/score_epsilon as a rational (the exact value of the
// double ε_s inverted, never a rounded 1.0/ε_s that could fall below it).
privacy::Rational score_noise_scale(double score_epsilon);

// The released score of a model: (correct predictions on `validation` + discrete Laplace noise of
// scale score_noise_scale(score_epsilon)) / rows — ε_s-DP, since one row changes the count by at
// most 1.
double noisy_accuracy(const learn::Network& net, const Eigen::VectorXf& params, const learn::Dataset& validation,
                      double score_epsilon, int threads, privacy::RandomSource& source);

}  // namespace dpareto::select
