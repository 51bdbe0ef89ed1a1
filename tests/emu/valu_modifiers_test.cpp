// Input/output modifiers and the SDWA/DPP extensions, plus f16 arithmetic against an exact
// integer reference (every f16 sum/product/fma is exact as a 2^-48 fixed-point __int128).
#include <cmath>

#include "emu/float_util.h"
#include "emu/valu_test_util.h"

namespace strobe::emu::test {
namespace {

TEST(ValuModifiers, AbsNegClampOmodOnF32) {
  Wave w = make_wave();
  fill(w, 1, [] { return fbits(-0.75f); });
  fill(w, 2, [] { return fbits(0.5f); });
  Inst in = vop3(Op::V_ADD_F32, V(3), V(1), V(2));
  in.abs = 1;  // |a| + b = 1.25
  exec(w, in);
  EXPECT_EQ(bitsf(w.vrow(3)[0]), 1.25f);
  in.neg = 3;  // -|a| + -b = -1.25
  exec(w, in);
  EXPECT_EQ(bitsf(w.vrow(3)[0]), -1.25f);
  in.omod = 1;  // *2
  exec(w, in);
  EXPECT_EQ(bitsf(w.vrow(3)[0]), -2.5f);
  in.omod = 3;  // /2
  in.clamp = 1;
  exec(w, in);
  EXPECT_EQ(w.vrow(3)[0], 0u) << "clamp of a negative is +0";
  in.neg = 0, in.abs = 0, in.omod = 2, in.clamp = 1;  // (-0.75 + 0.5) * 4 clamped
  exec(w, in);
  EXPECT_EQ(w.vrow(3)[0], 0u);
  in.src[0] = V(2);  // (0.5 + 0.5) * 4 -> clamp to 1
  exec(w, in);
  EXPECT_EQ(bitsf(w.vrow(3)[0]), 1.0f);
  // NaN under clamp: 0 with DX10_CLAMP, NaN without
  fill(w, 4, [] { return 0x7FC00000u; });
  Inst c = vop3(Op::V_MUL_F32, V(3), V(4), V(2));
  c.clamp = 1;
  w.mode = 0x1F0;
  exec(w, c);
  EXPECT_EQ(w.vrow(3)[0], 0u);
  w.mode = 0xF0;
  exec(w, c);
  EXPECT_TRUE(std::isnan(bitsf(w.vrow(3)[0])));
}

TEST(ValuModifiers, NegOnF64AndF16FlipsTheRightBit) {
  Wave w = make_wave();
  for (int l = 0; l < kWaveSize; ++l) set64(w, 2, l, dbits(1.5)), set64(w, 4, l, dbits(-2.0));
  Inst in = vop3(Op::V_MUL_F64, V(6), V(2), V(4));
  in.neg = 1;
  in.abs = 2;
  exec(w, in);
  EXPECT_EQ(bitsd(get64(w, 6, 0)), -3.0);
  fill(w, 1, [] { return 0xABCD3C00u; });  // f16 1.0 with junk in the high half
  fill(w, 2, [] { return 0x00004000u; });  // 2.0
  Inst h = vop3(Op::V_ADD_F16, V(3), V(1), V(2));
  h.neg = 1;
  exec(w, h);
  EXPECT_EQ(w.vrow(3)[0], 0x3C00u) << "-1 + 2 = 1, high half zeroed";
}

TEST(ValuSdwa, SourceSelectsSignExtendAndDestinationPlacement) {
  Wave w = make_wave();
  fill(w, 1, [] { return 0x80FF7F05u; });
  fill(w, 2, [] { return 0x00030002u; });
  fill(w, 3, [] { return 0xAAAAAAAAu; });
  Inst in = vop2(Op::V_ADD_U32, V(3), V(1), V(2));
  in.ext = VopExt::SDWA;
  in.sdwa_src_sel[0] = 1;  // BYTE_1 = 0x7F
  in.sdwa_src_sel[1] = 5;  // WORD_1 = 3
  in.sdwa_dst_sel = 4;     // WORD_0
  in.sdwa_dst_unused = 2;  // preserve
  exec(w, in);
  EXPECT_EQ(w.vrow(3)[0], 0xAAAA0082u);
  in.sdwa_src_sel[0] = 3;  // BYTE_3 = 0x80, sign-extended = -128
  in.sdwa_sext = 1;
  in.sdwa_dst_sel = 1;     // BYTE_1
  in.sdwa_dst_unused = 1;  // sext
  exec(w, in);
  EXPECT_EQ(w.vrow(3)[0], 0xFFFF8300u) << "-125 = 0x83 in byte 1, sign-filled above";
  in.sdwa_dst_unused = 0;  // pad
  exec(w, in);
  EXPECT_EQ(w.vrow(3)[0], 0x00008300u);
  // f16 op on the high half: WORD_1 selects, result placed in WORD_1, low half preserved
  fill(w, 4, [] { return 0x3C001234u; });
  fill(w, 5, [] { return 0x40000000u; });
  fill(w, 6, [] { return 0x0000BEEFu; });
  Inst h = vop2(Op::V_MUL_F16, V(6), V(4), V(5));
  h.ext = VopExt::SDWA;
  h.sdwa_src_sel[0] = 5, h.sdwa_src_sel[1] = 5, h.sdwa_dst_sel = 5, h.sdwa_dst_unused = 2;
  exec(w, h);
  EXPECT_EQ(w.vrow(6)[0], 0x4000BEEFu);
}

TEST(ValuSdwa, CompareWritesVcc) {
  Wave w = make_wave();
  for (int l = 0; l < kWaveSize; ++l) w.vrow(1)[l] = uint32_t(l) << 8, w.vrow(2)[l] = 32;
  Inst in = vopc(Op::V_CMP_LT_U32, V(1), V(2));
  in.ext = VopExt::SDWA;
  in.sdwa_src_sel[0] = 1;  // BYTE_1 = lane index
  exec(w, in);
  EXPECT_EQ(w.vcc(), 0xFFFFFFFFull);
}

/// Reference DPP source lane (independent restatement of the ISA table).
int dpp_src(uint16_t ctrl, int l) {
  if (ctrl < 0x100) return (l / 4) * 4 + ((ctrl >> (2 * (l % 4))) & 3);
  if (ctrl > 0x100 && ctrl < 0x110) return (l % 16) + (ctrl - 0x100) < 16 ? l + (ctrl - 0x100) : -1;
  if (ctrl > 0x110 && ctrl < 0x120) return (l % 16) >= (ctrl - 0x110) ? l - (ctrl - 0x110) : -1;
  if (ctrl > 0x120 && ctrl < 0x130) return (l / 16) * 16 + ((l % 16) + 16 - (ctrl - 0x120)) % 16;
  if (ctrl == 0x130) return l == 63 ? -1 : l + 1;
  if (ctrl == 0x134) return (l + 1) % 64;
  if (ctrl == 0x138) return l == 0 ? -1 : l - 1;
  if (ctrl == 0x13C) return (l + 63) % 64;
  if (ctrl == 0x140) return (l / 16) * 16 + 15 - l % 16;
  if (ctrl == 0x141) return (l / 8) * 8 + 7 - l % 8;
  if (ctrl == 0x142) return l >= 16 ? (l / 16) * 16 - 1 : -1;
  if (ctrl == 0x143) return l >= 32 ? 31 : -1;
  return -1;
}

TEST(ValuDpp, EveryControlWithMasksAndBoundCtrl) {
  std::mt19937_64 g(31);
  std::vector<uint16_t> ctrls = {0x1B, 0xE4, 0x4E, 0x130, 0x134, 0x138, 0x13C, 0x140, 0x141, 0x142, 0x143};
  for (int n = 1; n < 16; ++n) ctrls.push_back(uint16_t(0x100 + n)), ctrls.push_back(uint16_t(0x110 + n)), ctrls.push_back(uint16_t(0x120 + n));
  for (uint16_t ctrl : ctrls) {
    for (int variant = 0; variant < 4; ++variant) {
      Wave w = make_wave();
      const uint64_t exec_mask = variant == 3 ? g() : ~0ull;
      w.set_exec(exec_mask);
      for (int l = 0; l < kWaveSize; ++l) w.vrow(1)[l] = 1000 + l, w.vrow(2)[l] = 5, w.vrow(3)[l] = 0xDEAD;
      Inst in = vop2(Op::V_ADD_U32, V(3), V(1), V(2));
      in.ext = VopExt::DPP;
      in.dpp_ctrl = ctrl;
      in.dpp_bound_ctrl = variant & 1;
      in.dpp_row_mask = variant == 2 ? 0x5 : 0xF;
      in.dpp_bank_mask = variant == 2 ? 0xA : 0xF;
      exec(w, in);
      for (int l = 0; l < kWaveSize; ++l) {
        uint32_t want = 0xDEAD;
        int s = dpp_src(ctrl, l);
        bool row_on = (in.dpp_row_mask >> (l / 16)) & 1, bank_on = (in.dpp_bank_mask >> ((l / 4) % 4)) & 1;
        bool valid = s >= 0 && ((exec_mask >> s) & 1);
        if (((exec_mask >> l) & 1) && row_on && bank_on) {
          if (valid) want = 1000 + s + 5;
          else if (in.dpp_bound_ctrl) want = 5;
        }
        ASSERT_EQ(w.vrow(3)[l], want) << "ctrl " << std::hex << ctrl << " variant " << variant << " lane " << std::dec << l;
      }
    }
  }
}

// ---- f16 arithmetic against exact fixed-point arithmetic

/// Rounds the exact value s * 2^-48 to f16 (nearest even).
uint32_t fixed_to_half(__int128 s) {
  uint32_t sign = s < 0 ? 0x8000 : 0;
  unsigned __int128 m = s < 0 ? -(unsigned __int128)s : s;
  if (m == 0) return sign;
  int msb = 127;
  while (!((m >> msb) & 1)) --msb;
  int e = msb - 48;                      // value in [2^e, 2^(e+1))
  int qe = std::max(e - 10, -24);        // weight of the last kept bit
  int drop = qe + 48;
  unsigned __int128 q = m >> drop, rem = m & (((unsigned __int128)1 << drop) - 1), half = (unsigned __int128)1 << (drop - 1);
  if (rem > half || (rem == half && (q & 1))) ++q;
  uint64_t bits = (uint64_t(qe + 24) << 10) + uint64_t(q);
  return bits >= 0x7C00 ? sign | 0x7C00 : sign | uint32_t(bits);
}
__int128 half_fixed(uint32_t h, int scale) { return __int128(std::ldexp(fp::h2d(h), 24)) << scale; }

TEST(ValuF16, AddMulFmaMatchExactArithmetic) {
  std::mt19937_64 g(44);
  Wave w = make_wave();
  auto finite_half = [&] {
    uint32_t h;
    do h = uint32_t(g()) & 0xFFFF;
    while ((h & 0x7C00) == 0x7C00);
    return h;
  };
  for (int it = 0; it < 40; ++it) {
    fill(w, 1, finite_half);
    fill(w, 2, finite_half);
    fill(w, 4, finite_half);
    exec(w, vop2(Op::V_ADD_F16, V(3), V(1), V(2)));
    exec(w, vop2(Op::V_MUL_F16, V(5), V(1), V(2)));
    exec(w, vop3(Op::V_FMA_F16, V(6), V(1), V(2), V(4)));
    for (int l = 0; l < kWaveSize; ++l) {
      uint32_t a = w.vrow(1)[l], b = w.vrow(2)[l], c = w.vrow(4)[l];
      __int128 fa = half_fixed(a, 24), fb = half_fixed(b, 24);
      ASSERT_EQ(w.vrow(3)[l], fixed_to_half(fa + fb)) << std::hex << a << " + " << b;
      __int128 p = half_fixed(a, 0) * half_fixed(b, 0);
      ASSERT_EQ(w.vrow(5)[l] & 0x7FFF, fixed_to_half(p) & 0x7FFF) << std::hex << a << " * " << b;
      uint32_t want = fixed_to_half(p + half_fixed(c, 24));
      uint32_t got = w.vrow(6)[l];
      if ((want & 0x7FFF) == 0) got &= 0x7FFF, want &= 0x7FFF;  // zero signs checked elsewhere
      ASSERT_EQ(got, want) << std::hex << a << " * " << b << " + " << c;
    }
  }
}

TEST(ValuF16, ConversionsRoundToNearestEven) {
  std::mt19937_64 g(45);
  Wave w = make_wave();
  fill(w, 1, [&] { return rand_f32(g); });
  exec(w, vop2(Op::V_CVT_F16_F32, V(2), V(1)));
  for (int l = 0; l < kWaveSize; ++l) {
    float x = bitsf(w.vrow(1)[l]);
    _Float16 h = (_Float16)x;
    uint16_t hb;
    std::memcpy(&hb, &h, 2);
    if (std::isnan(x)) ASSERT_TRUE(fp::nan16(w.vrow(2)[l]));
    else ASSERT_EQ(w.vrow(2)[l], hb) << std::hexfloat << x;
  }
  exec(w, vop2(Op::V_CVT_F32_F16, V(3), V(2)));
  for (int l = 0; l < kWaveSize; ++l) {
    _Float16 h;
    uint16_t hb = uint16_t(w.vrow(2)[l]);
    std::memcpy(&h, &hb, 2);
    ASSERT_TRUE(same32(w.vrow(3)[l], fbits(float(h))));
  }
  Inst rtz = vop3(Op::V_CVT_PKRTZ_F16_F32, V(4), V(1), V(1));
  exec(w, rtz);
  for (int l = 0; l < kWaveSize; ++l) {
    float x = bitsf(w.vrow(1)[l]);
    if (std::isnan(x)) continue;
    uint32_t lo = w.vrow(4)[l] & 0xFFFF;
    ASSERT_LE(std::fabs(fp::h2d(lo)), std::fabs(double(x))) << "round toward zero";
    ASSERT_EQ(w.vrow(4)[l] >> 16, lo);
  }
}

}  // namespace
}  // namespace strobe::emu::test
