// `strobe capture -o W.cap -- PROGRAM`: an unmodified OpenCL program's launches captured at its
// exit, replayed without the program: verified, and in order in the cycles of a detailed run of
// the program itself; methods run from the capture.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "opencl/opencl_test_support.h"

namespace strobe::opencl_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const EnvChanges kCache = {{"STROBE_CACHE_DIR", STROBE_OPENCL_TEST_CACHE}};

std::vector<uint64_t> cycles(const std::string& json) {
  std::vector<uint64_t> c;
  for (const auto& k : nlohmann::json::parse(json)["kernels"]) c.push_back(k["cycles"].get<uint64_t>());
  return c;
}

TEST(StrobeCaptureProgram, ReplaysWithoutTheProgramInTheCyclesOfItsDetailedRun) {
  const fs::path dir = fs::temp_directory_path() / ("strobe-capture-program-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string cap = (dir / "p.cap").string();
  RunResult c = run({STROBE_BINARY, "capture", "-o", cap, "--", program_path("repeated_launches")}, kCache);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_THAT(c.out, HasSubstr("6 launches of"));
  RunResult v = run({STROBE_BINARY, "run", cap, "--verify"}, kCache);
  EXPECT_EQ(v.exit_code, 0) << v.err;
  RunResult replayed = run({STROBE_BINARY, "run", cap, "--mode", "timing", "--json", "-"}, kCache);
  ASSERT_EQ(replayed.exit_code, 0) << replayed.err;
  // The program prints on its stdout, so its own report goes to a file.
  const std::string report = (dir / "direct.json").string();
  RunResult direct =
      run({STROBE_BINARY, "run", "--mode", "timing", "--json", report, "--", program_path("repeated_launches")}, kCache);
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  std::ifstream in(report);
  const std::string direct_json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(cycles(replayed.out), cycles(direct_json));
  RunResult m = run({STROBE_BINARY, "compare", cap, "--sampling", "pka,tbpoint", "--json", "-"}, kCache);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  const nlohmann::json j = nlohmann::json::parse(m.out);
  EXPECT_TRUE(j["methods"]["tbpoint"].contains("one_shot_speedup"));
  fs::remove_all(dir);
}

TEST(StrobeCaptureProgram, ACaptureWithTimingOrAMethodIsRefused) {
  RunResult r = run({STROBE_BINARY, "capture", "-o", "/tmp/x.cap", "--param", "n=1", "--", program_path("matmul")},
                    kCache);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--param"));
}

}  // namespace
}  // namespace strobe::opencl_test
