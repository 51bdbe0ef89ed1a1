// Helpers for emulator tests: assemble gfx803 snippets with llvm-mc, build descriptors and
// dispatches by hand, run them, and load compiled kernels with a minimal kernarg builder.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emu/dispatch.h"
#include "emu/executor.h"
#include "emu/memory.h"
#include "isa/program.h"
#include "loader/code_object.h"

namespace strobe::emu::test {

/// Assembles source text for `target` (gfx803: llvm-mc; gfx942: llvm-mc-19) into the bytes of
/// its .text. Throws on assembler errors.
std::vector<uint8_t> assemble_bytes(const std::string& source, isa::Target target = isa::Target::Gfx803);
/// Assembles source text for `target` and decodes it at address 0. Throws on assembler errors.
isa::Program assemble(const std::string& source, isa::Target target = isa::Target::Gfx803);

/// A kernel descriptor for hand-written snippets.
struct KdSpec {
  uint16_t properties = 0x8;  ///< kernel_code_properties (default: kernarg segment ptr only)
  uint32_t user_sgprs = 2;
  bool wg_id_x = true, wg_id_y = false, wg_id_z = false, wg_info = false, scratch_offset = false;
  uint32_t workitem_vgprs = 0;  ///< 0: x; 1: x,y; 2: x,y,z
  uint32_t vgprs = 32;
  uint32_t lds = 0;
  uint32_t private_bytes = 0;
  uint32_t float_mode = 0xC0;   ///< denormals on for f64/f16, round to nearest
  isa::Target target = isa::Target::Gfx803;  ///< the snippet's instruction set (VGPR granule too)
};
loader::KernelDescriptor make_kd(const KdSpec& s);

/// A hand-built launch of an assembled snippet; owns its program and its kernarg allocation.
struct AsmLaunch {
  GlobalMemory mem;
  isa::Program program;
  Dispatch d;
  /// Assembles `source`, sets geometry, and writes `kernarg` (dwords) into device memory.
  AsmLaunch(const std::string& source, const KdSpec& kd, std::array<uint32_t, 3> grid, std::array<uint32_t, 3> local,
            const std::vector<uint32_t>& kernarg = {});
  /// Runs the whole dispatch.
  DispatchStats run() { return run_dispatch(d, mem); }
  /// A device buffer of `n` dwords with the given contents (zeros by default).
  uint64_t buffer(const std::vector<uint32_t>& init, size_t n = 0);
  /// Reads `n` dwords back.
  std::vector<uint32_t> read(uint64_t addr, size_t n);
  /// Runs work-group `group` alone and returns its waves' final state.
  std::vector<Wave> run_group(uint64_t group = 0, DispatchStats* stats = nullptr);
};

/// A compiled kernel from build-emu/kernels*/emu, ready to launch with pointer/scalar args.
struct CompiledKernel {
  loader::CodeObject co;
  const loader::KernelInfo* info = nullptr;
  isa::Program program;
  CompiledKernel(const std::string& path, const std::string& kernel);
};

/// One explicit argument: a pointer (device address), a 32-bit scalar, or a dynamic local size.
struct Arg {
  enum Kind { Pointer, U32, Local } kind;
  uint64_t value;
};

/// Lays out explicit and hidden arguments from the metadata and returns the dispatch, not run;
/// its kernarg segment and queue descriptor are allocated in `mem`.
Dispatch prepare_launch(GlobalMemory& mem, const CompiledKernel& k, std::array<uint32_t, 3> grid,
                        std::array<uint32_t, 3> local, const std::vector<Arg>& args);

/// Lays out explicit and hidden arguments from the metadata, launches, and returns the stats.
DispatchStats launch(GlobalMemory& mem, const CompiledKernel& k, std::array<uint32_t, 3> grid,
                     std::array<uint32_t, 3> local, const std::vector<Arg>& args);

/// Path of a built kernel, e.g. kernel_path("emu/reduce") for clang-15 or with v5 = true for clang-19.
std::string kernel_path(const std::string& stem, bool v5 = false);

/// A three-trip loop, a barrier and a tail: instructions 0..7, basic blocks ending at the branch
/// (4), the barrier (5) and s_endpgm (7). Per wave 13 instructions run in the first block, 1 in
/// the second and 2 in the third.
inline constexpr const char* kLoopBarrierAsm = R"(
  s_mov_b32 s4, 3
loop:
  v_add_u32 v1, vcc, 1, v1
  s_sub_u32 s4, s4, 1
  s_cmp_lg_u32 s4, 0
  s_cbranch_scc1 loop
  s_barrier
  v_mov_b32 v2, v1
  s_endpgm
)";

/// Work that differs per work-group, for runs on host threads: with groups of one 64-lane wave
/// and the default KdSpec (kernarg pointer s[0:1], group id x in s2), each wave loops
/// (group id mod 4) + 1 times and each lane stores its trip count as dword (group id * 64 + lane)
/// of the buffer kernarg 0 points at.
inline constexpr const char* kGroupLoopStoreAsm = R"(
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_and_b32 s6, s2, 3
  s_add_u32 s6, s6, 1
loop:
  v_add_u32 v1, vcc, 1, v1
  s_sub_u32 s6, s6, 1
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 loop
  s_lshl_b32 s7, s2, 8
  v_lshlrev_b32 v2, 2, v0
  v_add_u32 v2, vcc, s7, v2
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v5, s5
  v_add_u32 v6, vcc, s4, v2
  v_addc_u32 v7, vcc, v5, 0, vcc
  flat_store_dword v[6:7], v1
  s_waitcnt vmcnt(0)
  s_endpgm
)";

/// An assembled snippet in which each lane stores its id as a dword at out + (id << shift),
/// `out` being kernarg 0: one flat store whose coalescing the shift controls.
std::string strided_store_asm(uint32_t stride_shift);

}  // namespace strobe::emu::test
