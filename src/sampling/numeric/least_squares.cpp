// Least-squares line fitting and Photon's per-unit-type stability detector.
#include "sampling/numeric/least_squares.h"

#include <algorithm>
#include <cmath>

namespace strobe::sampling {

LineFit fit_line(const double* x, const double* y, size_t n) {
  LineFit f;
  if (n < 2) return f;
  // Shifting by the first point before averaging keeps the mean itself exact enough
  // that the centred residuals of values near 1e9 are not swamped by rounding.
  const double x0 = x[0], y0 = y[0];
  double sx = 0, sy = 0;
  bool varied = false;
  for (size_t i = 0; i < n; ++i) {
    sx += x[i] - x0;
    sy += y[i] - y0;
    varied |= x[i] != x0;
  }
  if (!varied) return f;
  const double mx = sx / static_cast<double>(n), my = sy / static_cast<double>(n);
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    const double dx = (x[i] - x0) - mx;
    sxx += dx * dx;
    sxy += dx * ((y[i] - y0) - my);
  }
  if (sxx <= 0) return f;
  f.slope = sxy / sxx;
  f.intercept = (y0 + my) - f.slope * (x0 + mx);
  f.ok = true;
  return f;
}

StabilityDetector::StabilityDetector(size_t n, double delta)
    : n_(std::max<size_t>(n, 2)),
      delta_(delta),
      stride_(std::max<size_t>(1, n_ / 64)),
      issue_(2 * n_),
      retire_(2 * n_),
      xs_(n_),
      ys_(n_) {}

size_t StabilityDetector::recent(size_t j) const {
  const size_t cap = 2 * n_;
  return (count_ - 1 - j) % cap;
}

void StabilityDetector::add(double issue, double retire) {
  const size_t slot = count_ % (2 * n_);
  issue_[slot] = issue;
  retire_[slot] = retire;
  ++count_;
  ++since_eval_;
}

bool StabilityDetector::stable() {
  if (count_ < 2 * n_) return false;
  if (!evaluated_ || since_eval_ >= stride_) evaluate();
  return verdict_;
}

void StabilityDetector::evaluate() {
  evaluated_ = true;
  since_eval_ = 0;
  // Oldest first, so the scratch arrays hold the last n pairs in retirement order.
  for (size_t j = 0; j < n_; ++j) {
    const size_t r = recent(n_ - 1 - j);
    xs_[j] = issue_[r];
    ys_[j] = retire_[r];
  }
  const LineFit f = fit_line(xs_.data(), ys_.data(), n_);
  slope_ = f.slope;
  const double m1 = mean_duration(n_), m2 = mean_duration(2 * n_);
  const double diff = std::abs(m1 - m2);
  // An exact match counts as stable so zero-duration unit types are not rejected forever.
  const bool means_agree = diff == 0 || diff < delta_ * std::abs(m2);
  verdict_ = f.ok && std::abs(1 - f.slope) < delta_ && means_agree;
}

double StabilityDetector::mean_duration(size_t k) const {
  k = std::min({k, count_, 2 * n_});
  if (k == 0) return 0;
  double sum = 0;
  for (size_t j = 0; j < k; ++j) {
    const size_t r = recent(j);
    sum += retire_[r] - issue_[r];
  }
  return sum / static_cast<double>(k);
}

double StabilityDetector::last_slope() const { return slope_; }
size_t StabilityDetector::count() const { return count_; }
size_t StabilityDetector::window() const { return n_; }

}  // namespace strobe::sampling
