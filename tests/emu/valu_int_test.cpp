// Integer vector ALU ops against C++ reference computations on random inputs, plus carries,
// partial EXEC, scalar/inline/literal sources and 64-bit and 16-bit forms.
#include <algorithm>
#include <bit>
#include <functional>

#include "emu/valu_test_util.h"

namespace strobe::emu::test {
namespace {

using Ref2 = std::function<uint32_t(uint32_t, uint32_t)>;
using Ref3 = std::function<uint32_t(uint32_t, uint32_t, uint32_t)>;

int32_t s24(uint32_t x) { return int32_t(x << 8) >> 8; }

uint32_t rand_int(std::mt19937_64& g) {
  switch (g() % 4) {
    case 0: return uint32_t(g() % 70);            // small shift amounts / widths
    case 1: return uint32_t(int32_t(g() % 64) - 32);
    default: return uint32_t(g());
  }
}

void check_binary(Op op, const Ref2& ref, bool e64) {
  std::mt19937_64 g{uint64_t(op)};
  Wave w = make_wave();
  for (int it = 0; it < 20; ++it) {
    fill(w, 1, [&] { return rand_int(g); });
    fill(w, 2, [&] { return rand_int(g); });
    Inst in = e64 ? vop3(op, V(3), V(1), V(2)) : vop2(op, V(3), V(1), V(2));
    exec(w, in);
    for (int l = 0; l < kWaveSize; ++l)
      ASSERT_EQ(w.vrow(3)[l], ref(w.vrow(1)[l], w.vrow(2)[l])) << "op " << int(op) << " lane " << l;
  }
}
void check_ternary(Op op, const Ref3& ref) {
  std::mt19937_64 g{uint64_t(op) * 7};
  Wave w = make_wave();
  for (int it = 0; it < 20; ++it) {
    fill(w, 1, [&] { return rand_int(g); });
    fill(w, 2, [&] { return rand_int(g); });
    fill(w, 4, [&] { return rand_int(g); });
    exec(w, vop3(op, V(3), V(1), V(2), V(4)));
    for (int l = 0; l < kWaveSize; ++l)
      ASSERT_EQ(w.vrow(3)[l], ref(w.vrow(1)[l], w.vrow(2)[l], w.vrow(4)[l])) << "op " << int(op) << " lane " << l;
  }
}

TEST(ValuInt, BinaryOpsMatchReference) {
  const std::pair<Op, Ref2> cases[] = {
      {Op::V_MUL_I32_I24, [](uint32_t a, uint32_t b) { return uint32_t(int64_t(s24(a)) * s24(b)); }},
      {Op::V_MUL_HI_I32_I24, [](uint32_t a, uint32_t b) { return uint32_t((int64_t(s24(a)) * s24(b)) >> 32); }},
      {Op::V_MUL_U32_U24, [](uint32_t a, uint32_t b) { return (a & 0xFFFFFF) * (b & 0xFFFFFF); }},
      {Op::V_MUL_HI_U32_U24, [](uint32_t a, uint32_t b) { return uint32_t((uint64_t(a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 32); }},
      {Op::V_MIN_I32, [](uint32_t a, uint32_t b) { return uint32_t(std::min(int32_t(a), int32_t(b))); }},
      {Op::V_MAX_I32, [](uint32_t a, uint32_t b) { return uint32_t(std::max(int32_t(a), int32_t(b))); }},
      {Op::V_MIN_U32, [](uint32_t a, uint32_t b) { return std::min(a, b); }},
      {Op::V_MAX_U32, [](uint32_t a, uint32_t b) { return std::max(a, b); }},
      {Op::V_LSHRREV_B32, [](uint32_t a, uint32_t b) { return b >> (a % 32); }},
      {Op::V_ASHRREV_I32, [](uint32_t a, uint32_t b) { return uint32_t(int32_t(b) >> (a % 32)); }},
      {Op::V_LSHLREV_B32, [](uint32_t a, uint32_t b) { return b << (a % 32); }},
      {Op::V_AND_B32, [](uint32_t a, uint32_t b) { return a & b; }},
      {Op::V_OR_B32, [](uint32_t a, uint32_t b) { return a | b; }},
      {Op::V_XOR_B32, [](uint32_t a, uint32_t b) { return a ^ b; }},
      {Op::V_MUL_LO_U32, [](uint32_t a, uint32_t b) { return a * b; }},
      {Op::V_MUL_HI_U32, [](uint32_t a, uint32_t b) { return uint32_t((uint64_t(a) * b) >> 32); }},
      {Op::V_MUL_HI_I32, [](uint32_t a, uint32_t b) { return uint32_t((int64_t(int32_t(a)) * int32_t(b)) >> 32); }},
      {Op::V_BCNT_U32_B32, [](uint32_t a, uint32_t b) { return uint32_t(std::popcount(a)) + b; }},
      {Op::V_BFM_B32, [](uint32_t a, uint32_t b) { return uint32_t(((1ull << (a % 32)) - 1) << (b % 32)); }},
      {Op::V_CVT_PK_U16_U32, [](uint32_t a, uint32_t b) { return std::min(a, 0xFFFFu) | std::min(b, 0xFFFFu) << 16; }},
      {Op::V_CVT_PK_I16_I32, [](uint32_t a, uint32_t b) {
         auto s = [](uint32_t x) { return uint32_t(std::clamp(int32_t(x), -32768, 32767)) & 0xFFFF; };
         return s(a) | s(b) << 16;
       }},
  };
  for (auto& [op, ref] : cases) {
    bool has_e32 = op < Op::V_MUL_LO_U32 || op == Op::V_LSHLREV_B32;
    check_binary(op, ref, !has_e32 || int(op) % 2);
  }
}

TEST(ValuInt, TernaryOpsMatchReference) {
  const std::pair<Op, Ref3> cases[] = {
      {Op::V_MAD_I32_I24, [](uint32_t a, uint32_t b, uint32_t c) { return uint32_t(int64_t(s24(a)) * s24(b) + int32_t(c)); }},
      {Op::V_MAD_U32_U24, [](uint32_t a, uint32_t b, uint32_t c) { return (a & 0xFFFFFF) * (b & 0xFFFFFF) + c; }},
      {Op::V_BFE_U32, [](uint32_t a, uint32_t b, uint32_t c) {
         uint64_t w = c % 32, o = b % 32;
         return uint32_t((uint64_t(a) >> o) & ((1ull << w) - 1));
       }},
      {Op::V_BFE_I32, [](uint32_t a, uint32_t b, uint32_t c) {
         int w = c % 32, o = b % 32;
         if (w == 0) return 0u;
         int64_t f = int64_t(int32_t(a)) >> o;  // arithmetic: bits above 31 are the sign
         uint64_t m = (1ull << w) - 1;
         uint64_t v = uint64_t(f) & m;
         if (v >> (w - 1)) v |= ~m;
         return uint32_t(v);
       }},
      {Op::V_BFI_B32, [](uint32_t a, uint32_t b, uint32_t c) { return (a & b) | (~a & c); }},
      {Op::V_ALIGNBIT_B32, [](uint32_t a, uint32_t b, uint32_t c) { return uint32_t(((uint64_t(a) << 32) | b) >> (c % 32)); }},
      {Op::V_ALIGNBYTE_B32, [](uint32_t a, uint32_t b, uint32_t c) { return uint32_t(((uint64_t(a) << 32) | b) >> (8 * (c % 4))); }},
      {Op::V_MIN3_I32, [](uint32_t a, uint32_t b, uint32_t c) { return uint32_t(std::min({int32_t(a), int32_t(b), int32_t(c)})); }},
      {Op::V_MAX3_U32, [](uint32_t a, uint32_t b, uint32_t c) { return std::max({a, b, c}); }},
      {Op::V_MED3_I32, [](uint32_t a, uint32_t b, uint32_t c) {
         int32_t v[3] = {int32_t(a), int32_t(b), int32_t(c)};
         std::sort(v, v + 3);
         return uint32_t(v[1]);
       }},
      {Op::V_MED3_U32, [](uint32_t a, uint32_t b, uint32_t c) {
         uint32_t v[3] = {a, b, c};
         std::sort(v, v + 3);
         return v[1];
       }},
      {Op::V_SAD_U8, [](uint32_t a, uint32_t b, uint32_t c) {
         for (int i = 0; i < 4; ++i) c += uint32_t(std::abs(int((a >> 8 * i) & 255) - int((b >> 8 * i) & 255)));
         return c;
       }},
      {Op::V_MSAD_U8, [](uint32_t a, uint32_t b, uint32_t c) {
         for (int i = 0; i < 4; ++i)
           if ((b >> 8 * i) & 255) c += uint32_t(std::abs(int((a >> 8 * i) & 255) - int((b >> 8 * i) & 255)));
         return c;
       }},
      {Op::V_SAD_U16, [](uint32_t a, uint32_t b, uint32_t c) {
         return c + uint32_t(std::abs(int(a & 0xFFFF) - int(b & 0xFFFF)) + std::abs(int(a >> 16) - int(b >> 16)));
       }},
      {Op::V_SAD_U32, [](uint32_t a, uint32_t b, uint32_t c) { return (a > b ? a - b : b - a) + c; }},
      {Op::V_LERP_U8, [](uint32_t a, uint32_t b, uint32_t c) {
         uint32_t r = 0;
         for (int i = 0; i < 4; ++i) r |= ((((a >> 8 * i) & 255) + ((b >> 8 * i) & 255) + ((c >> 8 * i) & 1)) >> 1) << 8 * i;
         return r;
       }},
  };
  for (auto& [op, ref] : cases) check_ternary(op, ref);
}

TEST(ValuInt, BitScansAndReverse) {
  Wave w = make_wave();
  const uint32_t xs[] = {0, 1, 0x80000000u, 0xFFFFFFFFu, 0x40000000u, 0xBFFFFFFFu, 0x00F00000u, 0xFFFF0000u};
  for (int l = 0; l < kWaveSize; ++l) w.vrow(1)[l] = xs[l % 8];
  exec(w, vop2(Op::V_FFBH_U32, V(2), V(1)));
  exec(w, vop2(Op::V_FFBL_B32, V(3), V(1)));
  exec(w, vop2(Op::V_FFBH_I32, V(4), V(1)));
  exec(w, vop2(Op::V_BFREV_B32, V(5), V(1)));
  exec(w, vop2(Op::V_NOT_B32, V(6), V(1)));
  const uint32_t hu[] = {~0u, 31, 0, 0, 1, 0, 8, 0};
  const uint32_t fl[] = {~0u, 0, 31, 0, 30, 0, 20, 16};
  const uint32_t hi[] = {~0u, 31, 1, ~0u, 1, 1, 8, 16};
  for (int l = 0; l < 8; ++l) {
    EXPECT_EQ(w.vrow(2)[l], hu[l]) << l;
    EXPECT_EQ(w.vrow(3)[l], fl[l]) << l;
    EXPECT_EQ(w.vrow(4)[l], hi[l]) << l;
    uint32_t r = 0;
    for (int b = 0; b < 32; ++b) r |= ((xs[l] >> b) & 1) << (31 - b);
    EXPECT_EQ(w.vrow(5)[l], r);
    EXPECT_EQ(w.vrow(6)[l], ~xs[l]);
  }
}

TEST(ValuInt, PermSelectsBytesSignsAndConstants) {
  Wave w = make_wave();
  for (int l = 0; l < kWaveSize; ++l) {
    w.vrow(1)[l] = 0x80FF7F01u;  // high dword: bytes 4..7
    w.vrow(2)[l] = 0x04038201u;  // low dword: bytes 0..3
  }
  w.vrow(4)[0] = 0x00010203u;  // bytes 3,2,1,0 -> byte-reverse of low
  w.vrow(4)[1] = 0x0C0D0809u;  // 0x00, 0xFF, sign(byte1)=1, sign(byte3)=0
  w.vrow(4)[2] = 0x07060504u;
  exec(w, vop3(Op::V_PERM_B32, V(3), V(1), V(2), V(4)));
  EXPECT_EQ(w.vrow(3)[0], 0x01820304u);
  EXPECT_EQ(w.vrow(3)[1], 0x00FFFF00u);
  EXPECT_EQ(w.vrow(3)[2], 0x80FF7F01u);
}

TEST(ValuInt, AddSubCarryToVccAndSdst) {
  std::mt19937_64 g(5);
  Wave w = make_wave();
  fill(w, 1, [&] { return g() % 3 ? uint32_t(g()) : 0xFFFFFFFFu; });
  fill(w, 2, [&] { return uint32_t(g()); });
  const uint64_t exec_mask = 0xF0F0F0F0FFFF0001ull;
  w.set_exec(exec_mask);
  fill(w, 3, [] { return 0xDEADBEEFu; });
  exec(w, vop2(Op::V_ADD_U32, V(3), V(1), V(2)));
  uint64_t carry = 0;
  for (int l = 0; l < kWaveSize; ++l) {
    uint64_t s = uint64_t(w.vrow(1)[l]) + w.vrow(2)[l];
    if ((exec_mask >> l) & 1) {
      EXPECT_EQ(w.vrow(3)[l], uint32_t(s));
      carry |= (s >> 32) << l;
    } else {
      EXPECT_EQ(w.vrow(3)[l], 0xDEADBEEFu) << "inactive lane written";
    }
  }
  EXPECT_EQ(w.vcc(), carry);
  // addc e64: carry-in from s[6:7], carry-out to s[4:5]
  const uint64_t cin = 0x123456789ABCDEF0ull;
  w.set_s64(6, cin);
  Inst addc = vop3(Op::V_ADDC_U32, V(5), V(1), V(2), 6);
  addc.sdst = 4;
  exec(w, addc);
  uint64_t co = 0;
  for (int l = 0; l < kWaveSize; ++l) {
    if (!((exec_mask >> l) & 1)) continue;
    uint64_t s = uint64_t(w.vrow(1)[l]) + w.vrow(2)[l] + ((cin >> l) & 1);
    EXPECT_EQ(w.vrow(5)[l], uint32_t(s));
    co |= (s >> 32) << l;
  }
  EXPECT_EQ(w.s64(4), co);
  // subb / subbrev with VCC in and out (VCC read before it is overwritten)
  w.set_exec(~0ull);
  w.set_vcc(cin);
  exec(w, vop2(Op::V_SUBBREV_U32, V(6), V(1), V(2)));
  uint64_t bo = 0;
  for (int l = 0; l < kWaveSize; ++l) {
    uint64_t d = uint64_t(w.vrow(2)[l]) - w.vrow(1)[l] - ((cin >> l) & 1);
    EXPECT_EQ(w.vrow(6)[l], uint32_t(d));
    bo |= ((d >> 32) & 1) << l;
  }
  EXPECT_EQ(w.vcc(), bo);
}

TEST(ValuInt, ClampSaturatesUnsignedAddSub) {
  Wave w = make_wave();
  fill(w, 1, [] { return 0xFFFFFFF0u; });
  fill(w, 2, [] { return 0x20u; });
  Inst add = vop3(Op::V_ADD_U32, V(3), V(1), V(2));
  add.sdst = 10;
  add.clamp = 1;
  exec(w, add);
  EXPECT_EQ(w.vrow(3)[7], 0xFFFFFFFFu);
  Inst sub = vop3(Op::V_SUB_U32, V(3), V(2), V(1));
  sub.sdst = 10;
  sub.clamp = 1;
  exec(w, sub);
  EXPECT_EQ(w.vrow(3)[7], 0u);
  EXPECT_EQ(w.s64(10), ~0ull);  // borrow in every lane
}

TEST(ValuInt, SixtyFourBitShiftsAndMad) {
  std::mt19937_64 g(9);
  Wave w = make_wave();
  fill(w, 1, [&] { return g() % 80; });
  fill(w, 2, [&] { return g(); }, true);
  fill(w, 4, [&] { return uint32_t(g()); });
  fill(w, 5, [&] { return uint32_t(g()); });
  fill(w, 6, [&] { return g(); }, true);
  exec(w, vop3(Op::V_LSHLREV_B64, V(8), V(1), V(2)));
  exec(w, vop3(Op::V_LSHRREV_B64, V(10), V(1), V(2)));
  exec(w, vop3(Op::V_ASHRREV_I64, V(12), V(1), V(2)));
  Inst madu = vop3(Op::V_MAD_U64_U32, V(14), V(4), V(5), V(6));
  madu.sdst = 20;
  exec(w, madu);
  Inst madi = vop3(Op::V_MAD_I64_I32, V(16), V(4), V(5), V(6));
  madi.sdst = 22;
  exec(w, madi);
  uint64_t cu = 0, ci = 0;
  for (int l = 0; l < kWaveSize; ++l) {
    unsigned s = w.vrow(1)[l] % 64;
    uint64_t x = get64(w, 2, l), c = get64(w, 6, l);
    EXPECT_EQ(get64(w, 8, l), x << s);
    EXPECT_EQ(get64(w, 10, l), x >> s);
    EXPECT_EQ(get64(w, 12, l), uint64_t(int64_t(x) >> s));
    unsigned __int128 pu = (unsigned __int128)(uint64_t(w.vrow(4)[l]) * w.vrow(5)[l]) + c;
    EXPECT_EQ(get64(w, 14, l), uint64_t(pu));
    cu |= uint64_t(pu >> 64 & 1) << l;
    __int128 pi = __int128(int64_t(int32_t(w.vrow(4)[l])) * int32_t(w.vrow(5)[l])) + int64_t(c);
    EXPECT_EQ(get64(w, 16, l), uint64_t(pi));
    ci |= uint64_t((unsigned __int128)pi >> 64 & 1) << l;
  }
  EXPECT_EQ(w.s64(20), cu);
  EXPECT_EQ(w.s64(22), ci);
}

TEST(ValuInt, SixteenBitOpsZeroTheHighHalf) {
  std::mt19937_64 g(11);
  Wave w = make_wave();
  fill(w, 1, [&] { return uint32_t(g()); });
  fill(w, 2, [&] { return uint32_t(g()); });
  struct C {
    Op op;
    std::function<uint32_t(uint32_t, uint32_t)> ref;
  } cases[] = {
      {Op::V_ADD_U16, [](uint32_t a, uint32_t b) { return (a + b) & 0xFFFF; }},
      {Op::V_SUB_U16, [](uint32_t a, uint32_t b) { return (a - b) & 0xFFFF; }},
      {Op::V_SUBREV_U16, [](uint32_t a, uint32_t b) { return (b - a) & 0xFFFF; }},
      {Op::V_MUL_LO_U16, [](uint32_t a, uint32_t b) { return (a * b) & 0xFFFF; }},
      {Op::V_LSHLREV_B16, [](uint32_t a, uint32_t b) { return (b << (a & 15)) & 0xFFFF; }},
      {Op::V_LSHRREV_B16, [](uint32_t a, uint32_t b) { return (b & 0xFFFF) >> (a & 15); }},
      {Op::V_ASHRREV_I16, [](uint32_t a, uint32_t b) { return uint32_t(int16_t(b) >> (a & 15)) & 0xFFFF; }},
      {Op::V_MAX_I16, [](uint32_t a, uint32_t b) { return uint32_t(std::max(int16_t(a), int16_t(b))) & 0xFFFF; }},
      {Op::V_MIN_U16, [](uint32_t a, uint32_t b) { return std::min(a & 0xFFFF, b & 0xFFFF); }},
  };
  for (auto& c : cases) {
    exec(w, vop2(c.op, V(3), V(1), V(2)));
    for (int l = 0; l < kWaveSize; ++l) ASSERT_EQ(w.vrow(3)[l], c.ref(w.vrow(1)[l], w.vrow(2)[l])) << int(c.op);
  }
  Inst mad = vop3(Op::V_MAD_U16, V(3), V(1), V(2), V(1));
  mad.clamp = 1;
  exec(w, mad);
  for (int l = 0; l < kWaveSize; ++l) {
    uint32_t a = w.vrow(1)[l] & 0xFFFF, b = w.vrow(2)[l] & 0xFFFF;
    ASSERT_EQ(w.vrow(3)[l], std::min(a * b + a, 0xFFFFu));
  }
}

TEST(ValuInt, ScalarInlineAndLiteralSourcesBroadcast) {
  Wave w = make_wave();
  fill(w, 1, [] { return 100u; });
  w.s[7] = 5;
  exec(w, vop2(Op::V_SUB_U32, V(2), 7, V(1)));  // s7 - v1
  EXPECT_EQ(w.vrow(2)[63], uint32_t(5 - 100));
  exec(w, vop2(Op::V_ADD_U32, V(2), uint16_t(of::kIntNegFirst + 2), V(1)));  // -3 + v1
  EXPECT_EQ(w.vrow(2)[0], 97u);
  Inst lit = vop2(Op::V_MUL_LO_U32, V(2), of::kLiteral, V(1));
  lit.enc = Encoding::VOP3;
  lit.literal = 0x10001;
  exec(w, lit);
  EXPECT_EQ(w.vrow(2)[9], 100u * 0x10001u);
}

TEST(ValuInt, PartialWaveOnlyWritesPresentLanes) {
  Wave w = make_wave();
  w.lane_count = 20;
  fill(w, 1, [] { return 1u; });
  fill(w, 3, [] { return 7u; });
  exec(w, vop2(Op::V_ADD_U32, V(3), V(1), V(1)));
  EXPECT_EQ(w.vrow(3)[19], 2u);
  EXPECT_EQ(w.vrow(3)[20], 7u);
  EXPECT_EQ(w.vcc(), 0u);
}

TEST(ValuInt, QuadSadAccumulates) {
  Wave w = make_wave();
  set64(w, 1, 0, 0x0706050403020100ull);
  w.vrow(3)[0] = 0x04030201u;
  set64(w, 4, 0, 0x0004000300020001ull);
  w.set_exec(1);
  exec(w, vop3(Op::V_QSAD_PK_U16_U8, V(6), V(1), V(3), V(4)));
  // shift i compares bytes i..i+3 of src0 with 1,2,3,4: |i+k - (k+1)| summed = 4*|i-1|
  EXPECT_EQ(get64(w, 6, 0), 0x000C000700020005ull);  // SADs 4,0,4,8 plus accumulators 1,2,3,4
}

}  // namespace
}  // namespace strobe::emu::test
