#include "timing/cu/cu_params.h"

#include <bit>

#include "timing/config/gpu_config.h"

namespace strobe::timing {

namespace {
uint32_t u32(int64_t v) { return uint32_t(v); }
}  // namespace

CuResources cu_resources(const GpuConfig& c) {
  return CuResources{u32(c.simds_per_cu),   u32(c.wave_slots_per_simd), u32(c.vgprs_per_simd),
                     u32(c.vgpr_granule),   u32(c.sgprs_per_simd),      u32(c.sgpr_granule),
                     u32(c.lds_bytes_per_cu), u32(c.lds_granule),       u32(c.max_workgroups_per_cu)};
}

InstTimingParams inst_timing_params(const GpuConfig& c) {
  InstTimingParams t;
  t.valu = uint16_t(c.valu_cycles);
  t.valu_f64 = uint16_t(c.valu_f64_cycles);
  t.valu_trans = uint16_t(c.valu_trans_cycles);
  t.valu_quarter_int = uint16_t(c.valu_quarter_int_cycles);
  t.valu_int64 = uint16_t(c.valu_int64_cycles);
  t.valu_fma32 = uint16_t(c.valu_fma32_cycles);
  t.salu = uint16_t(c.salu_cycles);
  t.branch = uint16_t(c.branch_cycles);
  t.vmem = uint16_t(c.vmem_issue_cycles);
  t.smem = uint16_t(c.smem_issue_cycles);
  t.exp = uint16_t(c.export_cycles);
  return t;
}

CuParams CuParams::from_config(const GpuConfig& c) {
  CuParams p;
  p.res = cu_resources(c);
  p.timing = inst_timing_params(c);
  p.simd_width = u32(c.simd_width);
  p.ib_bytes = u32(c.ib_bytes);
  p.fetch_bytes = u32(c.fetch_bytes);
  p.fetches_per_cycle = u32(c.fetches_per_cycle);
  p.wave_launch_cycles = u32(c.wave_launch_cycles);
  p.barrier_cycles = u32(c.barrier_cycles);
  p.lds_banks = u32(c.lds_banks);
  p.lds_lanes_per_cycle = u32(c.lds_lanes_per_cycle);
  p.lds_latency = u32(c.lds_latency);
  p.line_bits = u32(std::countr_zero(uint64_t(c.line_bytes)));
  p.scheduler = c.scheduler;
  return p;
}

}  // namespace strobe::timing
