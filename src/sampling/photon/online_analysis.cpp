// Photon's online analysis: a sample of work-groups emulated on a memory overlay.
#include "sampling/photon/online_analysis.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "emu/executor.h"
#include "sampling/profile/profiler.h"

namespace strobe::sampling {

namespace {

/// The random projection direction of block `pc` of kernel `kernel_seed`: `dims` values in
/// [-1, 1]. Different kernels get unrelated directions, so their GPU BBVs never match.
void direction(uint64_t kernel_seed, uint32_t pc, uint32_t dims, double* out) {
  uint64_t s = kernel_seed ^ (uint64_t(pc) * 0xD6E8FEB86659FD93ull);
  for (uint32_t k = 0; k < dims; ++k) out[k] = double(splitmix64(s) >> 11) * 0x1.0p-52 - 1.0;
}

}  // namespace

uint64_t kernel_seed(const std::string& name) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

namespace {

/// Restores the memory image however the sample ends.
struct OverlayGuard {
  emu::GlobalMemory& mem;
  explicit OverlayGuard(emu::GlobalMemory& m) : mem(m) { mem.begin_overlay(); }
  ~OverlayGuard() { mem.end_overlay(); }
};

}  // namespace

OnlineAnalysis build_analysis(const std::vector<WarpBlocks>& warps, const std::vector<uint32_t>& bb_length,
                              uint64_t kernel_seed, uint32_t dims, uint32_t entry_pc) {
  OnlineAnalysis a;
  a.entry_pc = entry_pc;
  const size_t n = bb_length.size();
  a.bb_length = bb_length;
  a.bb_share.assign(n, 0.0);
  a.mean_bb_count.assign(n, 0.0);
  std::map<uint64_t, size_t> type_of;  // key -> index in a.types
  std::vector<const WarpBlocks*> type_blocks;
  std::vector<uint64_t> bb_count(n, 0);
  for (const WarpBlocks& w : warps) {
    uint64_t key = 0, insts = 0;
    for (const auto& [pc, count] : w) {
      key += count * block_key(pc, entry_pc);
      insts += uint64_t(count) * bb_length.at(pc);
      bb_count[pc] += count;
    }
    ++a.sampled_warps;
    a.sampled_instructions += insts;
    auto [it, fresh] = type_of.try_emplace(key, a.types.size());
    if (fresh) {
      a.types.push_back(WarpType{key, 0, insts, {}});
      type_blocks.push_back(&w);
    }
    ++a.types[it->second].warps;
  }
  for (size_t pc = 0; pc < n; ++pc) {
    if (!bb_count[pc]) continue;
    a.bb_share[pc] = double(bb_count[pc]) * bb_length[pc] / double(std::max<uint64_t>(a.sampled_instructions, 1));
    a.mean_bb_count[pc] = double(bb_count[pc]) / double(a.sampled_warps);
  }
  // Each type's BBV as instruction fractions, projected to `dims` dimensions.
  std::vector<double> dir(dims);
  for (size_t t = 0; t < a.types.size(); ++t) {
    WarpType& wt = a.types[t];
    wt.projected.assign(dims, 0.0);
    for (const auto& [pc, count] : *type_blocks[t]) {
      direction(kernel_seed, pc - entry_pc, dims, dir.data());  // callees before the entry wrap: still unique
      const double frac = double(count) * bb_length[pc] / double(std::max<uint64_t>(wt.instructions, 1));
      for (uint32_t k = 0; k < dims; ++k) wt.projected[k] += frac * dir[k];
    }
  }
  std::stable_sort(a.types.begin(), a.types.end(), [](const WarpType& x, const WarpType& y) {
    return x.warps != y.warps ? x.warps > y.warps : x.key < y.key;
  });
  for (const WarpType& wt : a.types) {
    const double weight = double(wt.warps) / double(std::max<uint64_t>(a.sampled_warps, 1));
    for (double v : wt.projected) a.gpu_bbv.push_back(weight * v);
  }
  return a;
}

OnlineAnalysis analyze_sample(const emu::Dispatch& d, emu::GlobalMemory& mem, const std::vector<uint8_t>& ends,
                              double fraction, uint32_t dims) {
  emu::Executor ex(d, mem, 1);
  const uint64_t groups = ex.workgroup_count();
  const uint64_t samples = std::clamp<uint64_t>(uint64_t(std::llround(fraction * double(groups))), 1, groups);
  std::vector<WarpBlocks> warps;
  std::vector<uint32_t> bb_length(ends.size(), 0);
  {
    OverlayGuard overlay(mem);
    emu::WorkGroup wg;
    emu::DispatchStats stats;
    profile::Profiler profiler;
    for (uint64_t i = 0; i < samples; ++i) {
      ex.init_workgroup(wg, (2 * i + 1) * groups / (2 * samples), 0);
      const size_t first = warps.size();
      warps.resize(first + wg.waves.size());
      profile::run_blocks(profiler, ex, wg, stats, ends, [&](uint32_t w, uint32_t start, uint32_t len) {
        ++warps[first + w][start];
        bb_length[start] = len;
      });
    }
  }
  OnlineAnalysis a = build_analysis(warps, bb_length, kernel_seed(d.kernel_name), dims, ex.entry_pc());
  a.workgroups = groups;
  a.sampled_workgroups = samples;
  const uint32_t items = d.local[0] * d.local[1] * d.local[2];
  a.warps = groups * ((items + 63) / 64);  // partial groups at the grid edge make this an upper bound
  return a;
}

double gpu_bbv_distance(const std::vector<double>& a, const std::vector<double>& b, uint32_t dims) {
  const size_t n = std::max(a.size(), b.size());
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += std::abs((i < a.size() ? a[i] : 0.0) - (i < b.size() ? b[i] : 0.0));
  return dims ? sum / double(dims) : 0.0;
}

}  // namespace strobe::sampling
