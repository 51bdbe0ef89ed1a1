// Stratified random sampling (see stratified.h).
#include "sampling/numeric/stratified.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <unordered_set>

#include <boost/math/distributions/students_t.hpp>

#include "sampling/numeric/mix.h"

namespace strobe::sampling {

namespace {

/// Acklam's rational approximation of the standard normal quantile (relative error < 1.2e-9),
/// refined by one Halley step on erfc, which brings it to double precision.
double normal_quantile(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01,  -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  double x;
  if (p < 0.02425) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - 0.02425) {
    const double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
  const double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

/// The variance of a stratified total, Σ N_h² (1 - n_h/N_h) s_h² / n_h, with what the
/// Welch-Satterthwaite degrees of freedom need beside it.
struct VarianceSum {
  double total = 0;
  double df_denominator = 0;  ///< Σ term_h² / (n_h - 1)
  /// Adds one partially sampled stratum: N_h units, n_h >= 2 sampled, sample variance s2.
  void add(uint64_t size, uint64_t n, double s2) {
    const double N = double(size);
    const double term = N * N * (1 - double(n) / N) * s2 / double(n);
    total += term;
    df_denominator += term * term / double(n - 1);
  }
  /// (Σ term)² / Σ term² / (n_h - 1); infinite when nothing varies.
  double df() const {
    return df_denominator > 0 ? total * total / df_denominator : std::numeric_limits<double>::infinity();
  }
};

/// `e`'s interval at quantile `q`.
void set_interval(StratifiedEstimate& e, double q) {
  e.z = q;
  e.half_width = q * e.total_se;
  e.rel_error = e.total != 0 ? e.half_width / std::abs(e.total) : (e.half_width > 0 ? INFINITY : 0);
}

/// Fills `e`'s standard errors, df and interval from its totals and `var`.
void finish(StratifiedEstimate& e, const VarianceSum& var, double z) {
  e.total_se = std::sqrt(var.total);
  e.df = var.df();
  if (e.units > 0) {
    e.mean = e.total / double(e.units);
    e.mean_se = e.total_se / double(e.units);
  }
  set_interval(e, z);
}

}  // namespace

double t_for_confidence(double confidence, double df) {
  if (!(confidence > 0 && confidence < 1))
    throw std::invalid_argument("stratified: a confidence level must lie strictly between 0 and 1");
  if (!(df > 0)) throw std::invalid_argument("stratified: Student's t needs positive degrees of freedom");
  if (std::isinf(df)) return z_for_confidence(confidence);
  return boost::math::quantile(boost::math::students_t_distribution<double>(df), 0.5 + confidence / 2);
}

double z_for_confidence(double confidence) {
  if (!(confidence > 0 && confidence < 1))
    throw std::invalid_argument("stratified: a confidence level must lie strictly between 0 and 1");
  return normal_quantile(0.5 + confidence / 2);
}

std::vector<uint64_t> neyman_allocation(std::span<const StratumDesign> strata, uint64_t n, uint64_t min_per_stratum) {
  const size_t k = strata.size();
  std::vector<uint64_t> alloc(k, 0);
  std::vector<bool> fixed(k, false);
  uint64_t population = 0;
  for (const StratumDesign& s : strata) population += s.size;
  if (n >= population) {
    for (size_t h = 0; h < k; ++h) alloc[h] = strata[h].size;
    return alloc;
  }
  bool any_sd = false;
  for (const StratumDesign& s : strata) any_sd |= s.size > 0 && s.sd > 0;
  // The weight of a stratum in the allocation: N_h S_h, or N_h when no stratum varies.
  auto weight = [&](size_t h) { return any_sd ? double(strata[h].size) * strata[h].sd : double(strata[h].size); };
  // Strata whose share exceeds their size are taken whole; the others share what is left.
  // Each pass fixes at least one stratum or ends, so k passes suffice.
  uint64_t left = n;
  for (size_t pass = 0; pass <= k; ++pass) {
    double total = 0;
    for (size_t h = 0; h < k; ++h)
      if (!fixed[h]) total += weight(h);
    bool changed = false;
    for (size_t h = 0; h < k; ++h) {
      if (fixed[h]) continue;
      const double share = total > 0 ? double(left) * weight(h) / total : 0;
      if (share >= double(strata[h].size)) {
        alloc[h] = strata[h].size;
        fixed[h] = true;
        left -= std::min(left, alloc[h]);
        changed = true;
      }
    }
    if (!changed) {
      for (size_t h = 0; h < k; ++h)
        if (!fixed[h]) alloc[h] = total > 0 ? uint64_t(std::ceil(double(left) * weight(h) / total - 1e-9)) : 0;
      break;
    }
  }
  for (size_t h = 0; h < k; ++h) alloc[h] = std::min(strata[h].size, std::max(alloc[h], min_per_stratum));
  return alloc;
}

double neyman_sample_size(std::span<const StratumDesign> strata, double mean, double rel_error, double z) {
  if (!(mean > 0) || !(rel_error > 0) || !(z > 0))
    throw std::invalid_argument("stratified: the sample size needs a positive mean, error and quantile");
  double population = 0;
  for (const StratumDesign& s : strata) population += double(s.size);
  if (population == 0) return 0;
  double ws = 0, ws2 = 0;
  for (const StratumDesign& s : strata) {
    const double w = double(s.size) / population;
    ws += w * s.sd;
    ws2 += w * s.sd * s.sd;
  }
  if (ws == 0) return 0;
  const double v = std::pow(rel_error * mean / z, 2);
  return ws * ws / (v + ws2 / population);
}

namespace {

/// The sampled units of a non-empty stratum, checked: at least one, at most its size.
uint64_t checked_sample_size(const StratumSample& s) {
  const uint64_t n = s.values.size();
  if (n == 0) throw std::invalid_argument("stratified: a stratum has no sampled unit");
  if (n > s.size) throw std::invalid_argument("stratified: a stratum has more samples than units");
  return n;
}

}  // namespace

StratifiedEstimate stratified_estimate(std::span<const StratumSample> strata, double z) {
  StratifiedEstimate e;
  VarianceSum var;
  for (const StratumSample& s : strata) {
    if (s.size == 0) continue;
    const uint64_t n = checked_sample_size(s);
    const double mean = std::accumulate(s.values.begin(), s.values.end(), 0.0) / double(n);
    e.total += double(s.size) * mean;
    e.units += s.size;
    e.sampled += n;
    if (n == s.size) continue;  // taken whole: known exactly
    if (n < 2) throw std::invalid_argument("stratified: a partially sampled stratum needs at least two units");
    double ss = 0;
    for (const double y : s.values) ss += (y - mean) * (y - mean);
    var.add(s.size, n, ss / double(n - 1));
  }
  finish(e, var, z);
  return e;
}

StratifiedEstimate stratified_ratio_estimate(std::span<const StratumSample> strata, double z) {
  StratifiedEstimate e;
  VarianceSum var;
  for (const StratumSample& s : strata) {
    if (s.size == 0) continue;
    const uint64_t n = checked_sample_size(s);
    if (s.aux.size() != n) throw std::invalid_argument("stratified: the ratio estimator needs x for every sampled unit");
    const double sy = std::accumulate(s.values.begin(), s.values.end(), 0.0);
    const double sx = std::accumulate(s.aux.begin(), s.aux.end(), 0.0);
    if (!(sx > 0)) throw std::invalid_argument("stratified: a stratum's sampled units have no x");
    const double r = sy / sx;
    e.units += s.size;
    e.sampled += n;
    if (n == s.size) {  // taken whole: known exactly
      e.total += sy;
      continue;
    }
    e.total += r * s.aux_total;
    if (n < 2) throw std::invalid_argument("stratified: a partially sampled stratum needs at least two units");
    double ss = 0;
    for (size_t i = 0; i < n; ++i) ss += std::pow(s.values[i] - r * s.aux[i], 2);
    var.add(s.size, n, ss / double(n - 1));
  }
  finish(e, var, z);
  return e;
}

StratifiedEstimate with_t_interval(StratifiedEstimate e, double confidence) {
  if (e.total_se > 0) set_interval(e, t_for_confidence(confidence, e.df));
  return e;
}

StratifiedEstimate with_parts(StratifiedEstimate e, std::span<const EstimatedPart> parts, double z) {
  // Satterthwaite over components: (Σ v)² / Σ v² / df, e's variance one of them.
  double var = e.total_se * e.total_se;
  double den = var > 0 && std::isfinite(e.df) ? var * var / e.df : 0;
  for (const EstimatedPart& p : parts) {
    e.total += p.total;
    var += p.variance;
    if (p.variance > 0 && std::isfinite(p.df)) den += p.variance * p.variance / p.df;
  }
  e.total_se = std::sqrt(var);
  e.df = den > 0 ? var * var / den : std::numeric_limits<double>::infinity();
  if (e.units > 0) {
    e.mean = e.total / double(e.units);
    e.mean_se = e.total_se / double(e.units);
  }
  set_interval(e, z);
  return e;
}

std::vector<uint64_t> simple_random_sample(uint64_t population, uint64_t n, uint64_t seed) {
  if (n > population) throw std::invalid_argument("stratified: cannot draw more units than the population holds");
  // Floyd's algorithm: n draws, each distinct, every n-subset equally likely.
  std::unordered_set<uint64_t> chosen;
  std::vector<uint64_t> out;
  out.reserve(n);
  uint64_t state = seed;
  for (uint64_t j = population - n; j < population; ++j) {
    const uint64_t t = splitmix64(state) % (j + 1);  // modulo bias < 2^-40 for populations < 2^24
    const uint64_t pick = chosen.insert(t).second ? t : j;
    if (pick == j) chosen.insert(j);
    out.push_back(pick);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace strobe::sampling
