// Cost of releasable noise: one DP-SGD epoch (lot 256, σ = 1, L = 1, float32) with the fast seeded
// noise (xoshiro128++, float Box–Muller) and with the secure noise (TrainConfig::noise_key:
// ChaCha20 keystream, double Box–Muller), and the raw throughput of both samplers. Prints wall and
// process CPU seconds (best of several runs) and the secure/fast ratio.
// Usage: bench_secure_noise [threads] [data_dir]
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "best_of_timing.hpp"
#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/learn/gaussian_noise.hpp"
#include "dpareto/learn/loaders.hpp"
#include "dpareto/learn/secure_gaussian_noise.hpp"

using namespace dpareto::learn;
using dpareto::bench::best_of;
using dpareto::bench::Timing;

namespace {

const NoiseKey kKey{0x243F6A88U, 0x85A308D3U, 0x13198A2EU, 0x03707344U,
                    0xA4093822U, 0x299F31D0U, 0x082EFA98U, 0xEC4E6C89U};

void row(const char* model, const Network& net, const Dataset& data, int threads, int runs) {
  TrainConfig cfg;
  cfg.epochs = 1;
  cfg.lot_size = 256;
  cfg.learning_rate = 0.01;
  cfg.threads = threads;
  cfg.noise_multiplier = 1.0;
  cfg.clip_norm = 1.0;
  auto epoch = [&](int r) { train(net, data, cfg, 1000 + static_cast<std::uint64_t>(r)); };
  const Timing fast = best_of(runs, epoch);
  cfg.noise_key = kKey;
  const Timing secure = best_of(runs, epoch);
  const double draws =
      static_cast<double>(net.num_parameters()) * static_cast<double>(training_steps(cfg, data.size()));
  std::printf(
      "%-11s P=%-7zu %6.1f M draws  fast %8.4f s (cpu %8.4f s)  secure %8.4f s (cpu %8.4f s)  %5.2fx wall %5.2fx cpu\n",
      model, net.num_parameters(), draws / 1e6, fast.wall, fast.cpu, secure.wall, secure.cpu, secure.wall / fast.wall,
      secure.cpu / fast.cpu);
}

void sampler_throughput() {
  std::vector<float> x(1 << 12, 0.0f);  // one noise block
  constexpr int blocks = 16384;         // 67 M draws
  const Timing fast = best_of(3, [&](int r) {
    for (int b = 0; b < blocks; ++b) add_gaussian(x.data(), x.size(), 1.0f, 77 + static_cast<std::uint64_t>(b + r));
  });
  const Timing secure = best_of(3, [&](int r) {
    for (int b = 0; b < blocks; ++b)
      add_gaussian_secure(x.data(), x.size(), 1.0, kKey, static_cast<std::uint64_t>(r), static_cast<std::uint32_t>(b));
  });
  const double n = static_cast<double>(x.size()) * blocks;
  std::printf("sampler, one thread: fast %.0f M draws/s (%.2f ns/draw), secure %.0f M draws/s (%.2f ns/draw), %.2fx\n",
              n / fast.cpu / 1e6, 1e9 * fast.cpu / n, n / secure.cpu / 1e6, 1e9 * secure.cpu / n,
              secure.cpu / fast.cpu);
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : static_cast<int>(std::thread::hardware_concurrency());
  const std::string dir = argc > 2 ? argv[2] : "";
  sampler_throughput();
  std::printf("one DP-SGD epoch, lot 256, sigma 1, L 1, float32, %d thread(s); best of several runs\n", threads);
  try {
    const auto root = resolve_data_dir(dir);
    const Split adult = load_adult(root);
    row("a9a-logreg", Network(logistic_regression(123)), adult.train, threads, 20);
    const Split mnist = load_mnist(root);
    row("mnist-mlp2", Network(mlp2()), mnist.train, threads, 5);
    row("mnist-mlp1", Network(mlp1()), mnist.train, threads, 3);
  } catch (const std::exception& e) {
    std::printf("skipped: %s\n", e.what());
  }
}
