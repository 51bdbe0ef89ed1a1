// The hardware dispatch ABI as the emulator implements it: FLAT apertures, the amd_queue_t
// fields kernels read, the AQL packet, the scratch (private segment) layout and the initial
// register state of a wavefront (LLVM AMDGPUUsage, "Initial Kernel Execution State").
#pragma once

#include <array>
#include <cstdint>

#include "emu/dispatch.h"
#include "emu/wave.h"

namespace strobe::emu {

class GlobalMemory;

/// FLAT address apertures (the values the Linux KFD uses on gfx8). A FLAT address whose high
/// 32 bits equal an aperture's high half addresses LDS / scratch at the low 32 bits.
inline constexpr uint64_t kSharedApertureBase = 0x2000000000000000ull;
inline constexpr uint64_t kPrivateApertureBase = 0x2000000100000000ull;
inline constexpr uint32_t kSharedApertureHi = uint32_t(kSharedApertureBase >> 32);
inline constexpr uint32_t kPrivateApertureHi = uint32_t(kPrivateApertureBase >> 32);

/// amd_queue_t (ROCR amd_hsa_queue.h) byte offsets the emulator fills; the struct is 256 bytes.
namespace amd_queue {
inline constexpr uint32_t kSize = 256;
inline constexpr uint32_t kType = 0;                          ///< hsa_queue_t.type (u32)
inline constexpr uint32_t kFeatures = 4;                      ///< hsa_queue_t.features (u32)
inline constexpr uint32_t kQueueSize = 24;                    ///< hsa_queue_t.size (u32, packets)
inline constexpr uint32_t kGroupSegmentApertureBaseHi = 64;   ///< u32, read by gfx8 addrspacecast
inline constexpr uint32_t kPrivateSegmentApertureBaseHi = 68; ///< u32, read by gfx8 addrspacecast
inline constexpr uint32_t kMaxCuId = 72;                      ///< u32
inline constexpr uint32_t kMaxWaveId = 76;                    ///< u32
}  // namespace amd_queue

/// Writes a 256-byte amd_queue_t at `addr` (which must be mapped): zeros except the aperture
/// bases, max_cu_id/max_wave_id and a kernel-dispatch feature flag.
void write_queue_descriptor(GlobalMemory& mem, uint64_t addr);

/// Writes the 64-byte hsa_kernel_dispatch_packet_t for `d` at `addr` (header, setup = dims,
/// workgroup/grid sizes, segment sizes, kernel_object = descriptor address, kernarg address).
void write_dispatch_packet(GlobalMemory& mem, uint64_t addr, const Dispatch& d, uint64_t kernel_object = 0);

/// Scratch geometry of one dispatch: the per-lane size rounded to the hardware's granule.
struct ScratchLayout {
  uint32_t bytes_per_lane = 0;  ///< private bytes per work-item (multiple of 16)
  uint32_t bytes_per_wave = 0;  ///< 64 * bytes_per_lane (a multiple of 1 KiB, as COMPUTE_TMPRING_SIZE)
  uint64_t base = 0;            ///< device address of the backing store (SH_HIDDEN_PRIVATE_BASE)
};

/// The private segment buffer V# the CP hands a kernel: swizzled, ADD_TID_ENABLE, element size
/// 4, index stride 64, stride = bytes per lane, num_records = 0xffffffff.
std::array<uint32_t, 4> private_segment_descriptor(const ScratchLayout& s);

/// Where a wave is in its dispatch, for register initialisation.
struct WaveSlot {
  std::array<uint32_t, 3> workgroup_id{};    ///< work-group coordinates
  std::array<uint32_t, 3> workgroup_size{};  ///< actual (edge-clipped) work-group size
  uint32_t wave_in_group = 0;                ///< wave index within the work-group
  uint32_t waves_in_group = 1;
  uint32_t scratch_wave_offset = 0;          ///< private segment wave byte offset
};

/// Number of VGPRs allocated per rsrc1: granules of 4 on gfx803; on gfx942 granules of 8 of
/// the unified file, AccVGPRs included.
uint32_t vgpr_count(const loader::KernelDescriptor& kd, isa::Target target = isa::Target::Gfx803);

/// Initialises `w` exactly as the SPI would: user and system SGPRs, work-item id VGPRs, EXEC,
/// MODE, FLAT_SCRATCH. Throws InputError when the descriptor is inconsistent (too many user SGPRs).
/// `vgpr_storage` (if larger than the allocation) sizes the register array so that code touching
/// VGPRs beyond its allocation cannot corrupt the host.
void init_wave(Wave& w, const Dispatch& d, const ScratchLayout& scratch, const WaveSlot& slot,
               uint32_t vgpr_storage = 0);

/// One past the highest VGPR row any instruction of `p` names (0 if none). AccVGPR aN is row
/// 256 + N (wave.h's vgpr_index), so gfx942 code that uses AccVGPRs needs rows past 256.
uint32_t vgprs_referenced(const isa::Program& p);

}  // namespace strobe::emu
