#pragma once
// Unit-cube points between the std::vector<double> the acquisitions take and Eigen's vectors and
// matrix rows the GPs take (private to bo).
#include <Eigen/Dense>
#include <vector>

namespace dpareto::bo {

inline Eigen::VectorXd to_vector(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

// Row `row` of X as a point.
inline std::vector<double> row_of(const Eigen::MatrixXd& X, Eigen::Index row) {
  std::vector<double> v(static_cast<std::size_t>(X.cols()));
  for (Eigen::Index c = 0; c < X.cols(); ++c) v[static_cast<std::size_t>(c)] = X(row, c);
  return v;
}

}  // namespace dpareto::bo
