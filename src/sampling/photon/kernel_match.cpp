// Photon's kernel matching.
#include "sampling/photon/kernel_match.h"

#include <algorithm>
#include <cmath>

#include "sampling/photon/online_analysis.h"

namespace strobe::sampling {

std::optional<KernelMatch> match_kernel(const std::vector<KernelRecord>& history, const std::vector<double>& gpu_bbv,
                                        uint64_t warps, double insts_per_sampled_warp, uint32_t num_cus,
                                        double threshold, uint32_t dims, double max_ratio) {
  const auto ratio = [](double a, double b) { return a > b ? a / std::max(b, 1e-300) : b / std::max(a, 1e-300); };
  std::optional<KernelMatch> best;
  uint64_t best_gap = UINT64_MAX;
  const bool small = warps < uint64_t(num_cus);
  for (size_t i = 0; i < history.size(); ++i) {
    const KernelRecord& h = history[i];
    if (h.ipc <= 0 || h.superseded) continue;
    if (small && h.warps != warps) continue;
    if (ratio(double(h.warps), double(warps)) > max_ratio ||
        ratio(h.insts_per_sampled_warp, insts_per_sampled_warp) > max_ratio)
      continue;
    const double dist = gpu_bbv_distance(gpu_bbv, h.gpu_bbv, dims);
    if (dist >= threshold) continue;
    const uint64_t gap = h.warps > warps ? h.warps - warps : warps - h.warps;
    if (!best || gap < best_gap || (gap == best_gap && dist < best->distance)) {
      best = KernelMatch{i, dist};
      best_gap = gap;
    }
  }
  return best;
}

uint64_t predict_instructions(const KernelRecord& m, double insts_per_sampled_warp, uint64_t warps) {
  const double per_warp = m.warps && m.insts_per_sampled_warp > 0
                              ? double(m.instructions) / (double(m.warps) * m.insts_per_sampled_warp)
                              : 1.0;
  return uint64_t(std::llround(insts_per_sampled_warp * double(warps) * per_warp));
}

}  // namespace strobe::sampling
