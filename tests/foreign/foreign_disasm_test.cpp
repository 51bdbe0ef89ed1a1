// `strobe disasm` lists foreign code objects (hipcc, clang-15 + ROCm device libraries, v2 with
// an OpenCL environment in the ISA name) exactly as llvm-objdump -d --mcpu=gfx803 does.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "foreign/foreign_runner.h"

namespace strobe::foreigntest {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// Every .hsaco under the build's foreign-code directories, sorted.
std::vector<std::filesystem::path> foreign_objects() {
  std::vector<std::filesystem::path> out;
  for (const char* dir : {"kernels-hip", "kernels-devlibs", "kernels-devlibs-labels", "kernels-amdgizcl"}) {
    const auto root = std::filesystem::path(STROBE_BUILD_DIR) / dir;
    if (!std::filesystem::exists(root)) continue;
    for (auto& e : std::filesystem::recursive_directory_iterator(root))
      if (e.path().extension() == ".hsaco") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ForeignDisasm, EveryForeignCodeObjectListsExactlyAsObjdump) {
  const auto files = foreign_objects();
  // hipcc, clang-15 and the device libraries are installed by scripts/setup.
  ASSERT_FALSE(files.empty()) << "no foreign code objects were built under " << STROBE_BUILD_DIR;
  size_t lines = 0, bad = 0;
  for (const auto& f : files) {
    auto r = clitest::run_strobe("disasm '" + f.string() + "'");
    ASSERT_EQ(r.rc, 0) << f << ": " << r.err;
    const auto got = lines_of(r.out);
    const auto want = lines_of(clitest::shell("llvm-objdump -d --mcpu=gfx803 '" + f.string() + "'"));
    size_t file_bad = std::max(got.size(), want.size()) - std::min(got.size(), want.size());
    for (size_t i = 0; i < std::min(got.size(), want.size()); ++i)
      if (got[i] != want[i] && ++file_bad <= 3)
        ADD_FAILURE() << f << " line " << i + 1 << "\n  strobe:  " << got[i] << "\n  objdump: " << want[i];
    EXPECT_EQ(got.size(), want.size()) << f;
    bad += file_bad;
    lines += want.size();
  }
  RecordProperty("code_objects", static_cast<int>(files.size()));
  RecordProperty("lines", static_cast<int>(lines));
  RecordProperty("mismatching_lines", static_cast<int>(bad));
  EXPECT_EQ(bad, 0u) << "of " << lines << " lines in " << files.size() << " code objects";
}

/// OpenCL test kernels built with clang-15 and the ROCm device libraries: v4, v4 keeping branch
/// labels, and v2 with the amdgizcl environment in its ISA name.
class DeviceLibraryKernel : public ::testing::TestWithParam<std::string> {
 protected:
  std::filesystem::path object(const std::string& stem) {
    auto p = std::filesystem::path(STROBE_BUILD_DIR) / GetParam() / (stem + ".hsaco");
    if (!std::filesystem::exists(p)) ADD_FAILURE() << p << " was not built (clang-15 + ROCm device libraries, see scripts/setup)";
    return p;
  }
};

TEST_P(DeviceLibraryKernel, VecaddRuns) {
  const uint32_t n = 300;
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i) * 0.5f, b[i] = 3.0f - float(i);
  Launch l(object("vecadd"), "vecadd");
  auto r = l.buffer(a).buffer(b).zeros(n * 4).arg("u32:" + std::to_string(n)).run(320, 64);
  ASSERT_EQ(r.rc, 0) << r.err;
  auto c = l.output<float>(2);
  ASSERT_EQ(c.size(), n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(c[i], a[i] + b[i]) << i;
}

TEST_P(DeviceLibraryKernel, ReductionWithLocalBufferAndBarriersRuns) {
  std::vector<int32_t> in(1000);
  for (int i = 0; i < 1000; ++i) in[i] = i - 300;
  Launch l(object("reduce_sum"), "reduce_sum");
  auto r = l.buffer(in).zeros(4).arg("local:512").arg("u32:1000").run(1024, 128);
  ASSERT_EQ(r.rc, 0) << r.err;
  auto total = l.output<int32_t>(1);
  ASSERT_EQ(total.size(), 1u);
  EXPECT_EQ(total[0], (999 * 1000) / 2 - 300 * 1000);
}

INSTANTIATE_TEST_SUITE_P(Builds, DeviceLibraryKernel,
                         ::testing::Values("kernels-devlibs", "kernels-devlibs-labels", "kernels-amdgizcl"),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
}  // namespace strobe::foreigntest
