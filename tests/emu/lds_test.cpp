// DS semantics and barriers: LDS exchange across waves, atomics' return values, two-address
// forms, cross-lane permutes, M0 clamping and out-of-bounds faults.
#include <gtest/gtest.h>

#include "common/error.h"
#include "emu_test_util.h"

namespace strobe::emu {
namespace {
using test::AsmLaunch;
using test::KdSpec;

// Prologue: s[2:3] = out pointer (kernarg 0); v1 = tid * 4; v6:v7 = out + tid * 4; m0 = -1.
const char* kPrologue = R"(
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_mov_b32 m0, -1
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v5, s3
  v_add_u32 v6, vcc, s2, v1
  v_addc_u32 v7, vcc, v5, 0, vcc
)";

struct LdsRun {
  std::vector<uint32_t> out;
  DispatchStats stats;
};

LdsRun run_lds(const std::string& body, uint32_t items, uint32_t lds = 4096, size_t out_dwords = 0) {
  KdSpec k;
  k.lds = lds;
  std::string src = std::string(kPrologue) + body + "\ns_endpgm";
  AsmLaunch l(src, k, {items, 1, 1}, {items, 1, 1});
  if (!out_dwords) out_dwords = items;
  uint64_t out = l.buffer({}, out_dwords);
  l.mem.write(l.d.kernarg_address, &out, 8);
  LdsRun r;
  r.stats = l.run();
  r.out = l.read(out, out_dwords);
  return r;
}

TEST(Lds, BarrierLetsWavesSeeEachOthersWrites) {
  auto r = run_lds(R"(
    v_add_u32 v2, vcc, 0x3e8, v0
    ds_write_b32 v1, v2
    s_waitcnt lgkmcnt(0)
    s_barrier
    v_add_u32 v3, vcc, 64, v0
    v_and_b32 v3, 0xff, v3
    v_lshlrev_b32 v3, 2, v3
    ds_read_b32 v4, v3
    s_waitcnt lgkmcnt(0)
    flat_store_dword v[6:7], v4)", 256);
  for (uint32_t t = 0; t < 256; ++t) ASSERT_EQ(r.out[t], ((t + 64) & 255) + 1000) << t;
  EXPECT_EQ(r.stats.lds_instructions, 4u * 2);
}

TEST(Lds, AtomicAddReturnsPreviousValuesInLaneOrder) {
  auto r = run_lds(R"(
    v_mov_b32 v2, 0
    v_mov_b32 v3, 1
    ds_add_rtn_u32 v4, v2, v3
    s_waitcnt lgkmcnt(0)
    flat_store_dword v[6:7], v4)", 64);
  for (uint32_t t = 0; t < 64; ++t) ASSERT_EQ(r.out[t], t);
}

TEST(Lds, CompareStoreUsesData0AsCompareAndData1AsNewValue) {
  // Every lane tries 0 -> tid+1 at address 0: only lane 0 succeeds; all see the old value.
  auto r = run_lds(R"(
    v_mov_b32 v2, 0
    v_mov_b32 v3, 0
    v_add_u32 v8, vcc, 1, v0
    ds_cmpst_rtn_b32 v4, v2, v3, v8
    s_waitcnt lgkmcnt(0)
    ds_read_b32 v9, v2
    s_waitcnt lgkmcnt(0)
    v_add_u32 v4, vcc, v4, v9
    flat_store_dword v[6:7], v4)", 64);
  EXPECT_EQ(r.out[0], 0u + 1u);
  for (uint32_t t = 1; t < 64; ++t) ASSERT_EQ(r.out[t], 1u + 1u);
}

TEST(Lds, MinMaxIncDecAndExchangeReturnOldValues) {
  auto r = run_lds(R"(
    v_mov_b32 v2, 0
    v_mov_b32 v3, 10
    ds_write_b32 v2, v3
    v_mov_b32 v3, 3
    ds_min_rtn_u32 v10, v2, v3
    ds_max_rtn_i32 v11, v2, v3
    v_mov_b32 v3, 100
    ds_inc_rtn_u32 v12, v2, v3
    ds_dec_rtn_u32 v13, v2, v3
    ds_wrxchg_rtn_b32 v14, v2, v3
    ds_read_b32 v15, v2
    s_waitcnt lgkmcnt(0)
    v_cmp_eq_u32 vcc, 0, v0
    s_and_saveexec_b64 s[10:11], vcc
    flat_store_dword v[6:7], v10
    v_add_u32 v6, vcc, 4, v6
    flat_store_dword v[6:7], v11
    v_add_u32 v6, vcc, 4, v6
    flat_store_dword v[6:7], v12
    v_add_u32 v6, vcc, 4, v6
    flat_store_dword v[6:7], v13
    v_add_u32 v6, vcc, 4, v6
    flat_store_dword v[6:7], v14
    v_add_u32 v6, vcc, 4, v6
    flat_store_dword v[6:7], v15)", 1, 4096, 6);
  // Single lane: min(10,3)=3 (old 10); max(3,3) old 3; inc old 3 -> 4; dec old 4 -> 3; xchg old 3 -> 100.
  EXPECT_EQ(r.out[0], 10u);
  EXPECT_EQ(r.out[1], 3u);
  EXPECT_EQ(r.out[2], 3u);
  EXPECT_EQ(r.out[3], 4u);
  EXPECT_EQ(r.out[4], 3u);
  EXPECT_EQ(r.out[5], 100u);
}

TEST(Lds, Read2Write2St64AndSubDwordForms) {
  auto r = run_lds(R"(
    v_add_u32 v2, vcc, 0x100, v0
    v_add_u32 v3, vcc, 0x200, v0
    ds_write2st64_b32 v1, v2, v3 offset0:1 offset1:2
    s_waitcnt lgkmcnt(0)
    ds_read2st64_b32 v[8:9], v1 offset0:1 offset1:2
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, vcc, v8, v9
    v_mov_b32 v11, 0xff80
    ds_write_b16 v1, v11
    ds_read_i16 v12, v1
    ds_read_u8 v13, v1
    ds_read_i8 v14, v1
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, vcc, v10, v12
    v_add_u32 v10, vcc, v10, v13
    v_add_u32 v10, vcc, v10, v14
    flat_store_dword v[6:7], v10)", 64);
  // (0x100+t) + (0x200+t) + (-128) + 0x80 + (-128)
  for (uint32_t t = 0; t < 64; ++t) ASSERT_EQ(r.out[t], 0x300 + 2 * t - 128) << t;
}

// Regression: ds_read2 wrote its first element before reading the second address, so a
// destination that is also the address register (LLVM emits ds_read2_b32 v[2:3], v2) sent the
// second read to the first element's value. Whole-wave and partial-EXEC paths both.
TEST(Lds, RegressionRead2WhoseDestinationIsItsAddressRegister) {
  for (const char* exec : {"s_mov_b64 exec, -1", "s_mov_b32 exec_hi, 0x7fffffff"}) {
    auto r = run_lds(std::string(R"(
      v_add_u32 v2, vcc, 0x100, v0
      v_add_u32 v3, vcc, 0x200, v0
      ds_write2_b32 v1, v2, v3 offset1:64
      s_waitcnt lgkmcnt(0)
      v_mov_b32 v8, v1
      )") + exec + R"(
      ds_read2_b32 v[8:9], v8 offset1:64
      s_waitcnt lgkmcnt(0)
      s_mov_b64 exec, -1
      v_add_u32 v10, vcc, v8, v9
      flat_store_dword v[6:7], v10)", 64);
    for (uint32_t t = 0; t < 63; ++t) ASSERT_EQ(r.out[t], 0x300 + 2 * t) << exec << " lane " << t;
  }
}

TEST(Lds, BpermuteAndSwizzleMoveDataAcrossLanes) {
  auto r = run_lds(R"(
    v_sub_u32 v2, vcc, 63, v0
    v_lshlrev_b32 v2, 2, v2
    ds_bpermute_b32 v3, v2, v0
    ds_swizzle_b32 v4, v0 offset:swizzle(QUAD_PERM, 1, 0, 3, 2)
    s_waitcnt lgkmcnt(0)
    v_lshlrev_b32 v4, 8, v4
    v_or_b32 v3, v3, v4
    flat_store_dword v[6:7], v3)", 64);
  for (uint32_t t = 0; t < 64; ++t) ASSERT_EQ(r.out[t], (63 - t) | ((t ^ 1) << 8)) << t;
}

TEST(Lds, AccessBeyondM0ReadsZeroAndDropsWrites) {
  auto r = run_lds(R"(
    v_mov_b32 v2, 7
    ds_write_b32 v1, v2
    s_mov_b32 m0, 64
    v_mov_b32 v2, 9
    ds_write_b32 v1, v2
    ds_read_b32 v3, v1
    s_waitcnt lgkmcnt(0)
    flat_store_dword v[6:7], v3)", 64);
  for (uint32_t t = 0; t < 16; ++t) ASSERT_EQ(r.out[t], 9u) << t;  // below the M0 limit
  for (uint32_t t = 16; t < 64; ++t) ASSERT_EQ(r.out[t], 0u) << t;
}

TEST(Lds, OutOfBoundsAccessFaultsNamingKernelWaveAndAddress) {
  try {
    run_lds(R"(
      v_add_u32 v1, vcc, 0x400, v1
      ds_read_b32 v3, v1)", 128, 1024);
    FAIL() << "expected a fault";
  } catch (const FaultError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("test_kernel"), std::string::npos) << m;
    EXPECT_NE(m.find("wave 0"), std::string::npos) << m;
    EXPECT_NE(m.find("PC 0x"), std::string::npos) << m;
    EXPECT_NE(m.find("ds_read_b32"), std::string::npos) << m;
    EXPECT_NE(m.find("0x400"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace strobe::emu
