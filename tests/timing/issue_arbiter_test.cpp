#include <gtest/gtest.h>

#include <vector>

#include "timing/cu/issue_arbiter.h"

namespace strobe::timing {
namespace {

TEST(IssueArbiter, IssuesOneWavePerIssueTypeAndEveryInternalInstruction) {
  IssueArbiter a("oldest", 1);
  const uint64_t age[8] = {7, 6, 5, 4, 3, 2, 1, 0};
  IssueArbiter::ReadyMasks ready{};
  ready[size_t(IssueType::Valu)] = 0b0011;
  ready[size_t(IssueType::Vmem)] = 0b0100;
  ready[size_t(IssueType::Internal)] = 0b11000;
  std::vector<uint32_t> issued;
  EXPECT_TRUE(a.arbitrate(0, ready, age, [&](uint32_t s) { issued.push_back(s); }));
  EXPECT_EQ(issued, (std::vector<uint32_t>{1, 2, 3, 4}));  // VALU: slot 1 is older than slot 0
}

TEST(IssueArbiter, NothingReadyIssuesNothing) {
  IssueArbiter a("rr", 1);
  const uint64_t age[1] = {0};
  EXPECT_FALSE(a.arbitrate(0, IssueArbiter::ReadyMasks{}, age, [](uint32_t) { FAIL(); }));
}

/// The VALU wave `a` issues from SIMD `simd` when `ready` are ready.
uint32_t valu_pick(IssueArbiter& a, uint32_t simd, uint64_t ready, const uint64_t* age) {
  IssueArbiter::ReadyMasks r{};
  r[size_t(IssueType::Valu)] = ready;
  uint32_t picked = 64;
  a.arbitrate(simd, r, age, [&](uint32_t s) { picked = s; });
  return picked;
}

TEST(IssueArbiter, EachSimdTakesItsOwnRoundRobinTurnsWhateverTheOthersIssue) {
  // Two SIMDs of two slots each (slots 0-1 and 2-3), their turns alternating as the CU's do.
  // One policy shared by both would start SIMD 0's search after SIMD 1's last slot, wrap round
  // and give slot 0 every turn.
  IssueArbiter a("rr", 2);
  const uint64_t age[4] = {0, 1, 2, 3};
  std::vector<uint32_t> picks;
  for (int turn = 0; turn < 3; ++turn) {
    picks.push_back(valu_pick(a, 0, 0b0011, age));
    picks.push_back(valu_pick(a, 1, 0b1100, age));
  }
  EXPECT_EQ(picks, (std::vector<uint32_t>{0, 2, 1, 3, 0, 2}));
}

TEST(IssueArbiter, GreedyThenOldestKeepsEachSimdsOwnGreedyWave) {
  // Slot 1 is younger than slot 0 but issued last on SIMD 0: it keeps its turn there while
  // ready, whatever SIMD 1 issued in between.
  IssueArbiter a("gto", 2);
  const uint64_t age[4] = {0, 1, 2, 3};
  EXPECT_EQ(valu_pick(a, 0, 0b0010, age), 1u);
  EXPECT_EQ(valu_pick(a, 1, 0b1100, age), 2u);
  EXPECT_EQ(valu_pick(a, 0, 0b0011, age), 1u);
}

TEST(IssueArbiter, FetchesGoToTheOldestWavesUpToTheBandwidth) {
  const uint64_t age[4] = {30, 10, 20, 40};
  std::vector<uint32_t> fetched;
  const uint64_t lost = IssueArbiter::arbitrate_fetch(0b1111, 2, age, [&](uint32_t s) { fetched.push_back(s); });
  EXPECT_EQ(fetched, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(lost, 0b1001u);
}

}  // namespace
}  // namespace strobe::timing
