// `strobe --version`: the build a result came from, as evaluation scripts record it.
#include <gtest/gtest.h>

#include "cli/cli_runner.h"
#include "common/build_info.h"

namespace strobe::clitest {
namespace {

TEST(VersionCli, PrintsTheBuildCommitAndExitsZeroWithoutASubcommand) {
  const CliResult r = run_strobe("--version");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, std::string("strobe ") + build_commit() + "\n");
}

}  // namespace
}  // namespace strobe::clitest
