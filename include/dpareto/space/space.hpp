#pragma once
// Hyperparameter spaces (DESIGN.md §3.1): continuous / integer parameters on a linear or log scale,
// the unit-cube mapping the GPs work in, and `k=v,...` parsing.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/core/random.hpp"
#include "dpareto/space/sampling_distribution.hpp"

namespace dpareto::space {

enum class Kind { continuous, integer };
enum class Scale { linear, log };

struct Parameter {
  std::string name;
  Kind kind = Kind::continuous;
  Scale scale = Scale::linear;
  double low = 0;
  double high = 1;
  // The random baseline's distribution (DPareto Appx. C); uniform on the scale when absent.
  std::optional<SamplingDistribution> prior;
};

// A point of the space: one value per parameter, in the space's order (integers hold whole numbers).
using Params = std::vector<double>;

class Space {
 public:
  Space() = default;
  // Validates names (unique, non-empty), bounds (finite, low < high, low > 0 on a log scale,
  // integer bounds whole) and throws InputError naming the parameter otherwise.
  explicit Space(std::vector<Parameter> parameters);

  std::size_t dimension() const { return parameters_.size(); }
  const std::vector<Parameter>& parameters() const { return parameters_; }
  const Parameter& parameter(std::size_t i) const { return parameters_.at(i); }
  // Index of a parameter by name; throws InputError listing the known names.
  std::size_t index_of(const std::string& name) const;

  // Unit-cube mapping: log-scale parameters through log, integers relaxed (rounded on the way back).
  std::vector<double> to_unit(const Params& params) const;
  Params from_unit(const std::vector<double>& unit) const;
  // Rounds integers and clamps to bounds.
  Params snap(const Params& params) const;
  bool contains(const Params& params) const;

  // Uniform on each parameter's scale (integers uniform on their values).
  Params sample_uniform(Rng& rng) const;
  // Each parameter's `prior` (DPareto Appx. C) where set, else uniform on its scale.
  Params sample_prior(Rng& rng) const;
  // Parameter i's values on a grid of g points per dimension: equally spaced on its scale, the
  // bounds exactly, integers rounded and de-duplicated, or every integer of the range when g covers
  // it (grid.hpp enumerates the grid lazily).
  // Throws InputError unless 1 <= g <= kMaxGridPoints.
  std::vector<double> grid_axis(std::size_t i, int points_per_dimension) const;
  static constexpr int kMaxGridPoints = 1000000;

  // "bound=5,noise=0.3": every parameter must be given exactly once. `source` names where the
  // text came from (e.g. "--params") for error messages. Values outside the bounds are returned
  // as given; use contains() to warn.
  Params parse(const std::string& text, const std::string& source) const;
  std::string format(const Params& params) const;  // "bound=5,noise=0.3"

  // A stable one-line description (names, kinds, scales, bounds) for storage and comparison.
  std::string signature() const;

 private:
  std::vector<Parameter> parameters_;
};

}  // namespace dpareto::space
