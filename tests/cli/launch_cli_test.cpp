// `strobe launch` end to end: argument specs, --dump, --json, and one clear error per bad input.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

template <typename T>
void write_vec(const std::filesystem::path& p, const std::vector<T>& v) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(T)));
}

template <typename T>
std::vector<T> read_vec(const std::filesystem::path& p) {
  std::string s = slurp(p);
  std::vector<T> v(s.size() / sizeof(T));
  std::memcpy(v.data(), s.data(), v.size() * sizeof(T));
  return v;
}

TEST(LaunchCli, VecaddDumpsEveryBufferArgumentAfterTheRun) {
  TempDir t;
  const uint32_t n = 300;
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i) * 0.5f, b[i] = 3.0f - float(i);
  write_vec(t.path / "a.bin", a);
  write_vec(t.path / "b.bin", b);
  auto r = run_strobe("launch " + kernel("vecadd") + " --kernel vecadd --grid 300 --local 64 --arg buf:" + (t.path / "a.bin").string() +
                      " --arg buf:" + (t.path / "b.bin").string() + " --arg zeros:1200 --arg u32:300 --dump " +
                      (t.path / "dump").string());
  ASSERT_EQ(r.rc, 0) << r.err;
  auto c = read_vec<float>(t.path / "dump" / "arg2.bin");
  ASSERT_EQ(c.size(), n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(c[i], a[i] + b[i]) << i;
  EXPECT_EQ(read_vec<float>(t.path / "dump" / "arg0.bin"), a);
  EXPECT_FALSE(std::filesystem::exists(t.path / "dump" / "arg3.bin"));  // scalars are not dumped
}

TEST(LaunchCli, JsonReportCarriesTheContractFields) {
  auto r = run_strobe("launch " + kernel("vecadd") + " --kernel vecadd --grid 128 --arg zeros:512 --arg zeros:512 --arg zeros:512 "
                      "--arg u32:128 --json -");
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"benchmark", "mode", "arch", "sampling", "verified", "wall_seconds", "wave_instructions",
                          "thread_instructions", "kernels"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["mode"], "functional");
  ASSERT_EQ(j["kernels"].size(), 1u);
  const auto& k = j["kernels"][0];
  EXPECT_EQ(k["name"], "vecadd");
  EXPECT_EQ(k["launch"], 0);
  EXPECT_EQ(k["grid"], nlohmann::json({128, 1, 1}));
  EXPECT_EQ(k["local"], nlohmann::json({64, 1, 1}));
  EXPECT_EQ(k["wavefronts"], 2);
  EXPECT_GT(k["wave_instructions"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["wave_instructions"], k["wave_instructions"]);
}

TEST(LaunchCli, JsonFileIsWrittenWhole) {
  TempDir t;
  auto path = (t.path / "r.json").string();
  auto r = run_strobe("launch " + kernel("vecadd") + " --kernel vecadd --grid 64 --arg zeros:256 --arg zeros:256 --arg zeros:256 "
                      "--arg u32:64 --json " + path);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NO_THROW(nlohmann::json::parse(slurp(path)));
  for (auto& e : std::filesystem::directory_iterator(t.path)) EXPECT_EQ(e.path().filename(), "r.json");
}

TEST(LaunchCli, DynamicLocalBufferAndScalarArguments) {
  TempDir t;
  std::vector<int32_t> in(1000);
  for (int i = 0; i < 1000; ++i) in[i] = i - 300;
  write_vec(t.path / "in.bin", in);
  auto r = run_strobe("launch " + kernel("reduce_sum") + " --kernel reduce_sum --grid 1024 --local 128 --arg buf:" +
                      (t.path / "in.bin").string() + " --arg zeros:4 --arg local:512 --arg u32:1000 --dump " + t.path.string());
  ASSERT_EQ(r.rc, 0) << r.err;
  auto total = read_vec<int32_t>(t.path / "arg1.bin");
  ASSERT_EQ(total.size(), 1u);
  EXPECT_EQ(total[0], (999 * 1000) / 2 - 300 * 1000);
}

TEST(LaunchCli, MissingKernelListsTheKernelsThatExist) {
  auto r = run_strobe("launch " + kernel("math_builtins") + " --kernel nope --grid 64");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("nope"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("math_exact"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("math_approx"), std::string::npos) << r.err;
}

TEST(LaunchCli, NotAnElfFileIsBadInput) {
  TempDir t;
  std::ofstream(t.path / "x.hsaco") << "hello";
  auto r = run_strobe("launch " + (t.path / "x.hsaco").string() + " --kernel k --grid 1");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("x.hsaco"), std::string::npos) << r.err;
}

TEST(LaunchCli, MissingFileIsBadInput) {
  auto r = run_strobe("launch /nonexistent/file.hsaco --kernel k --grid 1");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("/nonexistent/file.hsaco"), std::string::npos) << r.err;
}

TEST(LaunchCli, MalformedArgSpecsAreBadInput) {
  std::string base = kernel("vecadd") + " --kernel vecadd --grid 64 ";
  for (const char* bad : {"--arg u32:-1", "--arg i32:99999999999", "--arg f32:abc", "--arg zeros:", "--arg buf:",
                          "--arg what:3", "--arg 17", "--arg local:999999999", "--arg u32:12x"}) {
    auto r = run_strobe("launch " + base + bad);
    EXPECT_EQ(r.rc, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("--arg"), std::string::npos) << bad << ": " << r.err;
  }
}

TEST(LaunchCli, BadGeometryIsBadInput) {
  std::string args = " --arg zeros:4 --arg zeros:4 --arg zeros:4 --arg u32:1";
  for (const char* bad : {"--grid 0", "--grid 1,2,3,4", "--grid x", "--grid 64 --local 0", "--grid 64 --local 2048",
                          "--grid 64 --local 70000"}) {
    auto r = run_strobe("launch " + kernel("vecadd") + " --kernel vecadd " + bad + args);
    EXPECT_EQ(r.rc, 2) << bad << ": " << r.err;
  }
}

TEST(LaunchCli, WrongArgumentCountOrKindNamesTheArgument) {
  auto few = run_strobe("launch " + kernel("vecadd") + " --kernel vecadd --grid 64 --arg zeros:4");
  EXPECT_EQ(few.rc, 2);
  EXPECT_NE(few.err.find("takes 4 arguments"), std::string::npos) << few.err;
  auto kind = run_strobe("launch " + kernel("vecadd") + " --kernel vecadd --grid 64 --arg u32:1 --arg zeros:4 --arg zeros:4 --arg u32:1");
  EXPECT_EQ(kind.rc, 2);
  EXPECT_NE(kind.err.find("argument 0"), std::string::npos) << kind.err;
  auto size = run_strobe("launch " + kernel("vecadd") + " --kernel vecadd --grid 64 --arg zeros:4 --arg zeros:4 --arg zeros:4 --arg u64:1");
  EXPECT_EQ(size.rc, 2);
  EXPECT_NE(size.err.find("4 bytes"), std::string::npos) << size.err;
}

TEST(LaunchCli, OutOfBoundsKernelAccessIsAFaultNotACrash) {
  auto r = run_strobe("launch " + kernel("oob_write") + " --kernel oob_write --grid 64 --arg zeros:256 --arg u32:100000000");
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find("oob_write"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("flat_store_dword"), std::string::npos) << r.err;
}

TEST(LaunchCli, ReadPastTheEndInsideAMappedPageWarnsAndCountsByDefault) {
  // 1021 ints: the last 16-byte vector load reads 12 bytes past the input, as merge sort does.
  const std::string base = "launch " + kernel("past_end") + " --kernel sum_tail --grid 256 --arg zeros:4084 "
                           "--arg zeros:1024 --arg u32:1021";
  auto r = run_strobe(base + " --json -");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("warning: kernel sum_tail"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("inside a mapped page"), std::string::npos) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_GE(j["kernels"][0]["past_end_accesses"].get<uint64_t>(), 1u);

  auto strict = run_strobe(base + " --memory-check strict");
  EXPECT_EQ(strict.rc, 1) << strict.err;
  EXPECT_NE(strict.err.find("is outside every live allocation"), std::string::npos) << strict.err;

  auto bad = run_strobe(base + " --memory-check loose");
  EXPECT_EQ(bad.rc, 2) << bad.err;
  EXPECT_NE(bad.err.find("memory check 'loose'"), std::string::npos) << bad.err;
}

TEST(LaunchCli, TimingModeReportsCyclesAndTheEffectiveConfig) {
  std::string cmd = "launch " + kernel("vecadd") + " --kernel vecadd --grid 256 --mode timing --arg zeros:1024 "
                    "--arg zeros:1024 --arg zeros:1024 --arg u32:256 --set cu.scheduler=gto --json -";
  auto r = run_strobe(cmd);
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mode"], "timing");
  ASSERT_TRUE(j.contains("cycles"));
  EXPECT_GT(j["cycles"].get<uint64_t>(), 0u);
  EXPECT_GT(j["sim_seconds"].get<double>(), 0.0);
  EXPECT_EQ(j["kernels"][0]["cycles"], j["cycles"]);
  EXPECT_EQ(j["config"]["cu"]["scheduler"], "gto");  // the override is in the written config
  EXPECT_TRUE(j["kernels"][0]["timing"].contains("cpi_stack"));
  EXPECT_FALSE(j["kernels"][0]["timing"].contains("counters"));  // raw counters only on request
  auto raw = nlohmann::json::parse(run_strobe(cmd + " --counters").out);
  EXPECT_TRUE(raw["kernels"][0]["timing"].contains("counters"));
  // Same inputs and configuration: identical cycle counts.
  auto again = nlohmann::json::parse(run_strobe(cmd).out);
  EXPECT_EQ(again["cycles"], j["cycles"]);
}

TEST(LaunchCli, BadConfigOverridesAreBadInput) {
  std::string base = "launch " + kernel("vecadd") + " --kernel vecadd --grid 64 --mode timing --arg zeros:256 "
                     "--arg zeros:256 --arg zeros:256 --arg u32:64 ";
  auto unknown = run_strobe(base + "--set no.such.key=1");
  EXPECT_EQ(unknown.rc, 2);
  EXPECT_NE(unknown.err.find("no.such.key"), std::string::npos) << unknown.err;
  auto functional = run_strobe("launch " + kernel("vecadd") + " --kernel vecadd --grid 64 --set cu.scheduler=gto");
  EXPECT_EQ(functional.rc, 2) << "--set without --mode timing would be silently ignored";
  auto bad = run_strobe(base + "--set cu.scheduler=fastest");
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("cu.scheduler"), std::string::npos) << bad.err;
}

TEST(LaunchCli, UnknownModeArchAndSubcommandAreBadUsage) {
  EXPECT_EQ(run_strobe("launch " + kernel("vecadd") + " --kernel vecadd --grid 64 --mode fast").rc, 2);
  EXPECT_EQ(run_strobe("launch " + kernel("vecadd") + " --kernel vecadd --grid 64 --arch gtx480").rc, 2);
  EXPECT_EQ(run_strobe("frobnicate").rc, 2);
  EXPECT_EQ(run_strobe("launch").rc, 2);
  EXPECT_EQ(run_strobe("").rc, 2);
}

}  // namespace
}  // namespace strobe::clitest
