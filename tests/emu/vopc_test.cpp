// Vector compares: every predicate of every type against a C++ reference, EXEC handling for
// v_cmpx, e64 sdst destinations, v_cmp_class masks, and a few decoded real encodings run
// end-to-end through the decoder and the VALU handlers.
#include <cmath>
#include <vector>

#include "emu/float_util.h"
#include "isa/decoder.h"
#include "emu/valu_test_util.h"

namespace strobe::emu::test {
namespace {

bool fref(int p, double a, double b) {
  bool un = std::isnan(a) || std::isnan(b);
  switch (p) {
    case 0: return false;
    case 1: return !un && a < b;
    case 2: return !un && a == b;
    case 3: return !un && a <= b;
    case 4: return !un && a > b;
    case 5: return !un && a != b;
    case 6: return !un && a >= b;
    case 7: return !un;
    case 8: return un;
    case 9: return un || a < b;
    case 10: return un || a == b;
    case 11: return un || a <= b;
    case 12: return un || a > b;
    case 13: return un || a != b;
    case 14: return un || a >= b;
    default: return true;
  }
}
template <class T>
bool iref(int p, T a, T b) {
  const bool r[8] = {false, a < b, a == b, a <= b, a > b, a != b, a >= b, true};
  return r[p];
}

TEST(Vopc, FloatPredicatesAllTypes) {
  std::mt19937_64 g(50);
  Wave w = make_wave();
  for (int type = 0; type < 3; ++type) {
    const Op first = type == 0 ? Op::V_CMP_F_F16 : type == 1 ? Op::V_CMP_F_F32 : Op::V_CMP_F_F64;
    for (int it = 0; it < 4; ++it) {
      for (int l = 0; l < kWaveSize; ++l) {
        uint64_t a, b;
        if (type == 0) a = g() & 0xFFFF, b = l % 5 == 0 ? a : g() & 0xFFFF;
        else if (type == 1) a = rand_f32(g), b = l % 5 == 0 ? a : rand_f32(g);
        else a = rand_f64(g), b = l % 5 == 0 ? a : rand_f64(g);
        set64(w, 2, l, a), set64(w, 4, l, b);
      }
      for (int p = 0; p < 16; ++p) {
        exec(w, vopc(Op(int(first) + p), V(2), V(4)));
        uint64_t want = 0;
        for (int l = 0; l < kWaveSize; ++l) {
          double a, b;
          if (type == 0) a = fp::h2d(w.vrow(2)[l] & 0xFFFF), b = fp::h2d(w.vrow(4)[l] & 0xFFFF);
          else if (type == 1) a = bitsf(w.vrow(2)[l]), b = bitsf(w.vrow(4)[l]);
          else a = bitsd(get64(w, 2, l)), b = bitsd(get64(w, 4, l));
          want |= uint64_t(fref(p, a, b)) << l;
        }
        ASSERT_EQ(w.vcc(), want) << "type " << type << " predicate " << p;
      }
    }
  }
}

TEST(Vopc, IntegerPredicatesAllTypes) {
  std::mt19937_64 g(51);
  Wave w = make_wave();
  const Op firsts[6] = {Op::V_CMP_F_I16, Op::V_CMP_F_U16, Op::V_CMP_F_I32, Op::V_CMP_F_U32, Op::V_CMP_F_I64, Op::V_CMP_F_U64};
  for (int t = 0; t < 6; ++t) {
    for (int l = 0; l < kWaveSize; ++l) {
      uint64_t a = g(), b = l % 4 == 0 ? a : g();
      if (l % 7 == 0) b ^= 1ull << 63 | 1ull << 31 | 1ull << 15;
      set64(w, 2, l, a), set64(w, 4, l, b);
    }
    for (int p = 0; p < 8; ++p) {
      Inst in = vop3(Op(int(firsts[t]) + p), of::kNone, V(2), V(4));
      in.sdst = 30;
      exec(w, in);
      uint64_t want = 0;
      for (int l = 0; l < kWaveSize; ++l) {
        uint64_t a = get64(w, 2, l), b = get64(w, 4, l);
        bool r;
        switch (t) {
          case 0: r = iref<int16_t>(p, int16_t(a), int16_t(b)); break;
          case 1: r = iref<uint16_t>(p, uint16_t(a), uint16_t(b)); break;
          case 2: r = iref<int32_t>(p, int32_t(a), int32_t(b)); break;
          case 3: r = iref<uint32_t>(p, uint32_t(a), uint32_t(b)); break;
          case 4: r = iref<int64_t>(p, int64_t(a), int64_t(b)); break;
          default: r = iref<uint64_t>(p, a, b); break;
        }
        want |= uint64_t(r) << l;
      }
      ASSERT_EQ(w.s64(30), want) << "type " << t << " predicate " << p;
    }
  }
}

TEST(Vopc, CmpxWritesExecAndInactiveLanesAreZero) {
  Wave w = make_wave();
  for (int l = 0; l < kWaveSize; ++l) w.vrow(1)[l] = uint32_t(l);
  w.set_exec(0x00FF00FF00FF00FFull);
  exec(w, vopc(Op::V_CMPX_GT_U32, V(1), uint16_t(of::kIntZero + 20)));  // v1 > 20 is false
  EXPECT_EQ(w.exec(), 0x00FF00FF00FF0000ull & ~0x00000000001F0000ull);
  EXPECT_EQ(w.vcc(), w.exec());
  w.set_exec(~0ull);
  w.lane_count = 40;
  exec(w, vopc(Op::V_CMP_T_U32, V(1), V(1)));
  EXPECT_EQ(w.vcc(), (1ull << 40) - 1);
}

TEST(Vopc, ClassMasks) {
  Wave w = make_wave();
  const uint32_t xs[10] = {0x7F800001, 0x7FC00000, 0xFF800000, 0xBF800000, 0x80000001,
                           0x80000000, 0x00000000, 0x00000001, 0x3F800000, 0x7F800000};
  for (int l = 0; l < 10; ++l) w.vrow(1)[l] = xs[l];
  w.set_exec(0x3FF);
  for (int bit = 0; bit < 10; ++bit) {
    Inst in = vop3(Op::V_CMP_CLASS_F32, of::kNone, V(1), uint16_t(of::kIntZero));
    in.src[1] = of::kLiteral;
    in.literal = 1u << bit;
    in.sdst = 40;
    exec(w, in);
    EXPECT_EQ(w.s64(40), 1ull << bit) << bit;
  }
  for (int l = 0; l < 10; ++l) set64(w, 2, l, xs[l] == 0x7F800001 ? 0x7FF0000000000001ull : fp::b64(double(bitsf(xs[l]))));
  set64(w, 2, 4, 0x8000000000000001ull), set64(w, 2, 7, 1);
  fill(w, 4, [] { return 0x3FFu; });
  exec(w, vopc(Op::V_CMP_CLASS_F64, V(2), V(4)));
  EXPECT_EQ(w.vcc(), 0x3FFull);
}

// ---- decoded encodings (llvm-mc -arch=amdgcn -mcpu=gfx803 -show-encoding)

isa::Inst decode_bytes(std::vector<uint8_t> b) {
  std::vector<uint32_t> words((b.size() + 3) / 4);
  std::memcpy(words.data(), b.data(), b.size());
  return isa::decode(words);
}

TEST(ValuDecoded, Vop3ModifiersAndVop3bCarry) {
  Wave w = make_wave();
  fill(w, 2, [] { return fbits(-0.25f); });
  fill(w, 3, [] { return fbits(-0.5f); });
  // v_add_f32_e64 v1, -v2, |v3| clamp mul:2  -> (0.25 + 0.5) * 2 = 1.5 -> clamp 1.0
  exec(w, decode_bytes({0x01, 0x82, 0x01, 0xd1, 0x02, 0x07, 0x02, 0x28}));
  EXPECT_EQ(bitsf(w.vrow(1)[0]), 1.0f);
  // v_mad_f32 v1, v2, 2.0, v3 -> -0.5 + -0.5
  exec(w, decode_bytes({0x01, 0x00, 0xc1, 0xd1, 0x02, 0xe9, 0x0d, 0x04}));
  EXPECT_EQ(bitsf(w.vrow(1)[0]), -1.0f);
  // v_addc_u32_e64 v1, s[4:5], v2, v3, s[6:7]
  fill(w, 2, [] { return 0xFFFFFFFFu; });
  fill(w, 3, [] { return 0u; });
  w.set_s64(6, 0xAAAAAAAAAAAAAAAAull);
  exec(w, decode_bytes({0x01, 0x04, 0x1c, 0xd1, 0x02, 0x07, 0x1a, 0x00}));
  EXPECT_EQ(w.s64(4), 0xAAAAAAAAAAAAAAAAull);
  EXPECT_EQ(w.vrow(1)[1], 0u);
  EXPECT_EQ(w.vrow(1)[0], 0xFFFFFFFFu);
  // v_add_u32_e32 v1, vcc, 17, v3
  exec(w, decode_bytes({0x91, 0x06, 0x02, 0x32}));
  EXPECT_EQ(w.vrow(1)[5], 17u);
  EXPECT_EQ(w.vcc(), 0u);
}

TEST(ValuDecoded, LiteralsMadkAndCompares) {
  Wave w = make_wave();
  fill(w, 2, [] { return fbits(2.0f); });
  fill(w, 3, [] { return fbits(3.0f); });
  // v_mul_f32_e32 v1, 0x40490fdb, v2
  exec(w, decode_bytes({0xff, 0x04, 0x02, 0x0a, 0xdb, 0x0f, 0x49, 0x40}));
  EXPECT_EQ(bitsf(w.vrow(1)[0]), bitsf(0x40490fdb) * 2.0f);
  // v_madmk_f32 v1, v2, 10.0, v3 -> 23 ; v_madak_f32 v1, v2, v3, 10.0 -> 16
  exec(w, decode_bytes({0x02, 0x07, 0x02, 0x2e, 0x00, 0x00, 0x20, 0x41}));
  EXPECT_EQ(bitsf(w.vrow(1)[0]), 23.0f);
  exec(w, decode_bytes({0x02, 0x07, 0x02, 0x30, 0x00, 0x00, 0x20, 0x41}));
  EXPECT_EQ(bitsf(w.vrow(1)[0]), 16.0f);
  // v_cmp_lt_f32_e32 vcc, v2, v3 (encoded for v1, v2: set v1 < v2 on even lanes)
  for (int l = 0; l < kWaveSize; ++l) w.vrow(1)[l] = fbits(l % 2 ? 5.0f : 1.0f);
  exec(w, decode_bytes({0x01, 0x05, 0x82, 0x7c}));
  EXPECT_EQ(w.vcc(), 0x5555555555555555ull);
  // v_cmp_gt_i32_e64 s[8:9], v1, 5 (v1 as int)
  for (int l = 0; l < kWaveSize; ++l) w.vrow(1)[l] = uint32_t(l);
  exec(w, decode_bytes({0x08, 0x00, 0xc4, 0xd0, 0x01, 0x0b, 0x01, 0x00}));
  EXPECT_EQ(w.s64(8), ~0ull << 6);
  // v_lshlrev_b64 v[0:1], 3, v[2:3]
  for (int l = 0; l < kWaveSize; ++l) set64(w, 2, l, 0x1000000001ull);
  exec(w, decode_bytes({0x00, 0x00, 0x8f, 0xd2, 0x83, 0x04, 0x02, 0x00}));
  EXPECT_EQ(get64(w, 0, 3), 0x8000000008ull);
}

TEST(ValuDecoded, SdwaAndDpp) {
  Wave w = make_wave();
  // v_add_f32_sdwa v1, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:WORD_0
  fill(w, 2, [] { return 0x00000300u; });     // BYTE_1 = 3 -> as f32 bits 3 (denormal)
  fill(w, 3, [] { return 0xFFFF0000u; });     // WORD_0 = 0
  fill(w, 1, [] { return 0x1234ABCDu; });
  exec(w, decode_bytes({0xf9, 0x06, 0x02, 0x02, 0x02, 0x15, 0x01, 0x04}));
  EXPECT_EQ(w.vrow(1)[0], 0x0003ABCDu) << "low 16 bits of the f32 sum 3 (denormal) into WORD_1";
  // v_mov_b32_dpp v1, v2 row_shr:1 bound_ctrl (bit set): lane 0 of each row reads 0
  for (int l = 0; l < kWaveSize; ++l) w.vrow(2)[l] = 100 + l;
  exec(w, decode_bytes({0xfa, 0x02, 0x02, 0x7e, 0x02, 0x11, 0x09, 0xff}));
  EXPECT_EQ(w.vrow(1)[0], 0u);
  EXPECT_EQ(w.vrow(1)[17], 116u);
  // v_add_u32_dpp v1, vcc, v2, v3 quad_perm:[1,0,3,2] row_mask:0xa
  fill(w, 3, [] { return 1u; });
  fill(w, 1, [] { return 7u; });
  exec(w, decode_bytes({0xfa, 0x06, 0x02, 0x32, 0x02, 0xb1, 0x00, 0xaf}));
  EXPECT_EQ(w.vrow(1)[0], 7u) << "row 0 disabled";
  EXPECT_EQ(w.vrow(1)[16], 100u + 17 + 1);
  EXPECT_EQ(w.vrow(1)[17], 100u + 16 + 1);
}

}  // namespace
}  // namespace strobe::emu::test
