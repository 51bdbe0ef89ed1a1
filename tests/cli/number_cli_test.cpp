// A number is read the same way by --set, --param and --sampling-set: the spellings one takes,
// the others take, and the ones one refuses, the others refuse.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

TEST(NumberCli, OneSpellingIsANumberForEveryKindOfParameter) {
  // "1e3" for an integer everywhere: the benchmark's size, a configuration key, a method's seed.
  const CliResult r = run_strobe(
      "run relu --param n=1e3 --sampling stem --sampling-set seed=1e1 --set sim.watchdog_cycles=1e7 --json -");
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["config"]["sim"]["watchdog_cycles"], 10000000);
  // Hex, a trailing space's worth of junk and a fraction for an integer: refused by all three,
  // for the same reason in the same words (one reader, common/param_decl.h).
  for (const auto& [v, why] : {std::pair<const char*, std::string>{"0x10", "'0x10' is not a number"},
                               {"12abc", "'12abc' is not a number"}, {"2.5", "takes an integer"}}) {
    for (const std::string& args :
         {std::string("run relu --param n=") + v, std::string("run relu --set gpu.num_cus=") + v + " --mode timing",
          std::string("run relu --sampling stem --sampling-set seed=") + v}) {
      const CliResult b = run_strobe(args);
      EXPECT_EQ(b.rc, 2) << args << ": " << b.err;
      EXPECT_NE(b.err.find(std::string("=") + v + ": " + why), std::string::npos) << args << ": " << b.err;
    }
  }
}

}  // namespace
}  // namespace strobe::clitest
