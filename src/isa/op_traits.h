// Static traits of each isa::Op (implicit register use, memory kind and access, control flow,
// execution class), so the timing model and the emulator ask the ISA, not the mnemonic text.
// The table is generated into op_traits.def by scripts/gen-op-traits.py beside ops.def.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "isa/inst.h"

namespace strobe::isa {

/// Which memory an operation accesses (by its encoding family). Global and Scratch are the
/// gfx9 FLAT segments whose address space the instruction fixes.
enum class MemKind : uint8_t { None, Scalar, Lds, Flat, Buffer, Image, Global, Scratch };

/// How an operation accesses memory; None also covers cache control and timers
/// (s_dcache_wb, buffer_wbinvl1, s_memtime).
enum class MemAccess : uint8_t { None, Load, Store, Atomic };

/// Program-control role: a jump, or an instruction the sequencer consumes itself.
/// `Sequencer` is every other SOPP (s_setprio, s_sendmsg, s_trap, s_icache_inv, ...).
enum class Control : uint8_t { None, Branch, Call, Return, Waitcnt, Nop, Sleep, Barrier, Endpgm, Sequencer };

/// Bits of OpTraits::flags.
enum OpFlag : uint16_t {
  kReadsVccE32 = 1 << 0,     ///< the VOP2 (e32) form reads VCC implicitly (VOP3 names the mask in src2)
  kReadsVcc = 1 << 1,        ///< reads VCC implicitly in every form (v_div_fmas, s_cbranch_vcc*)
  kWritesVccE32 = 1 << 2,    ///< the VOP2/VOPC (e32) form writes VCC implicitly (VOP3 names sdst)
  kReadsScc = 1 << 3,        ///< reads SCC (s_cselect, s_addc, s_subb, s_cbranch_scc*)
  kReadsExec = 1 << 4,       ///< reads EXEC as a condition (s_cbranch_exec*)
  kWritesExec = 1 << 5,      ///< writes EXEC (v_cmpx_*)
  kF64 = 1 << 6,             ///< has a double-precision operand or result
  kTranscendental = 1 << 7,  ///< runs on the transcendental unit (exp, log, rcp, rsq, sqrt, sin, cos)
  kExport = 1 << 8,          ///< EXP (graphics export)
  kInterp = 1 << 9,          ///< VINTRP (parameter interpolation)
  kQuarterInt = 1 << 10,     ///< a quarter-rate integer op on GCN (32-bit multiplies, v_mad_u64_u32, the quad SADs)
  kInt64 = 1 << 11,          ///< a 64-bit integer shift or compare (GCN runs it on the double-precision unit)
  kFma32 = 1 << 12,          ///< an f32 fused multiply-add (v_fma_f32, v_div_scale/fmas/fixup_f32)
};

/// Everything the simulator knows about an operation without decoding an instance.
struct OpTraits {
  MemKind mem = MemKind::None;
  MemAccess access = MemAccess::None;
  Control control = Control::None;
  uint16_t flags = 0;

  /// True when every bit of `f` is set.
  constexpr bool has(uint16_t f) const { return (flags & f) == f; }
};

namespace detail {
inline constexpr std::array<OpTraits, size_t(Op::COUNT)> kOpTraits = [] {
  std::array<OpTraits, size_t(Op::COUNT)> t{};
#define STROBE_OP_TRAITS(OP, MEM, ACCESS, CONTROL, FLAGS) \
  t[size_t(Op::OP)] = OpTraits{MemKind::MEM, MemAccess::ACCESS, Control::CONTROL, uint16_t(FLAGS)};
#include "isa/op_traits.def"
#undef STROBE_OP_TRAITS
  return t;
}();
}  // namespace detail

/// The traits of `op` (Op::INVALID has none): one array lookup.
constexpr const OpTraits& traits(Op op) { return detail::kOpTraits[size_t(op)]; }

}  // namespace strobe::isa
