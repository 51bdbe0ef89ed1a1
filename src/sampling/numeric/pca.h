// Principal component analysis of standardised feature matrices.
#pragma once

#include <Eigen/Core>

namespace strobe::sampling {

/// Principal components of standardised features.
struct PcaResult {
  Eigen::MatrixXd projected;        ///< rows x components
  int components = 0;
  Eigen::VectorXd explained_ratio;  ///< variance share of every component (cols entries, descending; zeros when there is no variance)
};

/// Standardises each column to zero mean and unit variance (a constant column becomes all zeros and carries no variance), then projects onto the fewest principal components (Eigen::SelfAdjointEigenSolver on the covariance matrix, in descending eigenvalue order) whose cumulative explained variance reaches `variance` (in (0,1]); at least 1 component. Eigenvector signs are normalised (largest-magnitude entry positive) so results are deterministic. Zero total variance: projected is rows x 1 of zeros.
PcaResult pca(const Eigen::MatrixXd& X, double variance);

}  // namespace strobe::sampling
