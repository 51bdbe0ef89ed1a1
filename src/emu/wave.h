// Architectural state of one wavefront and the fast operand access used by instruction semantics.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "isa/inst.h"

namespace strobe::emu {

inline constexpr int kWaveSize = 64;

/// Type of a source operand as the instruction interprets it; selects inline-constant values.
enum class OperandType : uint8_t { B32, F32, B64, F64, F16, B16 };

/// One wavefront's registers. The scalar file is indexed by the 9-bit operand code itself
/// (s0..s101 at 0..101, flat_scratch at 102, vcc at 106, ttmp at 112, m0 at 124, exec at 126),
/// so reading any scalar source is one array access.
struct Wave {
  std::array<uint32_t, 128> s{};     ///< scalar registers by operand code
  std::vector<uint32_t> v;           ///< vector registers, v[reg * 64 + lane]
  uint32_t num_vgprs = 0;            ///< allocated VGPRs (bounds for v)
  uint32_t num_sgprs = 102;          ///< addressable SGPRs
  uint8_t scc = 0;
  uint32_t pc = 0;                   ///< index into the Program's instruction array
  uint32_t mode = 0;                 ///< MODE register: [3:0] round, [7:4] denorm (hwreg 1)
  uint32_t trapsts = 0;              ///< TRAPSTS register (hwreg 3)
  uint32_t wave_id = 0;              ///< wave index within its work-group
  uint32_t lane_count = kWaveSize;   ///< work-items present in this wave (partial waves < 64)
  bool halted = false;               ///< executed s_endpgm (or faulted)
  uint64_t executed = 0;             ///< instructions executed (checked against the wave budget)
  bool at_barrier = false;           ///< waiting at s_barrier
  uint64_t scratch_base = 0;         ///< device address of this wave's private segment
  uint32_t scratch_bytes_per_lane = 0;

  uint64_t exec() const { return s[isa::opcode_field::kExecLo] | uint64_t{s[isa::opcode_field::kExecHi]} << 32; }
  void set_exec(uint64_t m) { s[isa::opcode_field::kExecLo] = uint32_t(m); s[isa::opcode_field::kExecHi] = uint32_t(m >> 32); }
  uint64_t vcc() const { return s[isa::opcode_field::kVccLo] | uint64_t{s[isa::opcode_field::kVccHi]} << 32; }
  void set_vcc(uint64_t m) { s[isa::opcode_field::kVccLo] = uint32_t(m); s[isa::opcode_field::kVccHi] = uint32_t(m >> 32); }
  uint32_t m0() const { return s[isa::opcode_field::kM0]; }

  /// Pointer to VGPR `reg`'s 64 lanes (no bounds check: the decoder/loader validated register use).
  uint32_t* vrow(uint32_t reg) { return &v[size_t(reg) * kWaveSize]; }
  const uint32_t* vrow(uint32_t reg) const { return &v[size_t(reg) * kWaveSize]; }

  /// Reads a 64-bit scalar pair starting at operand code `code`.
  uint64_t s64(uint16_t code) const { return s[code] | uint64_t{s[code + 1]} << 32; }
  void set_s64(uint16_t code, uint64_t x) { s[code] = uint32_t(x); s[code + 1] = uint32_t(x >> 32); }
};

/// Value of an inline constant (operand codes 128..248) interpreted as `t`.
uint64_t inline_constant(uint16_t code, OperandType t);

/// Value of a non-VGPR source operand (SGPR, special register, inline constant or literal),
/// zero-extended to 64 bits, as an instruction of type `t` sees it. For 64-bit types an SGPR
/// source reads the pair; a literal is the high half of an f64 and zero-extended for b64.
uint64_t scalar_source(const Wave& w, const isa::Inst& inst, uint16_t code, OperandType t);

/// True if the operand code names a VGPR.
inline bool is_vgpr(uint16_t code) { return code >= isa::opcode_field::kVgprFirst && code != isa::opcode_field::kNone; }

/// VGPR index of an operand code (code - 256).
inline uint32_t vgpr_index(uint16_t code) { return uint32_t(code) - isa::opcode_field::kVgprFirst; }

}  // namespace strobe::emu
