// What GPUMech's trace needs to know about each static instruction of a program, computed once
// per program: the model's instruction class, the memory access direction, the s_waitcnt
// thresholds, and the registers it reads and writes (for the producers of Eq. 13).
#pragma once

#include <cstdint>
#include <vector>

#include "isa/program.h"
#include "sampling/gpumech/trace.h"
#include "timing/cu/inst_info.h"

namespace strobe::sampling::gpumech {

/// Register operands of one instruction in the 9-bit operand encoding (timing::RegRange).
struct RegisterUse {
  static constexpr uint32_t kMaxReads = 10, kMaxWrites = 4;
  timing::RegRange reads[kMaxReads];
  timing::RegRange writes[kMaxWrites];
  uint8_t nreads = 0, nwrites = 0;
};

/// One static instruction as the trace collector and the cache-only simulation classify it.
struct StaticInst {
  InstClass cls = InstClass::Compute;
  MemAccess access = MemAccess::None;
  WaitCounts wait;  ///< thresholds of an s_waitcnt
  RegisterUse regs;
};

/// The s_waitcnt thresholds encoded in `simm16` (gfx8: vmcnt [3:0], lgkmcnt [11:8]); a field at
/// its maximum (15) can never bind, since the hardware keeps at most 15 operations outstanding,
/// and reads as kNoWait.
WaitCounts decode_waitcnt(uint16_t simm16);

/// The registers `in` reads and writes as the ISA defines them: timing::build_inst_info()'s
/// scoreboard operands (`info`), plus what the detailed model orders through s_waitcnt or never
/// tracked: memory results (loads, returning atomics), the EXEC read of every vector
/// instruction, VOP2 carry-outs into VCC, v_div_fmas's VCC, the EXEC write of s_*_saveexec and
/// the M0 read of LDS and relative-addressing instructions.
RegisterUse register_use(const isa::Inst& in, const timing::InstInfo& info);

/// One StaticInst per instruction of `p`, in the same order.
std::vector<StaticInst> static_insts(const isa::Program& p);

}  // namespace strobe::sampling::gpumech
