// `--profile FILE` with TBPoint: one functional profile, collected once by `strobe profile`,
// serves comparisons on several GPU configurations without profiling again, gives the same
// estimate as the method's own profiling pass, and is refused (exit 2, naming the file and the
// reason) for another workload, a method that does not read profiles, or a set.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "cli/cli_runner.h"
#include "sampling/profile/profile_file.h"

namespace strobe::clitest {
namespace {

// Two shrinking kernels per pivot: several clusters, some representatives after their members.
const char* const kBench = "gaussian --param n=48";

/// The tbpoint entry of `strobe compare` with `args`, after checking it exited 0.
nlohmann::json tbpoint_entry(const std::string& args) {
  CliResult r = run_strobe(std::string("compare ") + kBench + " --sampling tbpoint --json - " + args);
  EXPECT_EQ(r.rc, 0) << args << "\n" << r.err;
  if (r.rc != 0) return nlohmann::json::object();
  return nlohmann::json::parse(r.out)["methods"]["tbpoint"];
}

TEST(TbpointProfileCli, AReusedProfileGivesTheSameEstimateAsTheMethodsOwnPass) {
  TempDir t;
  const std::string f = (t.path / "g.prof").string();
  ASSERT_EQ(run_strobe(std::string("profile ") + kBench + " -o " + f).rc, 0);
  const nlohmann::json own = tbpoint_entry("");
  const nlohmann::json reused = tbpoint_entry("--profile " + f);
  EXPECT_EQ(own["sampling"]["passes"].size(), 2u);  // profiling, then sampling
  EXPECT_EQ(reused["sampling"]["passes"].size(), 1u);
  EXPECT_EQ(reused["sampling"]["method_summary"]["reused_profile"]["file"], f);
  EXPECT_TRUE(own["sampling"]["method_summary"]["reused_profile"].is_null());
  EXPECT_EQ(own["estimated_cycles"], reused["estimated_cycles"]);
  EXPECT_EQ(own["sampling"]["method_summary"]["representatives"],
            reused["sampling"]["method_summary"]["representatives"]);
}

TEST(TbpointProfileCli, OneProfileServesR9NanoMi100AndHalfTheCus) {
  // kmeans: five equal launches of 256 groups, enough to fill 32 CUs and not 64, so halving the
  // CUs moves the reference. Bound 10%: every launch is extrapolated from the first, which runs
  // with cold caches; on MI100 that costs most (measured 0.8%, 8.4% and 0.8%).
  const std::string bench = "kmeans --param points=65536";
  TempDir t;
  const std::string f = (t.path / "k.prof").string();
  ASSERT_EQ(run_strobe("profile " + bench + " -o " + f).rc, 0);
  const std::string configs[] = {"", "--arch mi100", "--set gpu.num_cus=32"};
  std::vector<uint64_t> full, estimated;
  for (const std::string& c : configs) {
    SCOPED_TRACE(c);
    CliResult r = run_strobe("compare " + bench + " --sampling tbpoint --json - --profile " + f + " " + c);
    ASSERT_EQ(r.rc, 0) << r.err;
    const nlohmann::json m = nlohmann::json::parse(r.out)["methods"]["tbpoint"];
    EXPECT_EQ(m["sampling"]["passes"].size(), 1u) << "profiled again";
    EXPECT_LT(m["error_pct"].get<double>(), 10.0);
    full.push_back(m["full_cycles"]);
    estimated.push_back(m["estimated_cycles"]);
  }
  // Three different machines: the reference moves, and the estimate follows it.
  EXPECT_NE(full[0], full[1]);
  EXPECT_NE(full[0], full[2]);
  EXPECT_NE(estimated[0], estimated[1]);
  EXPECT_NE(estimated[0], estimated[2]);
}

TEST(TbpointProfileCli, TheSystemOccupancyFollowsTheConfiguration) {
  // blackscholes groups are 256 work-items: 10 per CU, so 640 on the R9 Nano's 64 CUs and 320
  // on 32; the region table is rebuilt from the same profile for each.
  TempDir t;
  const std::string f = (t.path / "b.prof").string();
  const std::string bench = "blackscholes --param options=262144";
  ASSERT_EQ(run_strobe("profile " + bench + " -o " + f).rc, 0);
  for (const auto& [set, occupancy] : {std::pair<std::string, int>{"", 640}, {"--set gpu.num_cus=32", 320}}) {
    CliResult r = run_strobe("compare " + bench + " --sampling tbpoint-intra --json - --profile " + f + " " + set);
    ASSERT_EQ(r.rc, 0) << r.err;
    const nlohmann::json k = nlohmann::json::parse(r.out)["methods"]["tbpoint-intra"]["kernels"][0];
    EXPECT_EQ(k["detail"]["occupancy_workgroups"], occupancy) << set;
  }
}

TEST(TbpointProfileCli, AProfileOfAnotherWorkloadIsRefusedNamingTheDifference) {
  TempDir t;
  const std::string f = (t.path / "g.prof").string();
  ASSERT_EQ(run_strobe(std::string("profile ") + kBench + " -o " + f).rc, 0);
  CliResult r = run_strobe("compare gaussian --param n=40 --sampling tbpoint --profile " + f);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find(f), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("does not match"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("n=48"), std::string::npos) << r.err;
  CliResult other = run_strobe("run vecadd --sampling tbpoint --profile " + f);
  EXPECT_EQ(other.rc, 2);
  EXPECT_NE(other.err.find("it profiles benchmark 'gaussian'"), std::string::npos) << other.err;
}

TEST(TbpointProfileCli, AProfileNeedsAMethodThatReadsOneAndOneWorkload) {
  TempDir t;
  const std::string f = (t.path / "g.prof").string();
  ASSERT_EQ(run_strobe(std::string("profile ") + kBench + " -o " + f).rc, 0);
  CliResult photon = run_strobe(std::string("compare ") + kBench + " --sampling photon --profile " + f);
  EXPECT_EQ(photon.rc, 2);
  EXPECT_NE(photon.err.find("no method given reads a functional profile"), std::string::npos) << photon.err;
  EXPECT_NE(photon.err.find("tbpoint"), std::string::npos) << photon.err;
  CliResult none = run_strobe(std::string("run ") + kBench + " --profile " + f);
  EXPECT_EQ(none.rc, 2);
  EXPECT_NE(none.err.find("--profile"), std::string::npos) << none.err;
  CliResult set = run_strobe("compare --set smoke --sampling tbpoint --profile " + f);
  EXPECT_EQ(set.rc, 2);
  EXPECT_NE(set.err.find("a set runs several"), std::string::npos) << set.err;
  CliResult missing = run_strobe(std::string("compare ") + kBench + " --sampling tbpoint --profile " +
                                 (t.path / "none.prof").string());
  EXPECT_EQ(missing.rc, 2);
  EXPECT_NE(missing.err.find("none.prof"), std::string::npos) << missing.err;
}

TEST(TbpointProfileCli, ARunThatLeavesTheProfiledSequenceIsSimulatedInDetailFromThere) {
  // A timing-dependent workload (sssp's iteration count follows the order its atomics land in)
  // can launch other work than it was profiled with. Simulated here by a profile whose launch 5
  // has other kernel arguments: launches 5 on are simulated in detail, and launch 4, whose
  // representative (6) never runs as one, takes the nearest measured cluster's CPI.
  TempDir t;
  const std::string f = (t.path / "g.prof").string(), g = (t.path / "edited.prof").string();
  ASSERT_EQ(run_strobe(std::string("profile ") + kBench + " -o " + f).rc, 0);
  sampling::profile::ProfileFile p = sampling::profile::load(f);
  ASSERT_GT(p.launches.size(), 10u);
  p.launches[5].id.kernarg_hash ^= 1;
  sampling::profile::save(g, p);
  const nlohmann::json m = tbpoint_entry("--profile " + g);
  ASSERT_TRUE(m.contains("kernels"));
  const nlohmann::json& ks = m["kernels"];
  const nlohmann::json& summary = m["sampling"]["method_summary"];
  EXPECT_EQ(summary["diverged"]["launch"], 5u);
  EXPECT_EQ(summary["unprofiled_launches"].get<size_t>(), ks.size() - 5);
  for (size_t i = 5; i < ks.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(ks[i]["level"], "detailed");
    EXPECT_TRUE(ks[i]["detail"].contains("unprofiled"));
    // Simulated in full: every instruction timed (the cycles differ from the reference's only by
    // the cache state the earlier, extrapolated launches did not leave).
    EXPECT_EQ(ks[i]["predicted_instructions"], 0u);
    EXPECT_GT(ks[i]["detailed_instructions"].get<uint64_t>(), 0u);
  }
  size_t borrowed = 0;
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_GT(ks[i]["estimated_cycles"].get<uint64_t>(), 0u) << i;
    borrowed += ks[i]["detail"].contains("projected_from_cluster");
  }
  EXPECT_GT(borrowed, 0u) << "no launch lost its representative: the borrowing path went untested";
  EXPECT_EQ(summary["launches_timed_from_another_cluster"].get<size_t>(), borrowed);
}

}  // namespace
}  // namespace strobe::clitest
