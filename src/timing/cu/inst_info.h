// What the timing model needs to know about each instruction of a kernel, computed once per
// program (never in the issue loop): the issue type, unit occupancy, registers read and written.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/program.h"

namespace strobe::timing {

/// Issue types: at most one instruction of each type issues per CU per cycle (`Branch` includes
/// s_setpc_b64 and s_swappc_b64; `Export` is a graphics shader's EXP on the export bus). `Internal` instructions (s_waitcnt, s_nop, s_barrier, ...) are consumed in the instruction buffer.
enum class IssueType : uint8_t { Valu, Scalar, Vmem, Lds, Branch, Export, Internal, COUNT };

/// Instructions the instruction buffer handles itself. `Untimed`: retired in the buffer at no
/// cost because the model has no resource for it (s_setprio, s_sendmsg, s_trap, EXP, ...).
enum class Special : uint8_t { None, Waitcnt, Nop, Sleep, Barrier, Endpgm, Untimed };

/// Register range in the operand encoding (scalar codes 0..255, VGPRs 256..511, gfx942's
/// AccVGPRs 512..767).
struct RegRange {
  uint16_t first = 0;
  uint8_t count = 0;
};

struct InstInfo {
  IssueType type = IssueType::Internal;
  Special special = Special::None;
  bool is_scalar_mem = false;   ///< SMEM (issues on the scalar slot)
  bool is_store = false;        ///< vector memory write (counts in expcnt until its data is read)
  bool is_flat = false;         ///< FLAT: counts in vmcnt and lgkmcnt
  bool ends_bb = false;         ///< ends a basic block: a branch, call, return, s_barrier or s_endpgm
  uint16_t busy = 1;            ///< cycles the unit stays occupied
  uint16_t latency = 1;         ///< cycles until an ALU result may be read
  uint16_t matrix = 0;          ///< cycles a matrix instruction holds its SIMD's matrix core (0: none)
  uint16_t simm16 = 0;          ///< waitcnt fields, nop count, sleep count
  uint32_t offset = 0;          ///< byte offset of the instruction in the program
  uint8_t size = 4;             ///< bytes of the instruction
  uint8_t nsrc = 0, ndst = 0;
  RegRange src[6];
  RegRange dst[3];
};

/// Unit timings the classification needs (resolved from the configuration).
struct InstTimingParams {
  uint16_t valu = 4, valu_f64 = 64, valu_trans = 16, valu_quarter_int = 16, valu_int64 = 32, valu_fma32 = 16;
  uint16_t salu = 1, branch = 4, vmem = 4, smem = 1, exp = 4;
};

/// One InstInfo per instruction of `p`, in the same order.
std::vector<InstInfo> build_inst_info(const isa::Program& p, const InstTimingParams& t);

/// Per instruction of `p`: 1 if it ends a basic block (InstInfo::ends_bb), the one definition
/// the timing model and the sampling methods share.
std::vector<uint8_t> basic_block_ends(const isa::Program& p);

}  // namespace strobe::timing
