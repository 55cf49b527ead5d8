// Hypervolume timings (DESIGN §3.2): 2-D and 3-D on uniform random points and on sets where
// every point is on the front (the worst case for the 3-D staircase).
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <vector>

#include "load_average.hpp"

#include "dpareto/core/random.hpp"
#include "dpareto/pareto/cells.hpp"
#include "dpareto/pareto/hypervolume.hpp"

using namespace dpareto::pareto;

namespace {

// Runs f once and prints its wall and CPU time with the value it returned.
template <typename F>
void report(const char* what, F&& f) {
  const std::clock_t c0 = std::clock();
  const auto t0 = std::chrono::steady_clock::now();
  const double value = f();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = dpareto::bench::cpu_since(c0);
  std::printf("%-44s %.3f s wall, %.3f s CPU  (%.6f)\n", what, s, cpu, value);
}

}  // namespace

int main() {
  dpareto::bench::print_load();
  dpareto::Rng rng(42);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const std::size_t n = 1'000'000;

  std::vector<Point2> uniform2(n), front2(n);
  for (auto& p : uniform2) p = {u(rng), u(rng)};
  for (auto& p : front2) {
    const double t = u(rng);
    p = {t, 1 - t};
  }
  report("hypervolume_2d, 1e6 uniform points (hv):", [&] { return hypervolume_2d(uniform2, {1, 1}); });
  report("hypervolume_2d, 1e6 front points (hv):", [&] { return hypervolume_2d(front2, {1, 1}); });
  report("nondominated_cells, 1e6 front points (#):", [&] {
    return double(nondominated_cells(front2, {1, 1}).size());
  });

  std::vector<Point3> uniform3(n), front3(n);
  for (auto& p : uniform3) p = {u(rng), u(rng), u(rng)};
  for (auto& p : front3) {
    const double a = u(rng), b = u(rng) * (1 - a);
    p = {a, b, 1 - a - b};
  }
  report("hypervolume_3d, 1e6 uniform points (hv):", [&] { return hypervolume_3d(uniform3, {1, 1, 1}); });
  report("hypervolume_3d, 1e6 front points (hv):", [&] { return hypervolume_3d(front3, {1, 1, 1}); });
  return 0;
}
