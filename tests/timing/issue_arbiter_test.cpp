#include <gtest/gtest.h>

#include <vector>

#include "timing/cu/issue_arbiter.h"

namespace strobe::timing {
namespace {

TEST(IssueArbiter, IssuesOneWavePerIssueTypeAndEveryInternalInstruction) {
  IssueArbiter a("oldest");
  const uint64_t age[8] = {7, 6, 5, 4, 3, 2, 1, 0};
  IssueArbiter::ReadyMasks ready{};
  ready[size_t(IssueType::Valu)] = 0b0011;
  ready[size_t(IssueType::Vmem)] = 0b0100;
  ready[size_t(IssueType::Internal)] = 0b11000;
  std::vector<uint32_t> issued;
  EXPECT_TRUE(a.arbitrate(ready, age, [&](uint32_t s) { issued.push_back(s); }));
  EXPECT_EQ(issued, (std::vector<uint32_t>{1, 2, 3, 4}));  // VALU: slot 1 is older than slot 0
}

TEST(IssueArbiter, NothingReadyIssuesNothing) {
  IssueArbiter a("rr");
  const uint64_t age[1] = {0};
  EXPECT_FALSE(a.arbitrate(IssueArbiter::ReadyMasks{}, age, [](uint32_t) { FAIL(); }));
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
