#include <gtest/gtest.h>

#include "timing/cu/wave_resources.h"

namespace strobe::timing {
namespace {

CuResources four_simds() {
  CuResources r;
  r.simds = 4, r.slots_per_simd = 10, r.vgprs_per_simd = 256, r.sgprs_per_simd = 800;
  r.lds_bytes = 65536, r.max_workgroups = 16;
  return r;
}

WorkgroupNeeds needs(uint32_t waves, uint32_t vgprs = 4, uint32_t sgprs = 16, uint32_t lds = 0) {
  WorkgroupNeeds n;
  n.waves = waves, n.vgprs_per_wave = vgprs, n.sgprs_per_wave = sgprs, n.lds_bytes = lds;
  return n;
}

TEST(WaveResources, WavesGoToTheSimdWithTheMostFreeSlotsLowestIndexFirst) {
  WaveResources r(four_simds());
  const WorkgroupNeeds n = needs(1);
  EXPECT_EQ(r.take_wave(n), 0u);
  EXPECT_EQ(r.take_wave(n), 1u);
  EXPECT_EQ(r.take_wave(n), 2u);
  EXPECT_EQ(r.take_wave(n), 3u);
  EXPECT_EQ(r.take_wave(n), 0u);
  r.release_wave(2, n);
  EXPECT_EQ(r.take_wave(n), 2u);  // SIMD 2 has the most free slots again
}

TEST(WaveResources, ASimdWithoutTheRegistersIsSkipped) {
  WaveResources r(four_simds());
  const WorkgroupNeeds big = needs(1, 256);
  for (uint32_t s = 0; s < 3; ++s) EXPECT_EQ(r.take_wave(big), s);
  EXPECT_EQ(r.pick_simd(big), 3);
  r.take_wave(big);
  EXPECT_EQ(r.pick_simd(big), -1);
  EXPECT_EQ(r.vgprs_used(1), 256u);
}

TEST(WaveResources, FitsCountsExactlyTheWorkgroupsTakingWouldPlace) {
  // 40 slots and 1024 VGPRs: 64-VGPR waves fit 4 per SIMD, so 16 waves, i.e. 5 groups of 3.
  WaveResources r(four_simds());
  const WorkgroupNeeds n = needs(3, 64);
  uint32_t groups = 0;
  while (r.fits(n)) {
    r.take_group(n);
    for (uint32_t i = 0; i < n.waves; ++i) r.take_wave(n);
    ++groups;
  }
  EXPECT_EQ(groups, 5u);
  EXPECT_EQ(r.groups(), 5u);
}

TEST(WaveResources, FitsTakesNothing) {
  WaveResources r(four_simds());
  EXPECT_TRUE(r.fits(needs(8, 4, 16, 1024)));
  EXPECT_EQ(r.groups(), 0u);
  EXPECT_EQ(r.lds_used(), 0u);
  for (uint32_t s = 0; s < 4; ++s) EXPECT_EQ(r.slots_used(s), 0u);
}

TEST(WaveResources, LdsAndTheWorkgroupLimitRejectAGroup) {
  CuResources lim = four_simds();
  lim.max_workgroups = 2;
  WaveResources r(lim);
  const WorkgroupNeeds half_lds = needs(1, 4, 16, 32768);
  r.take_group(half_lds);
  EXPECT_TRUE(r.fits(half_lds));
  r.take_group(half_lds);
  EXPECT_FALSE(r.fits(needs(1)));  // the group limit
  r.release_group(half_lds);
  EXPECT_FALSE(r.fits(needs(1, 4, 16, 32769)));  // the LDS
  EXPECT_TRUE(r.fits(half_lds));
}

TEST(WaveResources, ReleasingEverythingRestoresAnEmptyCu) {
  WaveResources r(four_simds());
  const WorkgroupNeeds n = needs(4, 32, 32, 512);
  r.take_group(n);
  uint32_t simds[4];
  for (uint32_t& s : simds) s = r.take_wave(n);
  for (uint32_t s : simds) r.release_wave(s, n);
  r.release_group(n);
  for (uint32_t s = 0; s < 4; ++s) {
    EXPECT_EQ(r.slots_used(s), 0u);
    EXPECT_EQ(r.vgprs_used(s), 0u);
    EXPECT_EQ(r.sgprs_used(s), 0u);
  }
  EXPECT_EQ(r.lds_used(), 0u);
  EXPECT_EQ(r.groups(), 0u);
}

}  // namespace
}  // namespace strobe::timing
