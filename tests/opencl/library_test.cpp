// Real OpenCL libraries from Debian, unmodified, on strobe: each checking program
// (tests/opencl/libraries) calls its library and compares every result with a CPU reference; here
// each runs under `strobe run --` in functional and in timing mode. A library can fall back to the
// CPU without a word (OpenCV does), so the platform's report must also name the library's own
// kernels for every operation checked.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "opencl/opencl_test_support.h"

namespace strobe::opencl_test {
namespace {

namespace fs = std::filesystem;

/// One library check: its program, how many checks it makes, and kernels its library must run.
struct Library {
  std::string name;
  int checks;
  std::set<std::string> kernels;
};

const Library kLibraries[] = {
    {"clblast", 11, {"XgemmDirectTN", "XgemmDirectNT", "XgemmDirectTT", "Xgemv", "Xaxpy", "Xdot", "Xnrm2",
                     "InvertDiagonalBlock"}},
    {"clfft", 7, {"fft_fwd", "fft_back", "transpose_square"}},
    {"viennacl", 11, {"_prod_TT", "vec_mul", "inner_prod1", "norm", "sum", "cg_csr_prod", "cg_vector_update"}},
    {"opencv", 6, {"RGB2Gray", "row_filter", "col_filter", "resizeAREA_FAST", "resizeLN", "stage1_with_sobel",
                   "stage2_hysteresis", "getEdges", "max_pool_forward_float", "kernel_channel_max"}},
};

/// Where a run keeps its report.
std::string report_path(const std::string& name) {
  return (fs::path(::testing::TempDir()) / ("strobe-library-" + name + "-" + std::to_string(::getpid()) + ".json"))
      .string();
}

/// `strobe run [--mode timing] --json REPORT -- PROGRAM args...` with the test program cache.
RunResult run_on_strobe(const std::string& program, const std::vector<std::string>& args, bool timing,
                        const std::string& report) {
  std::vector<std::string> argv = {STROBE_BINARY, "run", "--json", report};
  if (timing) argv.insert(argv.end(), {"--mode", "timing"});
  argv.push_back("--");
  argv.push_back(std::string(STROBE_OPENCL_LIBRARY_DIR) + "/" + program + "_check");
  argv.insert(argv.end(), args.begin(), args.end());
  EnvChanges env = strobe_env();
  env.emplace_back("CL_TEST_PLATFORM", "");
  return run(argv, env);
}

/// The names of the kernels a report lists.
std::set<std::string> kernel_names(const nlohmann::json& report) {
  std::set<std::string> names;
  for (const auto& k : report.at("kernels")) names.insert(k.at("name").get<std::string>());
  return names;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

class Libraries : public ::testing::TestWithParam<std::tuple<Library, bool>> {};

TEST_P(Libraries, EveryCheckMatchesTheCpuReferenceOnTheLibrarysOwnKernels) {
  const auto& [lib, timing] = GetParam();
  const std::string report = report_path(lib.name + (timing ? "-timing" : "-functional"));
  RunResult r = run_on_strobe(lib.name, {}, timing, report);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // Every check printed its verdict, and all passed.
  const std::regex line(R"(^check (\S+): (ok|FAILED))");
  int ok = 0, seen = 0;
  std::istringstream in(r.out);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (!std::regex_search(l, m, line)) continue;
    ++seen;
    if (m[2] == "ok") ++ok;
    else ADD_FAILURE() << l;
  }
  EXPECT_EQ(seen, lib.checks) << r.out;
  EXPECT_EQ(ok, lib.checks);
  nlohmann::json j = read_json(report);
  EXPECT_EQ(j.at("mode"), timing ? "timing" : "functional");
  const std::set<std::string> ran = kernel_names(j);
  for (const std::string& k : lib.kernels) EXPECT_TRUE(ran.count(k)) << lib.name << " did not run " << k << " on strobe";
  if (timing) EXPECT_GT(j.at("cycles").get<uint64_t>(), 0u);
  fs::remove(report);
}

INSTANTIATE_TEST_SUITE_P(Debian, Libraries, ::testing::Combine(::testing::ValuesIn(kLibraries), ::testing::Bool()),
                         [](const auto& info) {
                           return std::get<0>(info.param).name + (std::get<1>(info.param) ? "_timing" : "_functional");
                         });

TEST(LibraryWorkloads, ClblastSgemmIsTimedByItsProfilingEventAsTheReportTimesItsKernel) {
  // The GEMM workload: one checked SGEMM, then a timed one whose profiling interval is the
  // simulated time of its one kernel.
  const std::string report = report_path("gemm");
  RunResult r = run_on_strobe("clblast", {"gemm", "128"}, true, report);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  double us = 0, gflops = 0;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(sgemm 128: ([0-9.]+) us, ([0-9.]+) GFLOPS)"))) << r.out;
  us = std::stod(m[1]), gflops = std::stod(m[2]);
  nlohmann::json j = read_json(report);
  ASSERT_EQ(j.at("kernels").size(), 2u);
  const double kernel_us = j["kernels"][1].at("sim_seconds").get<double>() * 1e6;
  EXPECT_NEAR(us, kernel_us, 0.1);
  EXPECT_NEAR(gflops, 2.0 * 128 * 128 * 128 / (kernel_us * 1e3), 0.1);
  // Deterministic: the same program gives the same cycles.
  const uint64_t cycles = j.at("cycles").get<uint64_t>();
  ASSERT_EQ(run_on_strobe("clblast", {"gemm", "128"}, true, report).exit_code, 0);
  EXPECT_EQ(read_json(report).at("cycles").get<uint64_t>(), cycles);
  fs::remove(report);
}

TEST(LibraryWorkloads, ClblastTakesItsTuningForFijiOnTheSimulatedR9Nano) {
  // CLBlast picks kernels and their parameters by the device's vendor and name. The device says
  // what AMD's runtime says of gfx803, so a 512^3 SGEMM takes CLBlast's Fiji tuning (the
  // indirect Xgemm kernel, 16 x 8 work-groups), as on a real R9 Nano. Seen as an unknown vendor,
  // it took its generic defaults (XgemmDirect, 8 x 8): 0.13 against 1.77 TFLOPS in timing mode.
  const std::string report = report_path("fiji");
  RunResult r = run_on_strobe("clblast", {"gemm", "512"}, false, report);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  int xgemm = 0;
  const nlohmann::json j = read_json(report);
  for (const auto& k : j.at("kernels")) {
    EXPECT_NE(k.at("name"), "XgemmDirectNN");
    if (k.at("name") == "Xgemm") {
      ++xgemm;
      EXPECT_EQ(k.at("local"), nlohmann::json::array({16, 8, 1}));
    }
  }
  EXPECT_EQ(xgemm, 2);  // the checked SGEMM and the timed one
  fs::remove(report);
}

}  // namespace
}  // namespace strobe::opencl_test
