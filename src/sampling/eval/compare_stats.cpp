// Aggregates over compared runs (see compare_stats.h for what each one means).
#include "sampling/eval/compare_stats.h"

#include <algorithm>
#include <cmath>

namespace strobe::sampling {

double error_pct(uint64_t estimate, uint64_t full) {
  return full ? 100.0 * std::abs(double(estimate) - double(full)) / double(full) : (estimate ? 100.0 : 0.0);
}

double ipc_error_pct(uint64_t estimate, uint64_t full) {
  if (estimate == 0) return full ? 100.0 : 0.0;
  return 100.0 * std::abs(double(full) / double(estimate) - 1.0);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Spread spread_of(const std::vector<double>& v) {
  if (v.empty()) return {};
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {median(v), *lo, *hi};
}

bool is_fallback(const std::vector<std::string>& levels) {
  return !levels.empty() && std::all_of(levels.begin(), levels.end(), [](const auto& l) { return l == "detailed"; });
}

Aggregate aggregate(const std::vector<RunScore>& scores) {
  Aggregate a;
  for (const auto& s : scores) (s.failure.empty() ? a.runs : a.failed_runs) += 1;
  if (a.runs == 0) return a;
  double full_s = 0, sampled_s = 0, log_speedup = 0, err_sum = 0, sampled_err_sum = 0;
  uint64_t full_c = 0, est_c = 0, detailed = 0, timed = 0;
  double log_ipc_err = 0;
  for (const auto& s : scores) {
    if (!s.failure.empty()) continue;
    log_ipc_err += std::log(std::max(ipc_error_pct(s.estimated_cycles, s.full_cycles), kGeomeanErrorFloorPct));
    detailed += s.detailed_insts;
    timed += s.timed_insts;
    const double e = error_pct(s.estimated_cycles, s.full_cycles);
    full_s += s.full_seconds;
    sampled_s += s.sampled_seconds;
    // A zero speedup (an unmeasurably short run) would send the geometric mean to zero or NaN.
    log_speedup += std::log(std::max(s.speedup, 1e-12));
    err_sum += e;
    a.max_abs_error_pct = std::max(a.max_abs_error_pct, e);
    full_c += s.full_cycles;
    est_c += s.estimated_cycles;
    if (s.fallback) {
      ++a.fallback_runs;
    } else {
      ++a.sampled_runs;
      sampled_err_sum += e;
    }
  }
  const double n = double(a.runs);
  a.total_speedup = sampled_s > 0 ? full_s / sampled_s : 0;
  a.geomean_speedup = std::exp(log_speedup / n);
  a.mean_abs_error_pct = err_sum / n;
  a.summed_cycles_error_pct = error_pct(est_c, full_c);
  a.mean_abs_error_pct_sampled = a.sampled_runs ? sampled_err_sum / double(a.sampled_runs) : 0;
  a.geomean_ipc_error_pct = std::exp(log_ipc_err / n);
  a.sample_size = timed ? double(detailed) / double(timed) : 0;
  return a;
}

}  // namespace strobe::sampling
