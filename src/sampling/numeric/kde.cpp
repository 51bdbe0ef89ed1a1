// Gaussian kernel density estimation and its minima.
#include "sampling/numeric/kde.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <numbers>

namespace strobe::sampling {

namespace {

/// The mean of `values` and their sum of squared deviations from it.
std::pair<double, double> mean_and_ss(std::span<const double> values) {
  double mean = 0;
  for (double v : values) mean += v;
  mean /= double(values.size());
  double ss = 0;
  for (double v : values) ss += (v - mean) * (v - mean);
  return {mean, ss};
}

}  // namespace

std::vector<double> gaussian_kde(std::span<const double> points, double h, std::span<const double> at) {
  std::vector<double> d(at.size(), 0.0);
  if (points.empty() || !(h > 0)) return d;
  const double norm = 1.0 / (double(points.size()) * h * std::sqrt(2.0 * std::numbers::pi));
  for (size_t i = 0; i < at.size(); ++i) {
    double s = 0;
    for (double p : points) {
      const double u = (at[i] - p) / h;
      s += std::exp(-0.5 * u * u);
    }
    d[i] = s * norm;
  }
  return d;
}

double scott_bandwidth(std::span<const double> points) {
  const size_t n = points.size();
  if (n < 2) return 0;
  const double sd = std::sqrt(mean_and_ss(points).second / double(n - 1));
  return sd * std::pow(double(n), -0.2);
}

std::vector<size_t> minima_at_points(std::span<const double> values) {
  std::vector<size_t> out;
  const size_t n = values.size();
  for (size_t i = 0; i < n; ++i) {
    const double left = values[i == 0 ? 0 : i - 1];
    const double right = values[i + 1 == n ? i : i + 1];
    if (values[i] <= left && values[i] <= right) out.push_back(i);
  }
  return out;
}

std::vector<double> density_valleys(std::span<const double> points, double h, size_t grid) {
  std::vector<double> out;
  if (points.empty() || !(h > 0) || grid < 3) return out;
  const auto [lo, hi] = std::minmax_element(points.begin(), points.end());
  if (*lo == *hi) return out;
  std::vector<double> xs(grid);
  for (size_t i = 0; i < grid; ++i) xs[i] = *lo + (*hi - *lo) * double(i) / double(grid - 1);
  const std::vector<double> d = gaussian_kde(points, h, xs);
  // Runs of equal density (a flat bottom where the kernels underflow between far-apart modes)
  // count as one point; a run lower than the runs on both sides is a valley.
  struct Run {
    size_t first, last;
    double value;
  };
  std::vector<Run> runs;
  for (size_t i = 0; i < grid; ++i) {
    if (!runs.empty() && d[i] == runs.back().value) runs.back().last = i;
    else runs.push_back({i, i, d[i]});
  }
  for (size_t r = 1; r + 1 < runs.size(); ++r)
    if (runs[r].value < runs[r - 1].value && runs[r].value < runs[r + 1].value)
      out.push_back(0.5 * (xs[runs[r].first] + xs[runs[r].last]));
  return out;
}

double coefficient_of_variation(std::span<const double> values) {
  const size_t n = values.size();
  if (n < 2) return 0;
  const auto [mean, ss] = mean_and_ss(values);
  if (mean == 0) return 0;
  return std::sqrt(ss / double(n)) / mean;
}

}  // namespace strobe::sampling
