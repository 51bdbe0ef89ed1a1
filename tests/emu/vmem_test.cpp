// FLAT and MUBUF semantics: sub-dword loads, atomics' return values, aperture routing to LDS and
// scratch, swizzled private buffers, buffer range checks and global out-of-bounds faults.
#include <gtest/gtest.h>

#include "common/error.h"
#include "emu/dispatch_abi.h"
#include "emu_test_util.h"

namespace strobe::emu {
namespace {
using test::AsmLaunch;
using test::KdSpec;

// s[4:5] = out, s[6:7] = in (kernarg 0 and 8); v1 = tid*4; v[6:7] = out + tid*4; v[8:9] = in + tid*4.
const char* kPrologue = R"(
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_mov_b32 m0, -1
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v5, s5
  v_add_u32 v6, vcc, s4, v1
  v_addc_u32 v7, vcc, v5, 0, vcc
  v_mov_b32 v5, s7
  v_add_u32 v8, vcc, s6, v1
  v_addc_u32 v9, vcc, v5, 0, vcc
)";

struct Run {
  std::vector<uint32_t> out, in;
};

Run run_vmem(const std::string& body, uint32_t items, const std::vector<uint32_t>& in_init, KdSpec k = KdSpec{},
             size_t out_dwords = 0) {
  std::string src = std::string(kPrologue) + body + "\ns_endpgm";
  AsmLaunch l(src, k, {items, 1, 1}, {items, 1, 1});
  if (!out_dwords) out_dwords = items;
  uint64_t out = l.buffer({}, out_dwords);
  uint64_t in = l.buffer(in_init, std::max<size_t>(in_init.size(), 1));
  uint64_t args[2] = {out, in};
  l.mem.write(l.d.kernarg_address, args, 16);
  l.run();
  return {l.read(out, out_dwords), l.read(in, std::max<size_t>(in_init.size(), 1))};
}

TEST(Flat, ByteAndShortLoadsExtendBySignedness) {
  auto r = run_vmem(R"(
    flat_load_sbyte v10, v[8:9]
    flat_load_ubyte v11, v[8:9]
    flat_load_sshort v12, v[8:9]
    flat_load_ushort v13, v[8:9]
    s_waitcnt vmcnt(0)
    v_xor_b32 v10, v10, v11
    v_xor_b32 v10, v10, v12
    v_xor_b32 v10, v10, v13
    flat_store_dword v[6:7], v10)", 1, {0x1234F081});
  // sbyte 0xFFFFFF81 ^ ubyte 0x81 ^ sshort 0xFFFFF081 ^ ushort 0xF081
  EXPECT_EQ(r.out[0], 0xFFFFFF81u ^ 0x81u ^ 0xFFFFF081u ^ 0xF081u);
}

TEST(Flat, StoreByteAndShortTouchOnlyTheirBytes) {
  auto r = run_vmem(R"(
    v_mov_b32 v10, -1
    flat_store_dword v[6:7], v10
    v_mov_b32 v10, 0x1122
    flat_store_short v[6:7], v10
    v_mov_b32 v10, 0x33
    flat_store_byte v[6:7], v10)", 2, {});
  EXPECT_EQ(r.out[0], 0xFFFF1133u);
}

TEST(Flat, AtomicAddWithGlcReturnsOldValuesPerLane) {
  // All 64 lanes add tid+1 to in[0]: lane L sees 0 + 1 + ... + L.
  auto r = run_vmem(R"(
    v_mov_b32 v10, s6
    v_mov_b32 v11, s7
    v_add_u32 v12, vcc, 1, v0
    flat_atomic_add v13, v[10:11], v12 glc
    s_waitcnt vmcnt(0)
    flat_store_dword v[6:7], v13)", 64, {0});
  for (uint32_t t = 0; t < 64; ++t) ASSERT_EQ(r.out[t], t * (t + 1) / 2) << t;
  EXPECT_EQ(r.in[0], 64u * 65 / 2);
}

TEST(Flat, CmpswapX2TakesNewThenCompare) {
  auto r = run_vmem(R"(
    v_mov_b32 v10, s6
    v_mov_b32 v11, s7
    v_mov_b32 v12, 5
    v_mov_b32 v13, 6
    v_mov_b32 v14, 1
    v_mov_b32 v15, 2
    flat_atomic_cmpswap_x2 v[16:17], v[10:11], v[12:15] glc
    s_waitcnt vmcnt(0)
    flat_store_dwordx2 v[6:7], v[16:17])", 1, {1, 2}, KdSpec{}, 2);
  EXPECT_EQ(r.out[0], 1u);
  EXPECT_EQ(r.out[1], 2u);
  EXPECT_EQ(r.in[0], 5u);
  EXPECT_EQ(r.in[1], 6u);
}

TEST(Flat, SharedApertureAddressesReachLds) {
  KdSpec k;
  k.properties = 0x4 | 0x8;  // queue ptr s[0:1], kernarg s[2:3]
  k.user_sgprs = 4;
  k.lds = 256;
  // The prologue expects kernarg in s[0:1]: load the queue aperture first, then swap registers.
  std::string body = R"(
    v_mov_b32 v20, 0x1234
    ds_write_b32 v1, v20
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v21, s30
    flat_load_dword v22, v[1:2]
    s_waitcnt vmcnt(0) lgkmcnt(0)
    flat_store_dword v[6:7], v22)";
  std::string src = R"(
    s_load_dword s30, s[0:1], 0x40
    s_mov_b64 s[0:1], s[2:3]
    v_mov_b32 v2, 0
  )";
  std::string full = src + std::string(kPrologue) + "s_waitcnt lgkmcnt(0)\nv_mov_b32 v2, s30\n" + body + "\ns_endpgm";
  AsmLaunch l(full, k, {4, 1, 1}, {4, 1, 1});
  uint64_t out = l.buffer({}, 4), in = l.buffer({}, 4);
  uint64_t args[2] = {out, in};
  l.mem.write(l.d.kernarg_address, args, 16);
  l.run();
  auto o = l.read(out, 4);
  for (int t = 0; t < 4; ++t) EXPECT_EQ(o[t], 0x1234u);
}

TEST(Flat, PrivateApertureAliasesTheSwizzledScratchBuffer) {
  KdSpec k;
  k.properties = 0x1 | 0x8;  // private segment buffer s[0:3], kernarg s[4:5]
  k.user_sgprs = 6;
  k.scratch_offset = true;  // s7 (after work-group id x in s6)
  k.private_bytes = 16;
  std::string src = R"(
    s_mov_b64 s[20:21], s[0:1]
    s_mov_b64 s[22:23], s[2:3]
    s_mov_b32 s24, s7
    s_mov_b64 s[0:1], s[4:5]
  )" + std::string(kPrologue) + R"(
    v_add_u32 v10, vcc, 0x500, v0
    v_mov_b32 v11, 8
    buffer_store_dword v10, v11, s[20:23], s24 offen
    s_waitcnt vmcnt(0)
    v_mov_b32 v12, 8
    v_mov_b32 v13, 0x20000001
    flat_load_dword v14, v[12:13]
    s_waitcnt vmcnt(0)
    flat_store_dword v[6:7], v14
    s_endpgm)";
  AsmLaunch l(src, k, {64, 1, 1}, {64, 1, 1});
  uint64_t out = l.buffer({}, 64), in = l.buffer({}, 1);
  uint64_t args[2] = {out, in};
  l.mem.write(l.d.kernarg_address, args, 16);
  l.run();
  auto o = l.read(out, 64);
  for (uint32_t t = 0; t < 64; ++t) ASSERT_EQ(o[t], 0x500 + t) << t;
}

TEST(Flat, GlobalAccessOutsideAllocationFaultsWithAddress) {
  try {
    run_vmem(R"(
      v_add_u32 v8, vcc, 0x1000000, v8
      v_addc_u32 v9, vcc, 0, v9, vcc
      flat_load_dword v10, v[8:9])", 1, {1});
    FAIL() << "expected a fault";
  } catch (const FaultError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("flat_load_dword"), std::string::npos) << m;
    EXPECT_NE(m.find("outside every live allocation"), std::string::npos) << m;
    EXPECT_NE(m.find("work-group (0,0,0) wave 0"), std::string::npos) << m;
  }
}

// Builds a raw V# for `in` in s[12:15]: stride in `stride`, num_records in `records`.
std::string raw_vsharp(uint32_t stride, uint32_t records) {
  return "s_mov_b32 s12, s6\ns_and_b32 s13, s7, 0xffff\ns_or_b32 s13, s13, " + std::to_string(stride << 16) +
         "\ns_mov_b32 s14, " + std::to_string(records) + "\ns_mov_b32 s15, 0x27fac\n";
}

TEST(Mubuf, OffenLoadsAreRangeCheckedAgainstNumRecords) {
  auto r = run_vmem(raw_vsharp(0, 16) + R"(
    buffer_load_dword v10, v1, s[12:15], 0 offen
    s_waitcnt vmcnt(0)
    flat_store_dword v[6:7], v10)", 8, {1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(r.out, (std::vector<uint32_t>{1, 2, 3, 4, 0, 0, 0, 0}));
}

TEST(Mubuf, StoresBeyondNumRecordsAreDropped) {
  auto r = run_vmem(raw_vsharp(0, 8) + R"(
    v_mov_b32 v10, 9
    buffer_store_dword v10, v1, s[12:15], 0 offen)", 4, {1, 1, 1, 1});
  EXPECT_EQ(r.in, (std::vector<uint32_t>{9, 9, 1, 1}));
}

TEST(Mubuf, IdxenUsesStrideAndInstructionOffset) {
  auto r = run_vmem(raw_vsharp(8, 4) + R"(
    buffer_load_dword v10, v0, s[12:15], 0 idxen offset:4
    s_waitcnt vmcnt(0)
    flat_store_dword v[6:7], v10)", 4, {10, 11, 12, 13, 14, 15, 16, 17});
  EXPECT_EQ(r.out, (std::vector<uint32_t>{11, 13, 15, 17}));
}

TEST(Mubuf, AtomicWithGlcReturnsOldValue) {
  auto r = run_vmem(raw_vsharp(0, 64) + R"(
    v_mov_b32 v10, 3
    v_mov_b32 v11, 0
    buffer_atomic_add v10, v11, s[12:15], 0 offen glc
    s_waitcnt vmcnt(0)
    flat_store_dword v[6:7], v10)", 4, {100});
  EXPECT_EQ(r.out, (std::vector<uint32_t>{100, 103, 106, 109}));
  EXPECT_EQ(r.in[0], 112u);
}

TEST(Mubuf, ScratchBeyondPrivateSizeFaults) {
  KdSpec k;
  k.properties = 0x1 | 0x8;
  k.user_sgprs = 6;
  k.scratch_offset = true;
  k.private_bytes = 16;
  AsmLaunch l("v_mov_b32 v1, 16\nbuffer_store_dword v1, v1, s[0:3], s7 offen\ns_endpgm", k, {1, 1, 1}, {1, 1, 1});
  EXPECT_THROW(l.run(), FaultError);
}

}  // namespace
}  // namespace strobe::emu
