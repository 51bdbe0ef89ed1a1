// Cross-lane scalar/vector moves and the lane-count helpers clang's atomic optimizer emits.
#include <bit>

#include "emu/operands.h"

namespace strobe::emu {

namespace {
using isa::Op;

// v_readlane_b32 sdst, vsrc0, ssrc1: the lane select is taken modulo 64.
void v_readlane_b32(Wave& w, const isa::Inst& in, ExecContext&) {
  const int lane = int(ssrc32(w, in, 1) & 63);
  sdst32(w, in.dst, vsrc32(w, in, 0, lane));
}

// v_writelane_b32 vdst, ssrc0, ssrc1: writes one lane regardless of EXEC.
void v_writelane_b32(Wave& w, const isa::Inst& in, ExecContext&) {
  const int lane = int(ssrc32(w, in, 1) & 63);
  w.vrow(vgpr_index(in.dst))[lane] = ssrc32(w, in, 0);
}

// v_readfirstlane_b32: the lowest active lane (lane 0 when EXEC is empty).
void v_readfirstlane_b32(Wave& w, const isa::Inst& in, ExecContext&) {
  const uint64_t e = w.exec();
  const int lane = e ? std::countr_zero(e) : 0;
  sdst32(w, in.dst, vsrc32(w, in, 0, lane));
}

// v_mbcnt_lo/hi: count of set mask bits in lanes below this one (low/high half) plus src1.
template <bool Hi>
void v_mbcnt(Wave& w, const isa::Inst& in, ExecContext&) {
  const uint64_t e = w.exec();
  uint32_t* d = w.vrow(vgpr_index(in.dst));
  for (int l = 0; l < kWaveSize; ++l) {
    if (!lane_on(e, l)) continue;
    const uint32_t mask = vsrc32(w, in, 0, l);
    const int below = Hi ? l - 32 : l;  // lanes of this half below l
    const uint32_t m = below <= 0 ? 0u : below >= 32 ? 0xFFFFFFFFu : (1u << below) - 1;
    d[l] = uint32_t(std::popcount(mask & m)) + vsrc32(w, in, 1, l);
  }
}
}  // namespace

void register_lane_ops(HandlerTable& t) {
  t.set(Op::V_READLANE_B32, v_readlane_b32);
  t.set(Op::V_WRITELANE_B32, v_writelane_b32);
  t.set(Op::V_READFIRSTLANE_B32, v_readfirstlane_b32);
  t.set(Op::V_MBCNT_LO_U32_B32, v_mbcnt<false>);
  t.set(Op::V_MBCNT_HI_U32_B32, v_mbcnt<true>);
}

}  // namespace strobe::emu
