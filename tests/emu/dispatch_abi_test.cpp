// Initial wavefront state per the AMDGPU dispatch ABI, grid decomposition and the queue layout.
#include <gtest/gtest.h>

#include "common/error.h"
#include "emu/dispatch_abi.h"
#include "emu_test_util.h"

namespace strobe::emu {
namespace {
using test::AsmLaunch;
using test::KdSpec;
namespace of = isa::opcode_field;

KdSpec everything() {
  KdSpec k;
  k.properties = 0x7F;  // all seven user SGPR kinds: 4+2+2+2+2+2+1 = 15
  k.user_sgprs = 15;
  k.wg_id_x = k.wg_id_y = k.wg_id_z = k.wg_info = k.scratch_offset = true;
  k.workitem_vgprs = 2;
  k.private_bytes = 20;
  k.float_mode = 0xF0;
  return k;
}

TEST(DispatchAbi, UserAndSystemSgprsFollowTheEnabledOrder) {
  AsmLaunch l("s_endpgm", everything(), {100, 6, 4}, {8, 4, 2});
  l.d.dispatch_id = 0x1234567890ull;
  Executor ex(l.d, l.mem);
  ASSERT_EQ(ex.groups(), (std::array<uint32_t, 3>{13, 2, 2}));
  WorkGroup wg;
  const uint64_t linear = 12 + 13 * 1 + 26 * 1;  // group (12, 1, 1): partial in x and y
  ex.init_workgroup(wg, linear);
  EXPECT_EQ(wg.size, (std::array<uint32_t, 3>{4, 2, 2}));
  ASSERT_EQ(wg.waves.size(), 1u);
  const Wave& w = wg.waves[0];
  auto desc = private_segment_descriptor(ex.scratch());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(w.s[i], desc[i]);
  EXPECT_EQ(w.s64(4), ex.dispatch().packet_address);
  EXPECT_EQ(w.s64(6), ex.dispatch().queue_address);
  EXPECT_EQ(w.s64(8), l.d.kernarg_address);
  EXPECT_EQ(w.s64(10), 0x1234567890ull);
  EXPECT_EQ(w.s[12], 0u);   // flat scratch init: offset from the private base
  EXPECT_EQ(w.s[13], 32u);  // ... and per-lane size (20 rounded to 16-byte granules)
  EXPECT_EQ(w.s[14], 32u);  // private segment size
  EXPECT_EQ(w.s[15], 12u);  // work-group id x, y, z
  EXPECT_EQ(w.s[16], 1u);
  EXPECT_EQ(w.s[17], 1u);
  EXPECT_EQ(w.s[18], 0x80000001u);  // first wave, one wave in the group
  EXPECT_EQ(w.s[19], 0u);           // private segment wave byte offset (slot 0, wave 0)
  EXPECT_EQ(w.exec(), 0xFFFFu);     // 4*2*2 work-items present
  EXPECT_EQ(w.mode & 0xFF, 0xF0u);
  EXPECT_EQ(w.s[of::kFlatScrLo], 32u);
  // Work-item ids over the actual (clipped) size.
  for (int lane = 0; lane < 16; ++lane) {
    EXPECT_EQ(w.vrow(0)[lane], uint32_t(lane % 4));
    EXPECT_EQ(w.vrow(1)[lane], uint32_t(lane / 4 % 2));
    EXPECT_EQ(w.vrow(2)[lane], uint32_t(lane / 8));
  }
}

TEST(DispatchAbi, WavesOfAGroupGetConsecutiveScratchSlices) {
  KdSpec k = everything();
  AsmLaunch l("s_endpgm", k, {256, 1, 1}, {256, 1, 1});
  Executor ex(l.d, l.mem);
  WorkGroup wg;
  ex.init_workgroup(wg, 0);
  ASSERT_EQ(wg.waves.size(), 4u);
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(wg.waves[i].s[19], i * 32 * 64);
    EXPECT_EQ(wg.waves[i].s[18] & 0x3F, 4u);
    EXPECT_EQ(wg.waves[i].vrow(0)[5], i * 64 + 5);
    EXPECT_EQ(wg.waves[i].s[of::kFlatScrHi], (i * 32 * 64) >> 8);
  }
  EXPECT_EQ(wg.waves[1].s[18] >> 31, 0u);
}

TEST(DispatchAbi, MinimalKernelGetsKernargAndGroupIdOnly) {
  KdSpec k;  // kernarg ptr + work-group id x
  AsmLaunch l("s_endpgm", k, {300, 1, 1}, {128, 1, 1});
  Executor ex(l.d, l.mem);
  WorkGroup wg;
  ex.init_workgroup(wg, 2);
  ASSERT_EQ(wg.waves.size(), 1u);  // 300 - 256 = 44 work-items
  EXPECT_EQ(wg.waves[0].s64(0), l.d.kernarg_address);
  EXPECT_EQ(wg.waves[0].s[2], 2u);
  EXPECT_EQ(wg.waves[0].exec(), (uint64_t{1} << 44) - 1);
}

TEST(DispatchAbi, TooFewUserSgprsInRsrc2IsInputError) {
  KdSpec k = everything();
  k.user_sgprs = 8;
  AsmLaunch l("s_endpgm", k, {64, 1, 1}, {64, 1, 1});
  Executor ex(l.d, l.mem);
  WorkGroup wg;
  EXPECT_THROW(ex.init_workgroup(wg, 0), InputError);
}

TEST(DispatchAbi, OversizedWorkgroupIsInputError) {
  AsmLaunch l("s_endpgm", KdSpec{}, {2048, 1, 1}, {2048, 1, 1});
  EXPECT_THROW(l.run(), InputError);
}

TEST(DispatchAbi, LdsBeyondTheDispatchLimitIsInputError) {
  AsmLaunch l("s_endpgm", KdSpec{}, {64, 1, 1}, {64, 1, 1});
  l.d.lds_bytes = 4096;
  l.d.lds_limit_bytes = 4096;
  EXPECT_NO_THROW(l.run());
  l.d.lds_limit_bytes = 4095;
  EXPECT_THROW(l.run(), InputError);
}

TEST(DispatchAbi, QueueDescriptorCarriesApertureBases) {
  GlobalMemory m;
  uint64_t q = m.allocate(amd_queue::kSize);
  write_queue_descriptor(m, q);
  uint32_t shared = 0, priv = 0;
  m.read(q + 0x40, &shared, 4);
  m.read(q + 0x44, &priv, 4);
  EXPECT_EQ(uint64_t(shared) << 32, kSharedApertureBase);
  EXPECT_EQ(uint64_t(priv) << 32, kPrivateApertureBase);
}

TEST(DispatchAbi, StatsCountGroupsWavesAndInstructions) {
  AsmLaunch l("s_mov_b32 s5, 1\ns_endpgm", KdSpec{}, {200, 1, 1}, {128, 1, 1});
  DispatchStats s = l.run();
  EXPECT_EQ(s.workgroups, 2u);
  EXPECT_EQ(s.wavefronts, 4u);  // 2 + 2 (72 work-items: 64 + 8)
  EXPECT_EQ(s.wave_instructions, 8u);
  EXPECT_EQ(s.thread_instructions, 2u * 200);
}

}  // namespace
}  // namespace strobe::emu
