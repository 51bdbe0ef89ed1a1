// The compute unit's parameters and how they are read from the configuration: the one place a
// `cu.*`, `lds.*` or `dispatch.wave_launch_cycles` key becomes a CU field.
#pragma once

#include <cstdint>
#include <string>

#include "timing/cu/inst_info.h"
#include "timing/cu/occupancy.h"

namespace strobe::timing {

struct GpuConfig;

/// Everything one compute unit is built from.
struct CuParams {
  CuResources res;
  InstTimingParams timing;
  uint32_t simd_width = 16;
  uint32_t ib_bytes = 64, fetch_bytes = 32, fetches_per_cycle = 1;
  uint32_t wave_launch_cycles = 32, barrier_cycles = 4;
  uint32_t lds_banks = 32, lds_lanes_per_cycle = 32, lds_latency = 64;
  uint32_t line_bits = 6;
  std::string scheduler = "oldest";  ///< issue policy (issue_policy.h registry name)

  /// Reads the CU's keys of the configuration.
  static CuParams from_config(const GpuConfig& c);
};

/// The occupancy resources of one CU in the configuration.
CuResources cu_resources(const GpuConfig& c);
/// The instruction timings (unit occupancies) a configuration gives build_inst_info().
InstTimingParams inst_timing_params(const GpuConfig& c);

}  // namespace strobe::timing
