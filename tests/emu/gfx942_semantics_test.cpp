// gfx942 execution: snippets assembled by llvm-mc-19 for gfx942 and run on the emulator, checked
// against values worked out here from the MI300 ISA's definitions (packed math, op_sel, the
// mix fmas, D16 loads, the GLOBAL/SCRATCH segments, architected flat scratch, AccVGPRs, packed
// work-item IDs, LDS without the M0 clamp).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "common/error.h"
#include "emu/dispatch_abi.h"
#include "emu/emu_test_util.h"

namespace strobe::emu {
namespace {

using test::AsmLaunch;
using test::KdSpec;

/// A gfx942 snippet's descriptor: kernarg pointer in s[0:1], work-group id x in s2.
KdSpec gfx942_kd(uint32_t workitem_vgprs = 0) {
  KdSpec k;
  k.target = isa::Target::Gfx942;
  k.workitem_vgprs = workitem_vgprs;
  k.vgprs = 64;
  return k;
}

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

/// Runs `l` with a zeroed output buffer of `n` dwords as its first kernel argument, then reads it.
std::vector<uint32_t> run_to_buffer(AsmLaunch& l, size_t n) {
  const uint64_t out = l.buffer({}, n);
  l.mem.write(l.d.kernarg_address, &out, 8);
  l.run();
  return l.read(out, n);
}

TEST(Gfx942Semantics, WorkItemIdsArePackedInV0AndGlobalStoresAddSgprBaseVgprOffsetAndImmediate) {
  AsmLaunch l(R"(
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    v_and_b32 v1, 0x3ff, v0
    v_bfe_u32 v2, v0, 10, 10
    v_lshl_add_u32 v3, v2, 3, v1
    v_lshlrev_b32 v3, 2, v3
    s_waitcnt lgkmcnt(0)
    global_store_dword v3, v0, s[2:3] offset:4
    s_endpgm
  )", gfx942_kd(1), {8, 8, 1}, {8, 8, 1});
  const auto got = run_to_buffer(l, 65);
  EXPECT_EQ(got[0], 0u);
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 8; ++x) EXPECT_EQ(got[1 + y * 8 + x], x | y << 10) << x << "," << y;
}

TEST(Gfx942Semantics, PackedF32SelectsDwordsPerElementAndNegatesPerHalf) {
  AsmLaunch l(R"(
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    v_cvt_f32_u32 v2, v0
    v_mov_b32 v3, 0x40490fdb
    v_mov_b32 v4, 0x3fc00000
    v_mov_b32 v5, 0xc0200000
    v_mov_b32 v6, 0x3e800000
    v_add_f32 v7, 1.0, v2
    v_pk_fma_f32 v[8:9], v[2:3], v[4:5], v[6:7] op_sel:[1,0,0] op_sel_hi:[0,1,1] neg_lo:[0,0,1]
    v_pk_mov_b32 v[12:13], v[4:5], v[6:7] op_sel:[1,0]
    v_lshl_add_u64 v[14:15], v[6:7], 2, v[4:5]
    v_lshlrev_b32 v10, 5, v0
    s_waitcnt lgkmcnt(0)
    global_store_dwordx2 v10, v[8:9], s[2:3]
    global_store_dwordx2 v10, v[12:13], s[2:3] offset:8
    global_store_dwordx2 v10, v[14:15], s[2:3] offset:16
    s_endpgm
  )", gfx942_kd(), {64, 1, 1}, {64, 1, 1});
  const auto got = run_to_buffer(l, 64 * 8);
  const float pi = std::bit_cast<float>(0x40490fdbu);
  for (uint32_t lane = 0; lane < 64; ++lane) {
    const float a = float(lane);
    const uint32_t* g = &got[lane * 8];
    EXPECT_EQ(g[0], bits(std::fma(pi, 1.5f, -0.25f))) << lane;      // S0.hi * S1.lo - S2.lo
    EXPECT_EQ(g[1], bits(std::fma(a, -2.5f, a + 1.0f))) << lane;    // S0.lo * S1.hi + S2.hi
    EXPECT_EQ(g[2], bits(-2.5f)) << lane;                           // S0's dword 1
    EXPECT_EQ(g[3], bits(0.25f)) << lane;                           // S1's dword 0
    const uint64_t s0 = bits(0.25f) | uint64_t(bits(a + 1.0f)) << 32, s2 = bits(1.5f) | uint64_t(bits(-2.5f)) << 32;
    const uint64_t sum = (s0 << 2) + s2;
    EXPECT_EQ(g[4] | uint64_t(g[5]) << 32, sum) << lane;
  }
}

TEST(Gfx942Semantics, SixteenBitOpSelMixFmaAndPackedIntegerClamp) {
  AsmLaunch l(R"(
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    v_mov_b32 v2, 0x40003c00
    v_mov_b32 v3, 0x4200
    v_mov_b32 v4, 0x3800
    v_mov_b32 v1, 0x1234abcd
    v_fma_f16 v1, v2, v3, v4 op_sel:[1,0,0,1]
    v_pk_add_f16 v5, v2, 1.0 op_sel_hi:[1,0]
    v_mov_b32 v6, 0xdeadbeef
    v_mov_b32 v7, 0x40400000
    v_mov_b32 v8, 0x3f000000
    v_fma_mixlo_f16 v6, v7, v8, v8
    v_mov_b32 v9, 0xfff00010
    v_pk_add_u16 v9, v9, v9 clamp
    v_add_u32_e64 v11, v9, v9 clamp
    v_mov_b32 v12, 0x3c00
    v_fma_mix_f32 v12, v12, v7, v8 op_sel_hi:[1,0,0]
    v_mul_u32_u24 v10, 24, v0
    s_waitcnt lgkmcnt(0)
    global_store_dword v10, v1, s[2:3]
    global_store_dword v10, v5, s[2:3] offset:4
    global_store_dword v10, v6, s[2:3] offset:8
    global_store_dword v10, v9, s[2:3] offset:12
    global_store_dword v10, v11, s[2:3] offset:16
    global_store_dword v10, v12, s[2:3] offset:20
    s_endpgm
  )", gfx942_kd(), {64, 1, 1}, {64, 1, 1});
  const auto got = run_to_buffer(l, 64 * 6);
  for (uint32_t lane = 0; lane < 64; ++lane) {
    const uint32_t* g = &got[lane * 6];
    EXPECT_EQ(g[0], 0x4680abcdu) << "2.0 (S0's high half) * 3 + 0.5 = 6.5 into the high half, low kept";
    EXPECT_EQ(g[1], 0x42004000u) << "a constant in the low half, op_sel_hi 0: +1 on both halves";
    EXPECT_EQ(g[2], 0xdead4000u) << "3 * 0.5 + 0.5 = 2 as f16 in the low half, high kept";
    EXPECT_EQ(g[3], 0xffff0020u) << "0x10 + 0x10, and 0xfff0 + 0xfff0 saturated";
    EXPECT_EQ(g[4], 0xffffffffu) << "the unsigned add saturates under clamp";
    EXPECT_EQ(g[5], bits(3.5f)) << "f16 1.0 (op_sel_hi marks S0 f16) * f32 3 + f32 0.5";
  }
}

TEST(Gfx942Semantics, D16LoadsScratchFlatPrivateAccVgprsAndLdsWithoutM0) {
  KdSpec kd = gfx942_kd();
  kd.private_bytes = 16;
  kd.lds = 256;
  AsmLaunch l(R"(
    s_load_dwordx4 s[8:11], s[0:1], 0x0
    v_lshlrev_b32 v10, 2, v0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v1, 0x5555aaaa
    global_load_short_d16_hi v1, v10, s[10:11]
    s_waitcnt vmcnt(0)
    v_add_u32_e32 v2, 7, v0
    scratch_store_dword off, v2, off offset:8
    s_mov_b64 s[4:5], src_private_base
    v_mov_b32 v4, 12
    v_mov_b32 v5, s5
    flat_store_dword v[4:5], v1
    s_waitcnt vmcnt(0)
    scratch_load_dword v3, off, off offset:8
    scratch_load_dword v6, off, off offset:12
    s_waitcnt vmcnt(0)
    v_accvgpr_write_b32 a3, v3
    v_accvgpr_read_b32 v7, a3
    v_mov_b32 v8, s5
    s_mov_b32 m0, 0
    ds_write_b32 v10, v2
    s_waitcnt lgkmcnt(0)
    ds_read_b32 v9, v10
    s_waitcnt lgkmcnt(0)
    v_mul_u32_u24 v11, 20, v0
    global_store_dword v11, v1, s[8:9]
    global_store_dword v11, v7, s[8:9] offset:4
    global_store_dword v11, v6, s[8:9] offset:8
    global_store_dword v11, v8, s[8:9] offset:12
    global_store_dword v11, v9, s[8:9] offset:16
    s_endpgm
  )", kd, {64, 1, 1}, {64, 1, 1});
  std::vector<uint32_t> in(64);
  for (uint32_t i = 0; i < 64; ++i) in[i] = 0xbeef0000u | (0x100 + i);
  const uint64_t out = l.buffer({}, 64 * 5), src = l.buffer(in);
  const uint64_t args[2] = {out, src};
  l.mem.write(l.d.kernarg_address, args, sizeof args);
  l.run();
  const auto got = l.read(out, 64 * 5);
  for (uint32_t lane = 0; lane < 64; ++lane) {
    const uint32_t* g = &got[lane * 5];
    const uint32_t v1 = (0x100 + lane) << 16 | 0xaaaa;
    EXPECT_EQ(g[0], v1) << "the loaded short in the high half, the low half kept";
    EXPECT_EQ(g[1], lane + 7) << "through this lane's private memory and an AccVGPR";
    EXPECT_EQ(g[2], v1) << "a FLAT store to the private aperture is the SCRATCH segment's memory";
    EXPECT_EQ(g[3], kPrivateApertureHi) << "src_private_base read as 64 bits: the aperture in the high half";
    EXPECT_EQ(g[4], lane + 7) << "gfx942 does not clamp LDS at M0";
  }
}

TEST(Gfx942Semantics, IntegerDotProductsSumSignedOrUnsignedLanesAndClamp) {
  AsmLaunch l(R"(
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    v_mov_b32 v1, 0x80ff7f02
    v_mov_b32 v2, 0x7f80ff03
    v_mov_b32 v3, 0x64
    v_dot4_i32_i8 v4, v1, v2, v3
    v_dot4_u32_u8 v5, v1, v2, v3
    v_dot8_i32_i4 v6, v1, v2, v3
    v_dot2_u32_u16 v7, v1, v2, v3
    v_mov_b32 v8, 0x64
    v_dot2c_i32_i16 v8, v1, v2
    v_mov_b32 v9, 0xffffff00
    v_dot4_u32_u8 v9, v1, v2, v9 clamp
    v_mul_u32_u24 v10, 24, v0
    s_waitcnt lgkmcnt(0)
    global_store_dwordx4 v10, v[4:7], s[2:3]
    global_store_dwordx2 v10, v[8:9], s[2:3] offset:16
    s_endpgm
  )", gfx942_kd(), {64, 1, 1}, {64, 1, 1});
  const auto got = run_to_buffer(l, 64 * 6);
  // The reference reads the lanes through signed and unsigned narrow types.
  const uint32_t a = 0x80ff7f02u, b = 0x7f80ff03u;
  int64_t s8 = 0, u8 = 0, s4 = 0, u16 = 0, s16 = 0;
  for (int k = 0; k < 4; ++k) {
    s8 += int8_t(a >> (8 * k)) * int8_t(b >> (8 * k));
    u8 += uint8_t(a >> (8 * k)) * uint8_t(b >> (8 * k));
  }
  for (int k = 0; k < 8; ++k) s4 += ((int8_t(a >> (4 * k) << 4)) >> 4) * ((int8_t(b >> (4 * k) << 4)) >> 4);
  for (int k = 0; k < 2; ++k) {
    u16 += int64_t(uint16_t(a >> (16 * k))) * uint16_t(b >> (16 * k));
    s16 += int64_t(int16_t(a >> (16 * k))) * int16_t(b >> (16 * k));
  }
  for (uint32_t lane = 0; lane < 64; ++lane) {
    const uint32_t* g = &got[lane * 6];
    EXPECT_EQ(g[0], uint32_t(s8 + 100));
    EXPECT_EQ(g[1], uint32_t(u8 + 100));
    EXPECT_EQ(g[2], uint32_t(s4 + 100));
    EXPECT_EQ(g[3], uint32_t(u16 + 100));
    EXPECT_EQ(g[4], uint32_t(s16 + 100)) << "the VOP2 form accumulates into its destination";
    EXPECT_EQ(g[5], 0xffffffffu) << "clamp saturates the unsigned sum";
  }
}

TEST(Gfx942Semantics, FloatDotProductsSumBothHalvesIntoF32) {
  AsmLaunch l(R"(
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    v_mov_b32 v1, 0xc0003e00
    v_mov_b32 v2, 0x34004000
    v_mov_b32 v3, 0x41200000
    v_mov_b32 v4, 1.0
    v_dot2_f32_f16 v5, v1, v2, v3
    v_dot2c_f32_f16 v4, v1, v2
    v_dot2_f32_f16 v6, v1, v2, v3 neg_lo:[0,0,1]
    v_lshlrev_b32 v10, 4, v0
    s_waitcnt lgkmcnt(0)
    global_store_dwordx3 v10, v[4:6], s[2:3]
    s_endpgm
  )", gfx942_kd(), {64, 1, 1}, {64, 1, 1});
  const auto got = run_to_buffer(l, 64 * 4);
  // {1.5, -2} . {2, 0.25} = 2.5
  EXPECT_EQ(got[0], bits(3.5f)) << "v_dot2c accumulates into its destination (1 + 2.5)";
  EXPECT_EQ(got[1], bits(12.5f)) << "2.5 + 10";
  EXPECT_EQ(got[2], bits(-7.5f)) << "neg_lo on src2 negates C: 2.5 - 10";
}

TEST(Gfx942Semantics, AnInstructionWithoutSemanticsFaultsNamingItAndTheTarget) {
  AsmLaunch l(R"(
    v_mov_b32 v0, 0
    global_atomic_pk_add_f16 v0, v1, s[0:1]
    s_endpgm
  )", gfx942_kd(), {64, 1, 1}, {64, 1, 1});
  try {
    l.run();
    FAIL() << "a packed f16 atomic ran without semantics";
  } catch (const InputError& e) {  // exit 2: the code asks for what strobe cannot run yet
    EXPECT_NE(std::string(e.what()).find("not implemented: global_atomic_pk_add_f16 (GLOBAL) on gfx942"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace strobe::emu
