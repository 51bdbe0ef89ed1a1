// --help that follows the command line: the parameters of the benchmark, methods and keys it
// names, generated from their declarations (cli/context_help.h).
#include <gtest/gtest.h>

#include <string>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

TEST(HelpCli, ABenchmarkNamedWithHelpListsItsParametersWithDefaultsAndRanges) {
  const CliResult r = run_strobe("run vecadd --help");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("--param"), std::string::npos) << "the run command's own help is missing";
  const size_t at = r.out.find("Parameters of vecadd (--param NAME=VALUE):");
  ASSERT_NE(at, std::string::npos) << r.out;
  // vecadd declares n, 1048576 by default, from 1 to 2^28 elements.
  EXPECT_NE(r.out.find("1048576  [1 .. 268435456]  elements", at), std::string::npos) << r.out.substr(at);
}

TEST(HelpCli, EachComparedMethodAndEveryKeyGivenAreDescribed) {
  const CliResult r = run_strobe("compare vecadd --sampling pka,sieve --set l2.size_kb=1024 --help");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("Parameters of pka (--sampling-set KEY=VALUE):"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("group_exponent"), std::string::npos);
  EXPECT_NE(r.out.find("Parameters of sieve (--sampling-set KEY=VALUE):"), std::string::npos);
  const size_t keys = r.out.find("The timing-model keys given (--set KEY=VALUE):");
  ASSERT_NE(keys, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("l2.size_kb", keys), std::string::npos);
  EXPECT_NE(r.out.find("KiB", keys), std::string::npos);
}

TEST(HelpCli, AVariantIsListedWithItsMethodsParameters) {
  const CliResult r = run_strobe("compare vecadd --sampling pka:parallelism=0 --help");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("Parameters of pka:parallelism=0 (--sampling-set KEY=VALUE):"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("group_exponent"), std::string::npos);
  EXPECT_EQ(r.out.find("No sampling method"), std::string::npos);
}

TEST(HelpCli, NamesThatNothingDeclaresAreSaidToBeUnknown) {
  const CliResult r = run_strobe("run vecadds --sampling pak --set cu.nope=1 --help");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("No benchmark is named 'vecadds'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("No sampling method is named 'pak'"), std::string::npos);
  EXPECT_NE(r.out.find("No timing-model key is named cu.nope"), std::string::npos);
}

TEST(HelpCli, PlainHelpSaysWhereParametersAreListedAndAddsNoSection) {
  const CliResult r = run_strobe("run --help");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("are listed by `strobe list`"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Parameters of"), std::string::npos);
}

}  // namespace
}  // namespace strobe::clitest
