// Recorded timing-mode results of a handful of benchmarks at their quick-test size. Cycles are
// deterministic, so a refactor of the timing model's inputs (instruction traits, decoding) that
// changes any of these numbers changed the model, not just the code.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

/// `--param` flags setting every parameter of `name` to its quick-test value (empty when unknown).
std::string small_params(const nlohmann::json& listing, const std::string& name) {
  std::string s;
  for (const auto& b : listing["benchmarks"])
    if (b["name"] == name)
      for (const auto& p : b["params"]) s += " --param " + p["name"].get<std::string>() + "=" + p["small"].dump();
  return s;
}

struct Recorded {
  const char* name;
  uint64_t cycles;
  uint64_t wave_instructions;
};

// r9nano preset, small parameters, no sampling. Chosen to cover VALU f32/f64 and
// transcendental ops, VCC carries and selects, LDS, scalar and vector loads, stores, atomics and
// branches.
TEST(TimingResults, InstructionTraitsRefactorKeepsCycles) {
  CliResult l = run_strobe("list --json -");
  ASSERT_EQ(l.rc, 0) << l.err;
  const nlohmann::json listing = nlohmann::json::parse(l.out);
  constexpr Recorded kRecorded[] = {
      {"aes", 24010, 14751},
      {"bfs", 1225080, 114177},
      {"blackscholes", 7550, 8709},
      {"gaussian", 206144, 52347},
      {"histogram", 9751, 5032},
      {"md", 37496, 51447},
      {"mm", 5619, 8304},
      {"nbody", 86579, 34720},
      {"scan", 22081, 290554},
      {"spmv", 436747, 103149},
      {"sssp", 1426226, 257081},
      {"vecadd", 3148, 2621},
  };
  for (const Recorded& r : kRecorded) {
    SCOPED_TRACE(r.name);
    const std::string params = small_params(listing, r.name);
    ASSERT_FALSE(params.empty());
    CliResult c = run_strobe(std::string("run ") + r.name + params + " --mode timing --json -");
    ASSERT_EQ(c.rc, 0) << c.err;
    const nlohmann::json j = nlohmann::json::parse(c.out);
    EXPECT_EQ(j["cycles"].get<uint64_t>(), r.cycles);
    EXPECT_EQ(j["wave_instructions"].get<uint64_t>(), r.wave_instructions);
  }
}

}  // namespace
}  // namespace strobe::clitest
