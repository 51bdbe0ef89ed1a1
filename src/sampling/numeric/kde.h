// One-dimensional Gaussian kernel density estimation and the local minima 1-D density-based
// stratification cuts at (Sieve's tier 3).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace strobe::sampling {

/// The Gaussian kernel density of `points` with bandwidth `h` (> 0), evaluated at each of `at`:
/// Σ_j φ((x − p_j)/h) / (n·h). Each value sums the points in their given order, so equal
/// queries give bit-identical densities.
std::vector<double> gaussian_kde(std::span<const double> points, double h, std::span<const double> at);

/// Scott's rule bandwidth, σ·n^(−1/5) with the sample standard deviation (n − 1), as
/// scipy.stats.gaussian_kde uses by default; 0 for fewer than two points or no spread.
double scott_bandwidth(std::span<const double> points);

/// The indices i at which values[i] is no greater than either neighbour, an end compared with
/// itself beyond the edge: what scipy.signal.argrelextrema(values, numpy.less_equal) returns
/// (order 1, clip mode). Every element of a flat run qualifies.
std::vector<size_t> minima_at_points(std::span<const double> values);

/// The valleys of the density of `points` at bandwidth `h`, on a grid of `grid` evenly spaced
/// values from their minimum to their maximum: where the density stops falling and starts to
/// rise (the middle of a flat bottom), in increasing order. None when h is 0 or every point is
/// the same.
std::vector<double> density_valleys(std::span<const double> points, double h, size_t grid = 512);

/// The coefficient of variation of `values`, with the population standard deviation: 0 for
/// fewer than two values or a zero mean.
double coefficient_of_variation(std::span<const double> values);

}  // namespace strobe::sampling
