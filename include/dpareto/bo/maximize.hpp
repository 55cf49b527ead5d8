#pragma once
// Maximizing a function on a space's unit cube (limbo's inner optimizer, in one place): a dense
// random stage — an acquisition like HVPoI is zero wherever the predictive mean is dominated, so
// local search alone stalls — then NLopt local refinement (BOBYQA; COBYLA in one dimension) from
// the best points. The explorer maximizes its acquisition with it; `pick --from model` its
// penalized objective.
#include <Eigen/Dense>
#include <cstddef>
#include <optional>
#include <vector>

#include "dpareto/core/random.hpp"
#include "dpareto/space/space.hpp"

namespace dpareto::bo {

// A function of unit-cube points to maximize.
class UnitFunction {
 public:
  virtual ~UnitFunction() = default;
  virtual double value(const std::vector<double>& x) = 0;
  // The dense stage: values at the rows of X, where a batch can share work; default: value() by row.
  virtual std::vector<double> values(const Eigen::MatrixXd& X);
  // Called before each local refinement with its start (a function may track what it visits).
  virtual void begin_local(const std::vector<double>& /*start*/) {}
  // Whether value() may run on several threads at once: then the local refinements run side by
  // side (each as it would alone: the same optima), after every begin_local.
  virtual bool concurrent() const { return false; }
};

struct MaximizeOptions {
  int dense_candidates = 1000;                     // uniform random points of the dense stage
  std::vector<std::vector<double>> also_screened;  // points screened with them (after them)
  bool snap = false;                       // keep each screened point as its setting's unit point (integers rounded)
  int local_starts = 5;                    // local refinements, from the best screened points
  double start_separation = 0;             // starts at least this far apart (max norm); 0: the best ones
  std::optional<double> skip_at_or_below;  // a start valued at or below this is not refined
  int local_evaluations = 60;              // function values per refinement
  double xtol_rel = 1e-4;
  double initial_step = 0;  // NLopt's initial step; 0: its default
};

struct UnitPoint {
  std::vector<double> x;
  double value = 0;
  std::size_t index = 0;  // screened: row of the dense stage (random points, then also_screened)
};

struct Maximization {
  std::vector<UnitPoint> screened;  // the dense stage, best first
  struct Refinement {
    std::size_t start;                 // index into `screened`
    std::optional<UnitPoint> optimum;  // where NLopt ended (absent: not refined)
  };
  std::vector<Refinement> refinements;
  // Every screened point, each start followed by its optimum when that is better, best first
  // (stable: ties keep this order).
  std::vector<UnitPoint> ranked() const;
};

// max_i |a_i − b_i|: how far apart two unit points are.
double max_norm_distance(const std::vector<double>& a, const std::vector<double>& b);

Maximization maximize(UnitFunction& function, const space::Space& space, Rng& rng, const MaximizeOptions& options);

}  // namespace dpareto::bo
