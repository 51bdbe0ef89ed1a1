// Principal component analysis of standardised feature matrices.
// GCC 12 reports a false -Wmaybe-uninitialized inside Eigen 3.4's tridiagonalisation. The
// state that counts is the one where Eigen's headers are first read, so it comes before pca.h.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "sampling/numeric/pca.h"

#include <Eigen/Dense>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <cmath>

namespace strobe::sampling {

PcaResult pca(const Eigen::MatrixXd& X, double variance) {
  const Eigen::Index rows = X.rows(), cols = X.cols();
  PcaResult r;
  r.explained_ratio = Eigen::VectorXd::Zero(cols);
  Eigen::MatrixXd Z = Eigen::MatrixXd::Zero(rows, cols);
  for (Eigen::Index j = 0; j < cols && rows > 0; ++j) {
    // Exact comparison, not a tiny standard deviation: a constant column's mean can round
    // away from its value, and scaling that residue up would invent variance.
    if (X.col(j).maxCoeff() == X.col(j).minCoeff()) continue;
    const Eigen::VectorXd c = X.col(j).array() - X.col(j).mean();
    const double sd = std::sqrt(c.squaredNorm() / static_cast<double>(rows));
    Z.col(j) = c / sd;
  }
  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(cols, cols);
  if (rows > 0) cov = Z.transpose() * Z / static_cast<double>(rows);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(cov);
  // Eigen sorts ascending; rounding can leave null directions slightly negative.
  const Eigen::VectorXd values = es.eigenvalues().reverse().cwiseMax(0.0);
  const double total = values.sum();
  if (!(total > 0)) {
    r.projected = Eigen::MatrixXd::Zero(rows, 1);
    r.components = 1;
    return r;
  }
  r.explained_ratio = values / total;
  // A relative slack so variance = 1 is not missed by the last ulp and does not pull in null components.
  const double want = variance - 1e-12;
  double cum = 0;
  int m = 0;
  while (m < cols) {
    cum += r.explained_ratio[m++];
    if (cum >= want) break;
  }
  Eigen::MatrixXd V(cols, m);
  for (int k = 0; k < m; ++k) {
    Eigen::VectorXd v = es.eigenvectors().col(cols - 1 - k);
    Eigen::Index big = 0;
    v.cwiseAbs().maxCoeff(&big);
    if (v[big] < 0) v = -v;
    V.col(k) = v;
  }
  r.projected = Z * V;
  r.components = m;
  return r;
}

}  // namespace strobe::sampling
