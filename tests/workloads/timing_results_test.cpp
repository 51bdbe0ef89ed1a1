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
// branches. Recorded again when the VALU's rate classes came in (quarter-rate integer multiplies,
// 64-bit shifts and compares, fused f32 multiply-adds: docs/timing-model.md); BFS's and SSSP's
// instruction counts follow the order their atomics are performed in, which timing decides.
TEST(TimingResults, InstructionTraitsRefactorKeepsCycles) {
  CliResult l = run_strobe("list --json -");
  ASSERT_EQ(l.rc, 0) << l.err;
  const nlohmann::json listing = nlohmann::json::parse(l.out);
  constexpr Recorded kRecorded[] = {
      {"aes", 24010, 14751},
      {"bfs", 1292548, 112098},
      {"blackscholes", 7586, 8709},
      {"gaussian", 210444, 52347},
      {"histogram", 10223, 5032},
      {"md", 38497, 51447},
      {"mm", 5710, 8304},
      {"nbody", 86719, 34720},
      {"scan", 22122, 290554},
      {"spmv", 474207, 103149},
      {"sssp", 1510618, 257076},
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
