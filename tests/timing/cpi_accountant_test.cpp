#include <gtest/gtest.h>

#include <numeric>

#include "timing/cu/cpi_accountant.h"

namespace strobe::timing {
namespace {

uint64_t total(const CpiAccountant& a) {
  return std::accumulate(a.stack().begin(), a.stack().end(), uint64_t{0});
}
uint64_t at(const CpiAccountant& a, CpiReason r) { return a.stack()[size_t(r)]; }

TEST(CpiAccountant, EveryCycleOfALaunchLandsInExactlyOneCategory) {
  CpiAccountant a;
  a.begin(Cycle(100));
  a.catch_up(Cycle(100));
  a.charge(Cycle(100), CpiReason::Issue, nullptr, true);
  a.catch_up(Cycle(104));  // slept 101..103 with the reason of the last tick
  a.charge(Cycle(104), CpiReason::Dependency, nullptr, true);
  a.end(Cycle(110));
  EXPECT_EQ(total(a), 10u);
  EXPECT_EQ(at(a, CpiReason::Issue), 4u);
  EXPECT_EQ(at(a, CpiReason::Dependency), 1u);
  EXPECT_EQ(at(a, CpiReason::Other), 5u);
}

TEST(CpiAccountant, ASleepWaitingOnMemoryIsChargedToTheLevelTheAccessReached) {
  CpiAccountant a;
  a.begin(Cycle(0));
  AccessProgress p;
  p.reach(MemStage::L1);
  a.charge(Cycle(0), CpiReason::L1, &p, true);
  p.reach(MemStage::Dram);
  a.catch_up(Cycle(10));
  EXPECT_EQ(at(a, CpiReason::Dram), 9u);
  EXPECT_EQ(at(a, CpiReason::L1), 1u);
}

TEST(CpiAccountant, ACuWithoutWavesSleepsAsOther) {
  CpiAccountant a;
  a.begin(Cycle(0));
  a.charge(Cycle(0), CpiReason::Issue, nullptr, false);
  a.catch_up(Cycle(5));
  EXPECT_EQ(at(a, CpiReason::Other), 4u);
  EXPECT_EQ(at(a, CpiReason::Issue), 1u);
}

TEST(CpiAccountant, ATickInTheLaunchsLastCycleIsTakenBack) {
  CpiAccountant a;
  a.begin(Cycle(0));
  a.catch_up(Cycle(9));
  a.charge(Cycle(9), CpiReason::Issue, nullptr, false);
  a.end(Cycle(9));
  EXPECT_EQ(at(a, CpiReason::Issue), 0u);
  EXPECT_EQ(total(a), 9u);
}

TEST(CpiAccountant, ProgressOnlyMovesDeeper) {
  AccessProgress p;
  EXPECT_EQ(p.stage(), MemStage::None);
  p.reach(MemStage::L2);
  p.reach(MemStage::L1);
  EXPECT_EQ(p.stage(), MemStage::L2);
  EXPECT_EQ(cpi_reason(p.stage()), CpiReason::L2);
  EXPECT_EQ(cpi_reason(MemStage::None), CpiReason::L1);
}

}  // namespace
}  // namespace strobe::timing
