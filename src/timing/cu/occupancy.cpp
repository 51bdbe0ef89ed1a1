#include "timing/cu/occupancy.h"

#include <algorithm>

#include "emu/dispatch.h"

namespace strobe::timing {

namespace {
uint32_t round_up(uint32_t v, uint32_t g) { return (v + g - 1) / g * g; }
}  // namespace

WorkgroupNeeds workgroup_needs(const loader::KernelDescriptor& kd, uint32_t workitems_per_group, uint32_t lds_bytes,
                               const CuResources& r) {
  WorkgroupNeeds n;
  n.waves = std::max(1u, (workitems_per_group + 63) / 64);
  n.vgprs_per_wave = round_up((kd.vgpr_granules() + 1) * 4, r.vgpr_granule);
  n.sgprs_per_wave = round_up((kd.sgpr_granules() + 1) * 8, r.sgpr_granule);
  n.lds_bytes = lds_bytes ? round_up(lds_bytes, r.lds_granule) : 0;
  return n;
}

WorkgroupNeeds dispatch_needs(const emu::Dispatch& d, const CuResources& r) {
  const uint32_t items = d.local[0] * d.local[1] * d.local[2];
  const uint32_t lds = std::max(d.lds_bytes, d.kd.group_segment_fixed_size);
  return workgroup_needs(d.kd, items, lds, r);
}

Occupancy occupancy(const WorkgroupNeeds& n, const CuResources& r) {
  struct Limit { uint32_t waves_per_simd; const char* name; };
  const Limit limits[] = {
      {r.slots_per_simd, "wave slots"},
      {r.vgprs_per_simd / std::max(1u, n.vgprs_per_wave), "VGPRs"},
      {r.sgprs_per_simd / std::max(1u, n.sgprs_per_wave), "SGPRs"},
  };
  Occupancy o;
  o.waves_per_simd = UINT32_MAX;
  for (const Limit& l : limits)
    if (l.waves_per_simd < o.waves_per_simd) o.waves_per_simd = l.waves_per_simd, o.limiter = l.name;
  // Work-groups: waves spread over all SIMDs, bounded by LDS and the work-group limit.
  uint32_t wgs = o.waves_per_simd * r.simds / n.waves;
  if (r.max_workgroups < wgs) wgs = r.max_workgroups, o.limiter = "work-groups";
  if (n.lds_bytes && r.lds_bytes / n.lds_bytes < wgs) wgs = r.lds_bytes / n.lds_bytes, o.limiter = "LDS";
  o.workgroups_per_cu = wgs;
  o.waves_per_cu = wgs * n.waves;
  o.waves_per_simd = std::min(o.waves_per_simd, (o.waves_per_cu + r.simds - 1) / r.simds);
  return o;
}

}  // namespace strobe::timing
