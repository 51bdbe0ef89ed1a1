// SimProf's input-sensitivity test (see sensitivity.h).
#include "sampling/simprof/sensitivity.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace strobe::sampling::simprof {

PhaseMoments moments(std::span<const double> values) {
  PhaseMoments m;
  m.units = values.size();
  if (values.empty()) return m;
  for (const double v : values) m.mean += v;
  m.mean /= double(values.size());
  double ss = 0;
  for (const double v : values) ss += (v - m.mean) * (v - m.mean);
  m.sd = std::sqrt(ss / double(values.size()));
  return m;
}

Sensitivity phase_sensitivity(const PhaseMoments& train, const PhaseMoments& ref, double threshold) {
  Sensitivity s;
  if (ref.units == 0 || train.units == 0) return s;
  const double dmean = std::abs(train.mean - ref.mean);
  if (train.mean == 0 ? dmean > 0 : dmean / std::abs(train.mean) > threshold) {
    s.sensitive = true;
    s.reason = train.mean == 0 ? fmt::format("mean moved from 0 to {:.4g}", ref.mean)
                               : fmt::format("mean moved by {:.1f}%", 100 * dmean / std::abs(train.mean));
    return s;
  }
  const double dsd = std::abs(train.sd - ref.sd);
  // A spread below a billionth of the mean is the rounding of equal values: a constant phase.
  const bool constant = train.sd <= 1e-9 * std::abs(train.mean);
  const double base = constant ? std::abs(train.mean) : train.sd;
  if (base > 0 ? dsd / base > threshold : dsd > 0) {
    s.sensitive = true;
    s.reason = constant ? fmt::format("spread moved from 0 to {:.1f}% of the mean", 100 * dsd / base)
                        : fmt::format("spread moved by {:.1f}%", 100 * dsd / train.sd);
  }
  return s;
}

std::vector<int> nearest_centres(const Eigen::MatrixXd& units, const Eigen::MatrixXd& centres) {
  if (units.rows() > 0 && units.cols() != centres.cols())
    throw std::invalid_argument("simprof: units and phase centres have different features");
  std::vector<int> out(size_t(units.rows()), -1);
  for (Eigen::Index i = 0; i < units.rows(); ++i) {
    double best = std::numeric_limits<double>::infinity();
    for (Eigen::Index c = 0; c < centres.rows(); ++c) {
      const double d = (units.row(i) - centres.row(c)).squaredNorm();
      // The first centre stands until a nearer one: distances that overflow to infinity (a
      // training's centre at 1e300) must still give every unit a phase.
      if (out[size_t(i)] < 0 || d < best) best = d, out[size_t(i)] = int(c);
    }
  }
  return out;
}

std::vector<bool> sensitive_phases(std::span<const int> train_phase, std::span<const double> train_metric,
                                   const Eigen::MatrixXd& centres, std::span<const Eigen::MatrixXd> ref_signatures,
                                   std::span<const std::vector<double>> ref_metrics, double threshold) {
  if (train_phase.size() != train_metric.size() || ref_signatures.size() != ref_metrics.size())
    throw std::invalid_argument("simprof: one metric per unit and per input is needed");
  const size_t k = size_t(centres.rows());
  // Per phase, the training input's values.
  std::vector<std::vector<double>> train(k);
  for (size_t u = 0; u < train_phase.size(); ++u) train.at(size_t(train_phase[u])).push_back(train_metric[u]);
  std::vector<bool> sensitive(k, false);
  for (size_t r = 0; r < ref_signatures.size(); ++r) {
    const std::vector<int> phase = nearest_centres(ref_signatures[r], centres);
    if (phase.size() != ref_metrics[r].size()) throw std::invalid_argument("simprof: one metric per unit is needed");
    std::vector<std::vector<double>> ref(k);
    for (size_t u = 0; u < phase.size(); ++u) ref[size_t(phase[u])].push_back(ref_metrics[r][u]);
    for (size_t h = 0; h < k; ++h)
      if (!sensitive[h]) sensitive[h] = phase_sensitivity(moments(train[h]), moments(ref[h]), threshold).sensitive;
  }
  return sensitive;
}

}  // namespace strobe::sampling::simprof
