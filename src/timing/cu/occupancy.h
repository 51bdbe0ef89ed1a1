// Occupancy: how many waves and work-groups of a kernel fit on one CU, and what limits it.
#pragma once

#include <cstdint>
#include <string>

#include "loader/code_object.h"

namespace strobe::emu {
struct Dispatch;
}  // namespace strobe::emu

namespace strobe::timing {

/// The resources a CU's occupancy rules count (resolved from the configuration).
struct CuResources {
  uint32_t simds = 4, slots_per_simd = 10;
  uint32_t vgprs_per_simd = 256, vgpr_granule = 4;
  uint32_t sgprs_per_simd = 800, sgpr_granule = 16;
  uint32_t lds_bytes = 65536, lds_granule = 256;
  uint32_t max_workgroups = 16;
};

/// What one work-group of a kernel needs.
struct WorkgroupNeeds {
  uint32_t waves = 1;
  uint32_t vgprs_per_wave = 4;   ///< allocated (rounded to the granule)
  uint32_t sgprs_per_wave = 16;  ///< allocated (rounded to the granule)
  uint32_t lds_bytes = 0;        ///< allocated (rounded to the granule)
  /// Holds one of the CU's work-group (barrier) resources, `cu.max_workgroups` of them. A
  /// graphics shader's wave is launched alone and has no barrier, so it holds none.
  bool barrier_group = true;
};

/// Resources of a dispatch: waves per group from the work-group size, registers from the
/// kernel descriptor's granulated counts, LDS from the dispatch.
WorkgroupNeeds workgroup_needs(const loader::KernelDescriptor& kd, uint32_t workitems_per_group, uint32_t lds_bytes,
                               const CuResources& r);

/// What one work-group of dispatch `d` needs: waves from its size, registers from the
/// descriptor, LDS from the dispatch or the descriptor's fixed size, whichever is larger. The
/// detailed model and the analytical models place work-groups by the same needs.
WorkgroupNeeds dispatch_needs(const emu::Dispatch& d, const CuResources& r);

/// How many waves and work-groups fit on one CU, and what limits it.
struct Occupancy {
  uint32_t waves_per_simd = 0;      ///< resident waves per SIMD for this kernel
  uint32_t workgroups_per_cu = 0;   ///< resident work-groups per CU
  uint32_t waves_per_cu = 0;
  std::string limiter;              ///< "wave slots", "VGPRs", "SGPRs", "LDS" or "work-groups"
};

/// Steady-state occupancy of a CU running only this kernel.
Occupancy occupancy(const WorkgroupNeeds& n, const CuResources& r);

}  // namespace strobe::timing
