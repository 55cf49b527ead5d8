// The cost of scoring every epoch (issue 18 item 2, observe=every-epoch): the test accuracy of a
// 64-epoch DP-SGD logistic regression on Adult after each epoch, one accuracy() pass over the
// 16 281 test rows per epoch (as evaluations scored them before 2026-12-07) against accuracies()
// with all 64 vectors in one product (EpochAccuracies), beside the training itself. Prints the best
// of several runs in milliseconds, one thread.
// Usage: bench_epoch_scoring [data_dir]
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "best_of_timing.hpp"
#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/learn/loaders.hpp"

using namespace dpareto::learn;
using dpareto::bench::best_of;

int main(int argc, char** argv) try {
  const Split adult = load_adult(resolve_data_dir(argc > 1 ? argv[1] : ""));
  const Network net(logistic_regression(adult.train.dimension()));
  TrainConfig cfg;
  cfg.epochs = 64;
  cfg.lot_size = 120;
  cfg.learning_rate = 0.05;
  cfg.noise_multiplier = 1.0;
  cfg.clip_norm = 2.0;
  cfg.threads = 1;
  std::vector<Eigen::VectorXf> after_epoch;
  const auto keep = [&](int, const Eigen::VectorXf& w) {
    after_epoch.push_back(w);
    return true;
  };
  const double train_s = best_of(3, [&](int) {
                           after_epoch.clear();
                           train(net, adult.train, cfg, 7, keep);
                         }).cpu;
  std::vector<double> one_by_one, together;
  const double apart_s = best_of(5, [&](int) {
                           one_by_one.clear();
                           for (const Eigen::VectorXf& w : after_epoch) one_by_one.push_back(accuracy(net, w, adult.test, 1));
                         }).cpu;
  const double together_s = best_of(5, [&](int) { together = accuracies(net, after_epoch, adult.test, 1); }).cpu;
  std::printf("training, %d epochs: %.1f ms CPU\n", cfg.epochs, 1e3 * train_s);
  std::printf("scoring its %zu intermediate vectors on %d test rows: one pass each %.2f ms, one product %.2f ms "
              "(%.1fx faster; %.1f%% and %.1f%% of the training), same scores: %s\n",
              after_epoch.size(), adult.test.size(), 1e3 * apart_s, 1e3 * together_s, apart_s / together_s,
              100 * apart_s / train_s, 100 * together_s / train_s, one_by_one == together ? "yes" : "NO");
  return one_by_one == together ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_epoch_scoring: %s\n", e.what());
  return 2;
}
