// Inline operand accessors shared by the scalar, lane and memory semantics (internal to emu).
#pragma once

#include <cstdint>

#include "emu/semantics.h"
#include "emu/wave.h"

namespace strobe::emu {

/// 32-bit scalar source `i` (SGPR fast path, else constant/literal/special).
inline uint32_t ssrc32(const Wave& w, const isa::Inst& in, int i) {
  uint16_t c = in.src[i];
  return c < 128 ? w.s[c] : uint32_t(scalar_source(w, in, c, OperandType::B32));
}

/// 64-bit scalar source `i` (SGPR pair fast path).
inline uint64_t ssrc64(const Wave& w, const isa::Inst& in, int i) {
  uint16_t c = in.src[i];
  return c < 127 ? w.s64(c) : scalar_source(w, in, c, OperandType::B64);
}

/// Writes a 32-bit scalar destination (codes >= 128 name no register and are dropped).
inline void sdst32(Wave& w, uint16_t code, uint32_t v) {
  if (code < 128) w.s[code] = v;
}

/// Writes a 64-bit scalar destination pair.
inline void sdst64(Wave& w, uint16_t code, uint64_t v) {
  if (code < 127) w.set_s64(code, v);
}

/// Source `i` of a vector instruction as lane `lane` sees it (VGPR, or a scalar broadcast).
inline uint32_t vsrc32(const Wave& w, const isa::Inst& in, int i, int lane) {
  uint16_t c = in.src[i];
  if (is_vgpr(c)) return w.vrow(vgpr_index(c))[lane];
  return c < 128 ? w.s[c] : uint32_t(scalar_source(w, in, c, OperandType::B32));
}

/// True if lane `l` of mask `m` is set.
inline bool lane_on(uint64_t m, int l) { return (m >> l) & 1; }

}  // namespace strobe::emu
