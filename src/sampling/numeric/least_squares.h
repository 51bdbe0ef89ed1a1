// Least-squares line fitting and Photon's per-unit-type stability detector.
#pragma once

#include <cstddef>
#include <vector>

namespace strobe::sampling {

/// Least-squares line y = slope*x + intercept (Photon, MICRO'23, eq. 1).
struct LineFit {
  double slope = 0, intercept = 0;
  bool ok = false;
};

/// Fits n points; ok=false when n < 2 or all x are equal. Computes with centred values (x - mean x) so large cycle counts (1e9) keep full precision.
LineFit fit_line(const double* x, const double* y, size_t n);

/// Photon's stability test for one unit type (a basic-block type or a warp type), fed (issue, retire) cycle pairs in retirement order. Keeps the last 2n pairs in a ring buffer allocated once in the constructor.
/// stable() is true when at least 2n pairs were seen, the least-squares slope of retire against issue over the last n pairs satisfies |1 - slope| < delta, and the mean duration (retire - issue) over the last n differs from the mean duration over the last 2n by less than delta relative to the latter.
class StabilityDetector {
 public:
  /// n below 2 is raised to 2, since a line needs two points.
  StabilityDetector(size_t n, double delta);
  /// Records one instance. O(1) amortised: the fit is recomputed lazily, at most once every max(1, n/64) additions (stable() returns the last evaluated verdict in between; the first call after reaching 2n pairs always evaluates).
  void add(double issue, double retire);
  /// The current verdict (see the class comment); false before 2n pairs.
  bool stable();
  /// Mean of (retire - issue) over the last min(k, count) pairs (k <= 2n); 0 when empty.
  double mean_duration(size_t k) const;
  /// Slope of the last fit evaluated (0 before any).
  double last_slope() const;
  size_t count() const;   ///< pairs seen in total
  size_t window() const;  ///< n

 private:
  /// Refits the last n pairs and recomputes the verdict; O(n), hence the stride.
  void evaluate();
  /// Ring index of the j-th most recent pair (j = 0 is the newest).
  size_t recent(size_t j) const;

  size_t n_;
  double delta_;
  size_t stride_;                // additions between re-evaluations
  std::vector<double> issue_, retire_;  // ring of 2n pairs
  std::vector<double> xs_, ys_;  // scratch for the contiguous last-n fit
  size_t count_ = 0;
  size_t since_eval_ = 0;
  bool evaluated_ = false;
  bool verdict_ = false;
  double slope_ = 0;
};

}  // namespace strobe::sampling
