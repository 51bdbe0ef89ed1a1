// A run that leaves its profiled launch sequence before any representative has run: the
// launches already predicted wait on representatives that will never run as such. Every method
// that picks representatives from a profile must still time them, from the launches it then
// simulates in detail, and count them apart; before, they stopped with an internal
// fault ("the run ended ... without simulating any representative"), found by FileFuzz with a
// profile whose representative's kernel arguments were damaged.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "cli/cli_runner.h"
#include "sampling/profile/profile_file.h"

namespace strobe::clitest {
namespace {

// Two shrinking kernels per pivot: several groups, some representatives after their members.
const char* const kBench = "gaussian --param n=48";

/// `strobe run` of kBench under `method` with the profile `prof`, as JSON (empty if it failed).
nlohmann::json sampled_run(const std::string& method, const std::string& prof, CliResult& r) {
  r = run_strobe(std::string("run ") + kBench + " --sampling " + method + " --profile " + prof + " --json -");
  if (r.rc != 0) return nlohmann::json::object();
  return nlohmann::json::parse(r.out);
}

TEST(ProfileDeparture, LaunchesWaitingOnRepresentativesPastTheDepartureAreTimedFromTheLaunchesSimulatedInDetail) {
  TempDir t;
  const std::string f = (t.path / "g.prof").string();
  ASSERT_EQ(run_strobe(std::string("profile ") + kBench + " -o " + f).rc, 0);
  size_t exercised = 0;
  // PKA reads only a capture's profile (which carries its counts) and otherwise profiles in its
  // own pass, whose launches are this run's: its same fallback is reached only by a workload
  // whose launches depend on timing.
  for (const char* method : {"sieve", "tbpoint", "stem"}) {
    SCOPED_TRACE(method);
    CliResult r;
    const nlohmann::json plain = sampled_run(method, f, r);
    ASSERT_EQ(r.rc, 0) << r.err;
    // The first launch simulated in detail is the first representative to run.
    size_t first = 0;
    const nlohmann::json& ks = plain["kernels"];
    while (first < ks.size() && ks[first]["sampling"]["level"] != "detailed") ++first;
    ASSERT_LT(first, ks.size());
    if (first == 0) continue;  // nothing waits before it: this method cannot reach the case here
    ++exercised;
    // The run leaves the profile at that launch: it and every later launch run in detail, and
    // the launches before it have no representative of any group that ran.
    sampling::profile::ProfileFile p = sampling::profile::load(f);
    p.launches[first].id.kernarg_hash ^= 1;
    const std::string g = (t.path / (std::string(method) + ".prof")).string();
    sampling::profile::save(g, p);
    const nlohmann::json left = sampled_run(method, g, r);
    ASSERT_EQ(r.rc, 0) << r.err;
    const nlohmann::json& summary = left["sampling_summary"]["method_summary"];
    EXPECT_EQ(summary["unprofiled_launches"].get<size_t>(), ks.size() - first);
    EXPECT_GT(summary["launches_timed_from_unprofiled_launches"].get<size_t>(), 0u) << summary.dump();
    const nlohmann::json& lk = left["kernels"];
    for (size_t i = 0; i < first; ++i) {
      SCOPED_TRACE(i);
      EXPECT_GT(lk[i]["cycles"].get<uint64_t>(), 0u);
      const nlohmann::json& detail = lk[i]["sampling"]["detail"];
      EXPECT_TRUE(detail.contains("timed_from_unprofiled_launches")) << detail.dump();
    }
  }
  EXPECT_GT(exercised, 0u) << "every method simulated launch 0 first: the case went untested";
}

}  // namespace
}  // namespace strobe::clitest
