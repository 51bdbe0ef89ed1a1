// Initial kernel execution state (LLVM AMDGPUUsage) and the host-visible structures kernels read.
#include "emu/dispatch_abi.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "common/error.h"
#include "emu/memory.h"

namespace strobe::emu {

namespace of = isa::opcode_field;

void write_queue_descriptor(GlobalMemory& mem, uint64_t addr) {
  uint8_t q[amd_queue::kSize] = {};
  auto put32 = [&](uint32_t off, uint32_t v) { std::memcpy(q + off, &v, 4); };
  put32(amd_queue::kType, 0);           // HSA_QUEUE_TYPE_MULTIPLE
  put32(amd_queue::kFeatures, 1);       // HSA_QUEUE_FEATURE_KERNEL_DISPATCH
  put32(amd_queue::kQueueSize, 4096);
  put32(amd_queue::kGroupSegmentApertureBaseHi, kSharedApertureHi);
  put32(amd_queue::kPrivateSegmentApertureBaseHi, kPrivateApertureHi);
  put32(amd_queue::kMaxCuId, 63);       // R9 Nano-like: 64 CUs
  put32(amd_queue::kMaxWaveId, 39);     // 40 wave slots per CU
  mem.write(addr, q, sizeof q);
}

void write_dispatch_packet(GlobalMemory& mem, uint64_t addr, const Dispatch& d, uint64_t kernel_object) {
  uint8_t p[64] = {};
  auto put16 = [&](uint32_t off, uint16_t v) { std::memcpy(p + off, &v, 2); };
  auto put32 = [&](uint32_t off, uint32_t v) { std::memcpy(p + off, &v, 4); };
  auto put64 = [&](uint32_t off, uint64_t v) { std::memcpy(p + off, &v, 8); };
  uint16_t dims = d.grid[2] > 1 || d.local[2] > 1 ? 3 : d.grid[1] > 1 || d.local[1] > 1 ? 2 : 1;
  put16(0, 2);  // HSA_PACKET_TYPE_KERNEL_DISPATCH
  put16(2, dims);
  put16(4, uint16_t(d.local[0]));
  put16(6, uint16_t(d.local[1]));
  put16(8, uint16_t(d.local[2]));
  put32(12, d.grid[0]);
  put32(16, d.grid[1]);
  put32(20, d.grid[2]);
  put32(24, std::max(d.private_bytes_per_lane, d.kd.private_segment_fixed_size));
  put32(28, std::max(d.lds_bytes, d.kd.group_segment_fixed_size));
  put64(32, kernel_object);
  put64(40, d.kernarg_address);
  mem.write(addr, p, sizeof p);
}

std::array<uint32_t, 4> private_segment_descriptor(const ScratchLayout& s) {
  uint32_t stride = std::min<uint32_t>(s.bytes_per_lane, 0x3FFF);  // 14-bit field
  uint32_t w1 = uint32_t(s.base >> 32) & 0xFFFF;
  w1 |= stride << 16;
  w1 |= 1u << 31;                       // SWIZZLE_ENABLE
  uint32_t w3 = 0;
  w3 |= 4u << 0 | 5u << 3 | 6u << 6 | 7u << 9;  // dst_sel x,y,z,w
  w3 |= 4u << 12;                       // NUM_FORMAT uint
  w3 |= 4u << 15;                       // DATA_FORMAT 32
  w3 |= 1u << 19;                       // ELEMENT_SIZE 4 bytes
  w3 |= 3u << 21;                       // INDEX_STRIDE 64
  w3 |= 1u << 23;                       // ADD_TID_ENABLE
  return {uint32_t(s.base), w1, 0xFFFFFFFFu, w3};
}

uint32_t vgpr_count(const loader::KernelDescriptor& kd, isa::Target target) {
  return (kd.vgpr_granules() + 1) * (target == isa::Target::Gfx803 ? 4 : 8);
}

uint32_t vgprs_referenced(const isa::Program& p) {
  uint32_t top = 0;
  auto see = [&](uint16_t code, uint32_t dwords) {
    if (is_vgpr(code)) top = std::max(top, vgpr_index(code) + std::max<uint32_t>(dwords, 1));
  };
  for (const isa::Inst& in : p.insts) {
    // Memory ops name register ranges whose width the decoder may not record: allow 4 extra.
    see(in.dst, std::max<uint32_t>(in.dst_dwords, 4));
    for (int i = 0; i < 3; ++i) see(in.src[i], in.src_dwords[i]);
    see(in.addr, 2);
    see(in.data0, 4);
    see(in.data1, 4);
  }
  // gfx803 has 256 VGPRs; gfx942 256 VGPRs and 256 AccVGPRs (rows 256..511).
  return std::min<uint32_t>(top, (p.target == isa::Target::Gfx803 ? 256 : 512) + 4);
}

void init_wave(Wave& w, const Dispatch& d, const ScratchLayout& scratch, const WaveSlot& slot, uint32_t vgpr_storage) {
  const loader::KernelDescriptor& kd = d.kd;
  w.s.fill(0);
  const isa::Target target = d.program ? d.program->target : isa::Target::Gfx803;
  const bool gfx942 = target != isa::Target::Gfx803;
  w.num_vgprs = vgpr_count(kd, target);
  w.num_sgprs = std::min<uint32_t>((kd.sgpr_granules() + 1) * 8, of::kSgprLast + 1);
  w.v.assign(size_t(std::max(w.num_vgprs, vgpr_storage)) * kWaveSize, 0);
  w.scc = 0;
  w.halted = false;
  w.executed = 0;
  w.at_barrier = false;
  w.wave_id = slot.wave_in_group;
  w.scratch_bytes_per_lane = scratch.bytes_per_lane;
  w.scratch_base = scratch.base + slot.scratch_wave_offset;
  w.trapsts = 0;
  // MODE: FP_ROUND/FP_DENORM come straight from rsrc1's FLOAT_MODE byte; DX10_CLAMP (rsrc1 bit 21)
  // and IEEE (bit 23) land in MODE bits 8 and 9.
  w.mode = kd.float_mode() | ((kd.compute_pgm_rsrc1 >> 21) & 1) << 8 | ((kd.compute_pgm_rsrc1 >> 23) & 1) << 9;

  // ---- user SGPRs, in the fixed order, each only when enabled ----
  uint32_t n = 0;
  auto put = [&](uint32_t v) {
    if (n < of::kSgprLast + 1) w.s[n] = v;
    ++n;
  };
  auto put64 = [&](uint64_t v) { put(uint32_t(v)); put(uint32_t(v >> 32)); };
  if (kd.has_private_segment_buffer())
    for (uint32_t x : private_segment_descriptor(scratch)) put(x);
  if (kd.has_dispatch_ptr()) put64(d.packet_address);
  if (kd.has_queue_ptr()) put64(d.queue_address);
  if (kd.has_kernarg_segment_ptr()) put64(d.kernarg_address);
  if (kd.has_dispatch_id()) put64(d.dispatch_id);
  if (kd.has_flat_scratch_init()) {
    put(0);  // byte offset from SH_HIDDEN_PRIVATE_BASE to this queue's scratch: the base itself
    put(scratch.bytes_per_lane);
  }
  if (kd.has_private_segment_size()) put(scratch.bytes_per_lane);
  // Code object v2's grid work-group counts (amd_kernel_code_t bits 7..9; reserved-zero in v3+).
  for (int dim = 0; dim < 3; ++dim)
    if (kd.kernel_code_properties & (0x80 << dim))
      put((d.grid[dim] + d.local[dim] - 1) / d.local[dim]);
  const uint32_t user = kd.user_sgpr_count();
  if (n > user)
    throw InputError(fmt::format("kernel {}: descriptor enables {} user SGPRs but rsrc2 USER_SGPR says {}",
                                 d.kernel_name, n, user));

  // ---- system SGPRs after the user SGPRs ----
  n = user;
  if (kd.workgroup_id_x_enabled()) put(slot.workgroup_id[0]);
  if (kd.workgroup_id_y_enabled()) put(slot.workgroup_id[1]);
  if (kd.workgroup_id_z_enabled()) put(slot.workgroup_id[2]);
  if (kd.workgroup_info_enabled())
    put((slot.wave_in_group == 0 ? 1u << 31 : 0u) | (slot.waves_in_group & 0x3F));
  if (kd.private_segment_wave_offset_enabled()) put(slot.scratch_wave_offset);
  if (n > of::kSgprLast + 1)
    throw InputError(fmt::format("kernel {}: {} initial SGPRs exceed the 102 available", d.kernel_name, n));

  if (gfx942) {
    // Architected flat scratch (AMDGPUUsage, gfx940): the hardware sets FLAT_SCRATCH to the
    // wave's own private base, and SCRATCH/FLAT-private accesses are relative to it.
    w.s[of::kFlatScrLo] = uint32_t(w.scratch_base);
    w.s[of::kFlatScrHi] = uint32_t(w.scratch_base >> 32);
  } else {
    // FLAT_SCRATCH as the kernel prologue would set it from flat_scratch_init, so FLAT scratch
    // accesses work even in kernels that never initialise it.
    w.s[of::kFlatScrLo] = scratch.bytes_per_lane;
    w.s[of::kFlatScrHi] = slot.scratch_wave_offset >> 8;
  }

  // ---- work-item ids and EXEC ----
  const uint32_t sx = slot.workgroup_size[0], sy = slot.workgroup_size[1];
  const uint32_t total = sx * sy * slot.workgroup_size[2];
  const uint32_t first = slot.wave_in_group * kWaveSize;
  const uint32_t lanes = std::min<uint32_t>(kWaveSize, total - first);
  w.lane_count = lanes;
  w.set_exec(lanes == 64 ? ~uint64_t{0} : (uint64_t{1} << lanes) - 1);
  const uint32_t id_vgprs = std::min(kd.workitem_id_vgprs() + 1, w.num_vgprs);
  for (uint32_t l = 0; l < lanes; ++l) {
    uint32_t t = first + l;
    uint32_t ids[3] = {t % sx, (t / sx) % sy, t / (sx * sy)};
    if (gfx942) {
      // Packed work-item IDs (gfx90a and later): X, Y and Z in bits 0-9, 10-19 and 20-29 of v0,
      // each present only when enabled.
      uint32_t v0 = 0;
      for (uint32_t r = 0; r < id_vgprs; ++r) v0 |= ids[r] << (10 * r);
      w.vrow(0)[l] = v0;
    } else {
      for (uint32_t r = 0; r < id_vgprs; ++r) w.vrow(r)[l] = ids[r];
    }
  }
}

}  // namespace strobe::emu
