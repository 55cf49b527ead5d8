#include "dpareto/space/grid.hpp"

namespace dpareto::space {

GridCursor::GridCursor(const Space& space, int points_per_dimension) : index_(space.dimension(), 0) {
  for (std::size_t i = 0; i < space.dimension(); ++i) axes_.push_back(space.grid_axis(i, points_per_dimension));
}

std::optional<Params> GridCursor::current() const {
  if (done_) return std::nullopt;
  Params p(axes_.size());
  for (std::size_t i = 0; i < axes_.size(); ++i) p[i] = axes_[i][index_[i]];
  return p;
}

void GridCursor::advance() {
  // Odometer over the axes, last parameter fastest; a 0-dimensional grid has one (empty) point.
  for (std::size_t d = axes_.size(); d > 0; --d) {
    if (++index_[d - 1] < axes_[d - 1].size()) return;
    index_[d - 1] = 0;
  }
  done_ = true;
}

std::vector<Params> full_grid(const Space& space, int points_per_dimension) {
  std::vector<Params> points;
  for (GridCursor cursor(space, points_per_dimension); auto p = cursor.current(); cursor.advance())
    points.push_back(std::move(*p));
  return points;
}

}  // namespace dpareto::space
