// The quantum engine (sim.engine=quantum) driven through `strobe run` and `strobe compare`:
// benchmarks verify and take the same cycles on one and three host threads, sampling methods give
// the same estimates on both, all stay near the exact engine, and a window the engine cannot
// keep is refused with a message naming the key.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

struct Timed {
  uint64_t cycles = 0, wave_instructions = 0;
};

/// `strobe run NAME ARGS --mode timing --verify` with its JSON report read back.
Timed run_timed(const std::string& name, const std::string& args) {
  TempDir t;
  const std::string json = (t.path / "r.json").string();
  const CliResult r = run_strobe("run " + name + " " + args + " --mode timing --verify --json " + json);
  EXPECT_EQ(r.rc, 0) << name << " " << args << ": " << r.err;
  if (r.rc != 0) return {};
  const nlohmann::json j = nlohmann::json::parse(slurp(json));
  return {j["cycles"].get<uint64_t>(), j["wave_instructions"].get<uint64_t>()};
}

struct Case {
  const char* name;
  const char* params;
  bool order_free;  ///< no global atomics: the exact engine executes the same instructions
};

// mm: LDS and barriers; bfs: one launch per level, irregular loads and global atomics (which
// vertex a wave claims first depends on the order of issue, so the instruction count differs
// from the exact engine's); histogram: global atomics. Kernels with global atomics run their
// partitions on one thread whatever --threads says.
constexpr Case kCases[] = {
    {"mm", "--param m=128 --param n=128 --param k=128", true},
    {"bfs", "--param vertices=4096", false},
    {"histogram", "--param n=65536 --param groups=32", true},
};

TEST(QuantumEngineCli, BenchmarksVerifyWithTheSameCyclesOnOneAndThreeThreads) {
  for (const Case& c : kCases) {
    const std::string q = std::string(c.params) + " --set sim.engine=quantum";
    const Timed one = run_timed(c.name, q + " --threads 1"), three = run_timed(c.name, q + " --threads 3");
    EXPECT_GT(one.cycles, 0u) << c.name;
    EXPECT_EQ(three.cycles, one.cycles) << c.name;
    EXPECT_EQ(three.wave_instructions, one.wave_instructions) << c.name;
    const Timed exact = run_timed(c.name, std::string(c.params) + " --threads 1");
    if (c.order_free) EXPECT_EQ(one.wave_instructions, exact.wave_instructions) << c.name;
    const double err = std::abs(double(one.cycles) - double(exact.cycles)) / double(exact.cycles);
    EXPECT_LT(err, 0.02) << c.name << ": " << one.cycles << " quantum against " << exact.cycles << " exact";
  }
}

TEST(QuantumEngineCli, SampledEstimatesAreTheSameOnOneAndThreeThreadsAndNearTheExactEngines) {
  // Every method that steers launches through an observer, on a kernel they predict part of.
  auto estimates = [](const std::string& sets, uint32_t threads) {
    TempDir t;
    const std::string json = (t.path / "c.json").string();
    const CliResult r = run_strobe("compare relu --param n=262144 --sampling photon,pka,tbpoint,simprof " + sets +
                                   " --threads " + std::to_string(threads) + " --json " + json);
    EXPECT_EQ(r.rc, 0) << sets << ": " << r.err;
    std::map<std::string, uint64_t> out;
    if (r.rc != 0) return out;
    const nlohmann::json j = nlohmann::json::parse(slurp(json));
    out["full"] = j["cycles"].get<uint64_t>();
    for (const auto& [name, m] : j["methods"].items()) out[name] = m["estimated_cycles"].get<uint64_t>();
    return out;
  };
  const auto one = estimates("--set sim.engine=quantum", 1), three = estimates("--set sim.engine=quantum", 3);
  const auto exact = estimates("", 1);
  ASSERT_EQ(one.size(), 5u);
  EXPECT_EQ(three, one);
  for (const auto& [name, cycles] : one) {
    const double err = std::abs(double(cycles) - double(exact.at(name))) / double(exact.at(name));
    EXPECT_LT(err, 0.03) << name << ": " << cycles << " quantum against " << exact.at(name) << " exact";
  }
}

TEST(QuantumEngineCli, AWindowLongerThanTheInterconnectIsRefusedNamingTheKey) {
  const CliResult window = run_strobe(
      "run mm --param m=64 --param n=64 --param k=64 --mode timing --set sim.engine=quantum --set sim.quantum_cycles=500");
  EXPECT_EQ(window.rc, 2);
  EXPECT_NE(window.err.find("sim.quantum_cycles"), std::string::npos) << window.err;
}

}  // namespace
}  // namespace strobe::clitest
