// The decoded form of a whole loaded code object: every kernel and function of .text in one
// isa::Program, so calls between them are ordinary jumps.
#pragma once

#include <cstdint>

#include "isa/program.h"
#include "loader/code_object.h"

namespace strobe::emu {

/// The instruction set of `co`'s processor (gfx942's for a code object read as Decodable).
isa::Target isa_target(const loader::CodeObject& co);

/// Decodes every function and kernel of `co`'s .text (CodeObject::code_ranges) as placed at
/// device address `load_base` + ELF address, in `co`'s instruction set. A kernel starts at the
/// index of its entry.
isa::Program decode_code_object(const loader::CodeObject& co, uint64_t load_base);

/// Per-lane private memory a kernel that calls functions is given at least: LLVM's assumed
/// stack size for calls it cannot bound (-amdgpu-assume-external-call-stack-size). Recursion
/// is not included in private_segment_fixed_size by LLVM 14 or 19 and indirect calls only by
/// this same assumption, so such kernels would otherwise overflow into other lanes' stacks.
inline constexpr uint32_t kCallStackBytesPerLane = 16384;

/// True if the code of `k` (in `p`, decoded by decode_code_object) contains a call (s_swappc_b64).
bool kernel_makes_calls(const isa::Program& p, const loader::KernelInfo& k);

/// Private bytes per work-item a dispatch of `k` gets: its private_segment_fixed_size, raised to
/// kCallStackBytesPerLane when it makes calls or declares a dynamic stack.
uint32_t private_bytes_per_lane(const loader::KernelInfo& k, bool makes_calls);

}  // namespace strobe::emu
