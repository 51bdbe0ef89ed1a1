// `strobe profile`: writes a profile with a one-line summary, and a truncated, corrupt,
// other-version or mismatched profile is refused with exit status 2 and an error naming it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

const char* const kBench = "vecadd --param n=5000";

TEST(ProfileCli, WritesAProfileAndPrintsASummary) {
  TempDir t;
  const std::string f = (t.path / "v.prof").string();
  auto r = run_strobe(std::string("profile ") + kBench + " -o " + f);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("1 launches"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("work-groups"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(f));
  auto c = run_strobe(std::string("profile ") + kBench + " --check " + f);
  EXPECT_EQ(c.rc, 0) << c.err;
  EXPECT_NE(c.out.find("matches"), std::string::npos) << c.out;
}

TEST(ProfileCli, AProfileOnThreeThreadsChecksAgainstOneAndABadThreadCountIsRefused) {
  TempDir t;
  const std::string f = (t.path / "v.prof").string();
  ASSERT_EQ(run_strobe(std::string("profile ") + kBench + " --threads 3 -o " + f).rc, 0);
  auto c = run_strobe(std::string("profile ") + kBench + " --threads 1 --check " + f);
  EXPECT_EQ(c.rc, 0) << c.err;
  auto bad = run_strobe(std::string("profile ") + kBench + " --threads 5000 -o " + f);
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("--threads"), std::string::npos) << bad.err;
}

TEST(ProfileCli, BadProfilesExitTwoNamingTheFileAndTheReason) {
  TempDir t;
  const std::string f = (t.path / "v.prof").string();
  ASSERT_EQ(run_strobe(std::string("profile ") + kBench + " -o " + f).rc, 0);
  const std::string good = slurp(f);
  auto check = [&](const std::string& bytes, const std::string& args, const std::string& reason) {
    const std::string g = (t.path / "bad.prof").string();
    std::ofstream(g, std::ios::binary) << bytes;
    auto r = run_strobe("profile " + args + " --check " + g);
    EXPECT_EQ(r.rc, 2) << reason << ": " << r.err;
    EXPECT_NE(r.err.find(g), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
  };
  check(good.substr(0, good.size() / 2), kBench, "truncated");
  check("\xc1" + good, kBench, "corrupt");
  std::string other = good;
  other[other.find("version") + 7] = 9;
  check(other, kBench, "format version 9");
  check(good, "vecadd --param n=6000", "n=5000");
  check(good, std::string(kBench) + " --line-bytes 128", "64-byte lines");
}

TEST(ProfileCli, AMissingProgramAndAMissingOutputAreRefused) {
  // Programs are profiled (tests/opencl/multipass_program_test.cpp); one that does not exist is
  // named.
  auto p = run_strobe("profile -o x.prof -- ./no-such-app");
  EXPECT_NE(p.rc, 0);
  EXPECT_NE(p.err.find("cannot run './no-such-app'"), std::string::npos) << p.err;
  auto o = run_strobe(std::string("profile ") + kBench);
  EXPECT_EQ(o.rc, 2);
  EXPECT_NE(o.err.find("-o FILE"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace strobe::clitest
