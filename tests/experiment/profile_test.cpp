// experiment::profile: a benchmark's functional profile holds every launch and work-group, its
// counts equal what a plain functional run reports, and checking a stored profile against a
// workload names the first difference.
#include "experiment/profile.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "sampling/profile/profile_file.h"
#include "experiment/run.h"

namespace strobe::experiment {
namespace {

namespace fs = std::filesystem;
namespace sp = sampling::profile;

ProfileSpec kmeans(uint32_t points = 4096) {
  ProfileSpec s;
  s.run.benchmark = "kmeans";
  s.run.params = {"points=" + std::to_string(points), "iterations=3"};
  return s;
}

TEST(ExperimentProfile, CountsPerLaunchEqualAFunctionalRunsReport) {
  const ProfileResult p = collect_profile(kmeans());
  ValidatedRun v = validate(kmeans().run);
  const RunResult r = run(v);
  ASSERT_EQ(p.profile.launches.size(), r.outcome.launches.size());
  EXPECT_EQ(p.profile.line_bytes, 64u);  // r9nano's cache line
  EXPECT_EQ(p.profile.workload.name, "kmeans");
  for (size_t i = 0; i < p.profile.launches.size(); ++i) {
    const sp::LaunchRecord& l = p.profile.launches[i];
    const emu::DispatchStats& st = r.outcome.launches[i].result.stats;
    EXPECT_EQ(l.id.kernel, r.outcome.launches[i].result.kernel);
    EXPECT_EQ(l.workgroups.rows, st.workgroups);
    EXPECT_EQ(l.waves.rows, st.wavefronts);
    EXPECT_EQ(l.workgroups.sum(sp::column::kWaveInsts), st.wave_instructions) << "launch " << i;
    EXPECT_EQ(l.workgroups.sum(sp::column::kThreadInsts), st.thread_instructions) << "launch " << i;
    EXPECT_GT(l.workgroups.sum(sp::column::kMemReqs), 0u);
  }
}

TEST(ExperimentProfile, WiderLinesNeverMeanMoreRequests) {
  ProfileSpec s = kmeans();
  s.line_bytes = 128;
  const ProfileResult wide = collect_profile(s);
  const ProfileResult narrow = collect_profile(kmeans());
  EXPECT_EQ(wide.profile.line_bytes, 128u);
  for (size_t i = 0; i < wide.profile.launches.size(); ++i)
    EXPECT_LE(wide.profile.launches[i].workgroups.sum(sp::column::kMemReqs),
              narrow.profile.launches[i].workgroups.sum(sp::column::kMemReqs));
}

TEST(ExperimentProfile, AStoredProfileIsCheckedAgainstTheWorkload) {
  const fs::path f = fs::temp_directory_path() / ("strobe-exp-prof-" + std::to_string(::getpid()) + ".prof");
  ProfileSpec s = kmeans();
  s.output = f.string();
  profile(s);
  ProfileSpec same = kmeans();
  same.check = f.string();
  EXPECT_NO_THROW(profile(same));
  ProfileSpec other = kmeans(8192);
  other.check = f.string();
  try {
    profile(other);
    ADD_FAILURE() << "a profile of other parameters was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("does not match the workload"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("points=4096"), std::string::npos) << e.what();
  }
  fs::remove(f);
}

/// `s`'s profile on `threads` host threads, encoded without the seconds it took.
std::string profile_on(ProfileSpec s, uint32_t threads) {
  s.run.threads = threads;
  ProfileResult r = collect_profile(s);
  r.profile.seconds = 0;
  return sp::encode(r.profile);
}

TEST(ExperimentProfile, AProfileWithGpumechTracesIsTheSameOnOneAndThreeThreads) {
  ProfileSpec s = kmeans();
  s.gpumech = true;
  EXPECT_EQ(profile_on(s, 3), profile_on(s, 1));
  ProfileSpec spmv;
  spmv.run.benchmark = "spmv";  // power-law row lengths: groups differ in work
  spmv.run.params = {"rows=2048"};
  spmv.gpumech = true;
  EXPECT_EQ(profile_on(spmv, 3), profile_on(spmv, 1));
}

TEST(ExperimentProfile, BadLineSizesAreRefusedForBenchmarksAndPrograms) {
  ProfileSpec s = kmeans();
  s.line_bytes = 96;
  EXPECT_THROW(collect_profile(s), InputError);
  ProfileSpec p;
  p.run.workload = Workload::Program;
  p.run.program = {"./app"};
  p.output = "x.prof";
  p.line_bytes = 96;
  EXPECT_THROW(profile(p), InputError);
}

}  // namespace
}  // namespace strobe::experiment
