// A journal's key: runs that differ in what changes their results never share an entry.
#include "experiment/journal.h"

#include <gtest/gtest.h>

namespace strobe::experiment {
namespace {

ValidatedCompare comparison(const std::string& warming) {
  CompareSpec c;
  c.run.benchmark = "vecadd";
  c.run.sampling = "photon";
  c.run.warming = warming;
  return validate(c);
}

TEST(JournalKey, RunsWithAndWithoutWarmingNeverShareAnEntry) {
  const workloads::SetRun r{"vecadd", {"n=1024"}};
  const nlohmann::json cold = RunJournal::key(comparison("none"), r), warm = RunJournal::key(comparison("caches"), r);
  EXPECT_NE(cold, warm);
  EXPECT_EQ(warm["warming"], "caches");
  // Entries journalled before warming existed carry no warming: a run without it still finds them.
  EXPECT_FALSE(cold.contains("warming"));
}

}  // namespace
}  // namespace strobe::experiment
