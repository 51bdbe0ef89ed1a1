// Stratified random sampling (Cochran, Sampling Techniques, ch. 5): Neyman allocation, the
// sample size for a relative error budget, simple random sampling within a stratum, and the
// stratified estimators of a mean and of a total with their standard errors and z-based
// confidence intervals. SimProf's statistics (METHODS.md §3.3, §3.8), kept generic so every
// method that samples units at random reuses them.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace strobe::sampling {

/// One stratum as the allocation sees it: its size and the standard deviation of the value of
/// interest among its units (known or estimated, e.g. from a proxy model).
struct StratumDesign {
  uint64_t size = 0;  ///< N_h: units in the stratum
  double sd = 0;      ///< S_h: standard deviation of the per-unit value (>= 0)
};

/// The two-sided standard normal quantile z with P(|Z| <= z) = confidence, for confidence in
/// (0, 1): 1.959964 at 0.95, 2.967738 at 0.997. Throws std::invalid_argument outside (0, 1).
double z_for_confidence(double confidence);

/// The two-sided Student t quantile with `df` degrees of freedom (non-integer allowed, as the
/// Satterthwaite approximation gives): 12.706 at 0.95 and df = 1, 4.303 at df = 2; the normal
/// quantile at infinite df. Throws std::invalid_argument for a confidence outside (0, 1) or a
/// non-positive df.
double t_for_confidence(double confidence, double df);

/// Neyman (optimal) allocation of about `n` units (Eq. 33: n_h proportional to N_h S_h), with the
/// adjustments a real sample needs, each a deviation from pure Neyman allocation:
///  - every stratum gets at least min(`min_per_stratum`, N_h) units, so its mean and (at two)
///    its spread can be estimated even when S_h = 0;
///  - no stratum gets more than N_h: a stratum whose share exceeds it is taken whole and the
///    rest is re-allocated among the others;
///  - shares are rounded up, so the total may exceed `n` by up to the number of strata.
/// When every S_h is 0 the shares are proportional to N_h. `n` above Σ N_h takes every unit.
std::vector<uint64_t> neyman_allocation(std::span<const StratumDesign> strata, uint64_t n,
                                        uint64_t min_per_stratum = 2);

/// The sample size whose Neyman-allocated stratified mean has relative half-width `rel_error`
/// at quantile `z` around a population mean `mean`, with the finite-population correction:
/// n = (Σ W_h S_h)² / ((e Ȳ / z)² + Σ W_h S_h² / N), W_h = N_h / N (Cochran 5.25). Real-valued
/// (round up before use); 0 when every S_h is 0. Throws std::invalid_argument for a
/// non-positive mean, error or z.
double neyman_sample_size(std::span<const StratumDesign> strata, double mean, double rel_error, double z);

/// The values measured on one stratum's sampled units.
struct StratumSample {
  uint64_t size = 0;           ///< N_h: units in the stratum
  std::vector<double> values;  ///< y_i of its n_h sampled units (n_h <= N_h)
  /// The ratio estimator's auxiliary variable, known for every unit (a unit's instruction
  /// count): x_i of the sampled units, in the order of `values`, and X_h, its stratum total.
  std::vector<double> aux;
  double aux_total = 0;
};

/// A stratified estimate of a population mean and total with its uncertainty.
struct StratifiedEstimate {
  double mean = 0;        ///< ȳ_st = Σ (N_h / N) ȳ_h
  double mean_se = 0;     ///< SE(ȳ_st) = sqrt(Σ N_h² (1 - n_h/N_h) s_h² / n_h) / N
  double total = 0;       ///< T̂ = Σ N_h ȳ_h (the expansion estimator: units of unequal size)
  double total_se = 0;    ///< SE(T̂) = N SE(ȳ_st)
  double z = 0;           ///< the quantile the interval uses
  /// Welch-Satterthwaite effective degrees of freedom of SE(T̂), (Σ a_h s_h²)² / Σ (a_h s_h²)² /
  /// (n_h - 1) with a_h = N_h² (1 - n_h/N_h) / n_h: the df of a Student t interval that allows
  /// for the variance itself being estimated from few units. Infinite when no stratum varies.
  double df = 0;
  double half_width = 0;  ///< z SE(T̂): the total lies in total ± half_width at the confidence of z
  double rel_error = 0;   ///< half_width / |total| (0 when the total is 0 and exact)
  uint64_t units = 0;     ///< N
  uint64_t sampled = 0;   ///< Σ n_h
};

/// The stratified estimators from `strata` at quantile `z`. A stratum sampled whole contributes
/// no variance; every other must have at least two sampled units (s_h needs them). Throws
/// std::invalid_argument for a stratum with no sample, more samples than units, or one
/// partially sampled unit.
StratifiedEstimate stratified_estimate(std::span<const StratumSample> strata, double z);

/// `e` with its interval at Student's t quantile for `confidence` and `e.df` degrees of freedom
/// instead of z: wider when the variance comes from few units (at n_h = 2, df can be near 1).
/// Unchanged when nothing varies (df infinite, half-width 0).
StratifiedEstimate with_t_interval(StratifiedEstimate e, double confidence);

/// The separate ratio estimator of the total (Cochran 6.9-6.10): per stratum R̂_h = Σ y / Σ x
/// over its sample, T̂_R = Σ X_h R̂_h, with the usual large-sample variance
/// Σ N_h² (1 - n_h/N_h) s_dh² / n_h on the residuals d_i = y_i - R̂_h x_i. Far tighter than the
/// expansion estimator when y is nearly proportional to x (cycles to instructions); biased by
/// O(1/n_h). Every stratum needs `aux` beside `values` and a positive Σ x over its sample;
/// throws std::invalid_argument otherwise and in the cases stratified_estimate() does.
StratifiedEstimate stratified_ratio_estimate(std::span<const StratumSample> strata, double z);

/// A part of a total estimated independently of a stratified sample (another input's sample of
/// the same phase, say): its total, the variance of that total, and the variance's degrees of
/// freedom (infinite when it is known exactly or from a large sample).
struct EstimatedPart {
  double total = 0;
  double variance = 0;
  double df = std::numeric_limits<double>::infinity();
};

/// `e` with `parts` added: totals and variances add (the samples are independent), the degrees
/// of freedom combine by Welch-Satterthwaite, and the interval is taken at quantile `z`.
/// `e.units` and `e.sampled` are left as they are: the parts' units are counted by their owner.
StratifiedEstimate with_parts(StratifiedEstimate e, std::span<const EstimatedPart> parts, double z);

/// `n` distinct indices drawn uniformly from [0, N) (simple random sampling without
/// replacement, Floyd's algorithm), sorted, from the splitmix64 stream `seed`: the same seed
/// always draws the same units. Throws std::invalid_argument when n > N.
std::vector<uint64_t> simple_random_sample(uint64_t population, uint64_t n, uint64_t seed);

}  // namespace strobe::sampling
