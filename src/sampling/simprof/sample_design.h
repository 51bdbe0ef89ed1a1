// SimProf's sample over its units (METHODS.md §3.3, §3.8): the strata, a random order within
// each so a sample can grow and stay a simple random sample, the Neyman-allocated size for an
// error budget from per-unit values (a proxy's for every unit, or the measured sample's), and
// the estimate of total cycles with its confidence interval. Pure arithmetic over unit indices:
// what runs the units is the method's (simprof.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sampling/numeric/stratified.h"

namespace strobe::sampling::simprof {

/// How a total is estimated from a stratified sample of units of unequal size.
enum class Estimator : uint8_t {
  /// T̂ = Σ N_h ȳ_h on per-unit cycles (METHODS.md §3.8).
  Expansion,
  /// T̂ = Σ X_h R̂_h with R̂_h = Σ cycles / Σ instructions over h's sample (Cochran's separate
  /// ratio estimator): per-stratum cycles per instruction scaled by the stratum's instructions.
  Ratio,
};

/// The units as strata: each unit's stratum and size (its wave instructions, the ratio
/// estimator's auxiliary variable).
struct Population {
  std::vector<int> stratum;   ///< per unit, in [0, strata)
  std::vector<double> size;   ///< per unit, x_i
  int strata = 1;

  /// Units of stratum `h`, in unit order.
  std::vector<size_t> members(int h) const;
};

/// The units drawn so far per stratum. Each stratum's units are put in a random order once (from
/// the seed); a sample of n_h is the first n_h of that order, so growing it keeps it a simple
/// random sample of the stratum, and the same seed draws the same units.
class StratifiedDraw {
 public:
  StratifiedDraw(const Population& pop, uint64_t seed);
  /// Grows stratum `h`'s sample to min(n, N_h) units; returns the units added.
  std::vector<size_t> grow(int h, uint64_t n);
  /// The units sampled in stratum `h`, in draw order.
  std::span<const size_t> sampled(int h) const { return {order_[size_t(h)].data(), taken_[size_t(h)]}; }
  /// N_h.
  uint64_t size(int h) const { return order_[size_t(h)].size(); }
  /// n_h per stratum.
  std::vector<uint64_t> counts() const { return taken_; }
  /// Σ n_h.
  uint64_t total() const;

 private:
  std::vector<std::vector<size_t>> order_;
  std::vector<uint64_t> taken_;
};

/// Per stratum, the size and the spread of the per-unit value the estimator's variance depends
/// on, from `value` (one per unit; only the units in `units[h]` are read): the standard
/// deviation of y (Expansion) or of the residual y - R_h x with R_h = Σ y / Σ x (Ratio),
/// with the n - 1 divisor. A stratum with fewer than two units read has spread 0.
std::vector<StratumDesign> stratum_spreads(const Population& pop, const std::vector<std::vector<size_t>>& units,
                                           std::span<const double> value, Estimator e);

/// The per-stratum sample sizes that meet relative half-width `rel_error` at quantile `z`
/// around a mean of `mean` per unit, Neyman-allocated (neyman_sample_size, neyman_allocation
/// with at least `min_per_stratum`), never below `current`.
std::vector<uint64_t> budget_allocation(std::span<const StratumDesign> strata, double mean, double rel_error, double z,
                                        std::span<const uint64_t> current, uint64_t min_per_stratum);

/// Raises `want` (per stratum) so that every stratum has at least `fraction` of its
/// proportional share N_h / N of Σ want (rounded up), capped at N_h: a compromise between
/// Neyman allocation and proportional allocation, which guards against a spread estimated from
/// a few units that missed a stratum's rare large values. `fraction` 0 leaves `want` as it is.
void proportional_floor(std::vector<uint64_t>& want, const Population& pop, double fraction);

/// The estimate of the total of y over the population from the units `units[h]` of each
/// stratum whose y is `value[unit]`, by `e`, at quantile `z`. Strata with `skip[h]` set (when
/// `skip` is given) are left out: their total is estimated elsewhere.
StratifiedEstimate estimate_total(const Population& pop, const std::vector<std::vector<size_t>>& units,
                                  std::span<const double> value, Estimator e, double z,
                                  std::span<const uint8_t> skip = {});

/// A uniformly random permutation of 0..n-1 (Fisher-Yates on the splitmix64 stream `seed`):
/// every prefix is a simple random sample.
std::vector<size_t> random_order(size_t n, uint64_t seed);

}  // namespace strobe::sampling::simprof
