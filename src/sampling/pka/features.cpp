// PKA's feature profile: an instruction-grain collector on the shared profiling loop.
#include "sampling/pka/features.h"

#include <algorithm>
#include <cmath>

#include "sampling/profile/profiler.h"

namespace strobe::sampling {

namespace {

using timing::InstInfo;
using timing::IssueType;

/// Counts each instruction by its issue type, and the lines of vector memory instructions.
struct FeatureCounter : profile::Collector {
  static constexpr profile::Grain kGrain = profile::Grain::Instruction;
  const std::vector<InstInfo>* info = nullptr;
  uint64_t valu = 0, salu = 0, loads = 0, stores = 0, lds = 0, smem = 0, branch = 0, lines = 0;

  /// Always: the counts are sums.
  bool can_split() const { return true; }
  /// Zero counts over the same table.
  FeatureCounter split() const {
    FeatureCounter c;
    c.info = info;
    return c;
  }
  /// Adds `part`'s counts.
  void join(FeatureCounter&& part) {
    valu += part.valu, salu += part.salu, loads += part.loads, stores += part.stores;
    lds += part.lds, smem += part.smem, branch += part.branch, lines += part.lines;
  }

  void instruction(const profile::Instruction& i) {
    if (i.pc >= info->size()) return;
    const InstInfo& in = (*info)[i.pc];
    switch (in.type) {
      case IssueType::Valu: ++valu; break;
      case IssueType::Scalar: ++(in.is_scalar_mem ? smem : salu); break;
      case IssueType::Lds: ++lds; break;
      case IssueType::Branch: ++branch; break;
      case IssueType::Vmem:
        ++(in.is_store ? stores : loads);
        lines += i.lines;  // whatever the space: FLAT into LDS counts too, as it always has
        break;
      default: break;
    }
  }
};

}  // namespace

PkaProfile profile_pka_features(const emu::Dispatch& d, emu::GlobalMemory& mem, const std::vector<InstInfo>& info,
                                uint32_t line_bytes, uint32_t threads) {
  profile::Profiler profiler(line_bytes);
  FeatureCounter c;
  c.info = &info;
  PkaProfile p;
  p.kernel = d.kernel_name;
  p.stats = profiler.run_launch(d, mem, c, threads);
  const emu::DispatchStats& st = p.stats;
  const double insts = double(std::max<uint64_t>(st.wave_instructions, 1));
  const uint64_t vm = c.loads + c.stores;
  p.features = {std::log1p(double(st.wave_instructions)),
                std::log1p(double(st.thread_instructions)),
                double(st.thread_instructions) / (insts * 64.0),
                double(c.valu) / insts,
                double(c.salu) / insts,
                double(c.loads) / insts,
                double(c.stores) / insts,
                double(c.lds) / insts,
                double(c.smem) / insts,
                double(c.branch) / insts,
                vm ? double(c.lines) / double(vm) : 0.0,
                std::log1p(double(st.workgroups)),
                st.workgroups ? double(st.wavefronts) / double(st.workgroups) : 0.0};
  return p;
}

}  // namespace strobe::sampling
