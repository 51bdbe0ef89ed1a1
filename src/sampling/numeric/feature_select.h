// Univariate feature selection (SimProf's "univariate linear regression test", METHODS.md §3.2):
// keep the features most correlated with a per-unit performance metric. What scikit-learn's
// SelectKBest(f_regression) does: rank by F = r² / (1 - r²) (n - 2), the same order as |r|.
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

namespace strobe::sampling {

/// Which columns were kept and why.
struct FeatureSelection {
  std::vector<size_t> columns;  ///< kept column indices, most correlated first (ties: lower index)
  std::vector<double> r;        ///< Pearson r of each kept column with the target, same order
  size_t constant = 0;          ///< columns dropped for having no variance
  bool target_constant = false; ///< the target did not vary: columns kept by variance instead
};

/// The `k` columns of `x` (rows: units) most correlated with `y` (one value per unit), after
/// dropping zero-variance columns; fewer when fewer remain. When `y` does not vary no column
/// correlates with it, and the `k` columns of highest variance are kept (target_constant).
/// Throws std::invalid_argument when `y` and `x` disagree on the number of units.
FeatureSelection select_k_best(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, size_t k);

}  // namespace strobe::sampling
