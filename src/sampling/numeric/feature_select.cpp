// Univariate feature selection (see feature_select.h).
#include "sampling/numeric/feature_select.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace strobe::sampling {

FeatureSelection select_k_best(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, size_t k) {
  if (x.rows() != y.size()) throw std::invalid_argument("feature selection: one target value per unit is needed");
  FeatureSelection out;
  const Eigen::Index n = x.rows();
  if (n == 0) return out;
  const Eigen::VectorXd yc = y.array() - y.mean();
  const double syy = yc.squaredNorm();
  out.target_constant = !(syy > 0);
  std::vector<size_t> candidates;
  std::vector<double> score(size_t(x.cols()), 0), r(size_t(x.cols()), 0);
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    const Eigen::VectorXd xc = x.col(c).array() - x.col(c).mean();
    const double sxx = xc.squaredNorm();
    if (!(sxx > 0)) {
      ++out.constant;
      continue;
    }
    candidates.push_back(size_t(c));
    if (out.target_constant) {
      score[size_t(c)] = sxx;  // variance order
    } else {
      r[size_t(c)] = xc.dot(yc) / std::sqrt(sxx * syy);
      score[size_t(c)] = std::abs(r[size_t(c)]);
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(), [&](size_t a, size_t b) { return score[a] > score[b]; });
  candidates.resize(std::min(k, candidates.size()));
  out.columns = candidates;
  for (const size_t c : candidates) out.r.push_back(r[c]);
  return out;
}

}  // namespace strobe::sampling
