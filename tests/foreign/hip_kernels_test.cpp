// HIP device code from hipcc (ROCm 5.2, clang-15) runs under `strobe launch` and matches CPU
// references, in every flavour the build produced: -O3, -O0 (real calls into device-library
// functions) and -O3 with local branch-target symbols.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <numeric>

#include "foreign/foreign_runner.h"

namespace strobe::foreigntest {
namespace {

/// The launch succeeded; otherwise its stderr is the failure message.
#define ASSERT_LAUNCHED(r) ASSERT_EQ((r).rc, 0) << (r).err

class HipKernel : public ::testing::TestWithParam<std::string> {
 protected:
  std::filesystem::path object(const std::string& stem) {
    auto p = hip_object(GetParam(), stem);
    if (!std::filesystem::exists(p)) ADD_FAILURE() << p << " was not built (is hipcc installed? see scripts/setup)";
    return p;
  }
};

std::vector<float> ramp(size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(i) * scale + offset;
  return v;
}

TEST_P(HipKernel, VecAddAddsElementwiseWithAPartialLastBlock) {
  const int n = 1000;
  auto a = ramp(n, 0.5f, -3.0f), b = ramp(n, -0.25f, 7.0f);
  Launch l(object("vector_ops"), "vec_add");
  auto r = l.buffer(a).buffer(b).zeros(n * 4).arg("i32:" + std::to_string(n)).run(1024, 256);
  ASSERT_LAUNCHED(r);
  auto c = l.output<float>(2);
  ASSERT_EQ(c.size(), size_t(n));
  for (int i = 0; i < n; ++i) EXPECT_EQ(c[i], a[i] + b[i]) << i;
}

TEST_P(HipKernel, SaxpyGridStrideCoversMoreElementsThanThreads) {
  const int n = 5000;
  auto x = ramp(n, 0.125f, 1.0f), y = ramp(n, -1.0f, 2.0f);
  Launch l(object("vector_ops"), "saxpy_grid_stride");
  auto r = l.arg("f32:1.5").buffer(x).buffer(y).arg("i32:" + std::to_string(n)).run(512, 128);
  ASSERT_LAUNCHED(r);
  auto out = l.output<float>(2);
  ASSERT_EQ(out.size(), size_t(n));
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], 1.5f * x[i] + y[i]) << i;
}

TEST_P(HipKernel, IntegerMultiplyAndShift) {
  const int n = 777;
  std::vector<int> a(n), b(n);
  for (int i = 0; i < n; ++i) a[i] = i * 37 - 9000, b[i] = 11 - i;
  Launch l(object("vector_ops"), "int_mul_shift");
  auto r = l.buffer(a).buffer(b).zeros(n * 4).arg("i32:" + std::to_string(n)).run(832, 64);
  ASSERT_LAUNCHED(r);
  auto c = l.output<int>(2);
  ASSERT_EQ(c.size(), size_t(n));
  for (int i = 0; i < n; ++i) EXPECT_EQ(c[i], (a[i] * b[i]) ^ (a[i] >> 3)) << i;
}

TEST_P(HipKernel, BlockSumWithStaticSharedMemoryAndBarriers) {
  const int n = 3000, blocks = 12;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = float(i % 17) - 4.0f;  // small integers: every order sums exactly
  Launch l(object("reduce_shared"), "block_sum");
  auto r = l.buffer(in).zeros(blocks * 4).arg("i32:" + std::to_string(n)).run(blocks * 256, 256);
  ASSERT_LAUNCHED(r);
  auto partial = l.output<float>(1);
  ASSERT_EQ(partial.size(), size_t(blocks));
  for (int b = 0; b < blocks; ++b) {
    float want = 0;
    for (int i = b * 256; i < std::min(n, (b + 1) * 256); ++i) want += in[i];
    EXPECT_EQ(partial[b], want) << "block " << b;
  }
}

TEST_P(HipKernel, DynamicSharedMemoryComesFromTheLaunch) {
  const int blocks = 4, threads = 128;
  std::vector<int> in(blocks * threads);
  std::iota(in.begin(), in.end(), 100);
  Launch l(object("dynamic_shared"), "reverse_block");
  auto r = l.buffer(in).zeros(in.size() * 4).option("--dynamic-lds " + std::to_string(threads * 4)).run(blocks * threads, threads);
  ASSERT_LAUNCHED(r);
  auto out = l.output<int>(1);
  ASSERT_EQ(out.size(), in.size());
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) EXPECT_EQ(out[b * threads + t], in[b * threads + threads - 1 - t]) << b << "," << t;
}

TEST_P(HipKernel, DynamicSharedMemoryMissingFromTheLaunchFaults) {
  // Without --dynamic-lds the kernel's LDS is its static size (0): the first access is out of range.
  std::vector<int> in(64, 1);
  Launch l(object("dynamic_shared"), "reverse_block");
  auto r = l.buffer(in).zeros(256).run(64, 64);
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find("LDS"), std::string::npos) << r.err;
}

TEST_P(HipKernel, IntegerAtomicAddBuildsAHistogram) {
  const int n = 4096;
  std::vector<uint32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = uint32_t(i * 2654435761u >> 7);
  Launch l(object("atomics"), "histogram16");
  auto r = l.buffer(in).zeros(16 * 4).arg("i32:" + std::to_string(n)).run(n, 256);
  ASSERT_LAUNCHED(r);
  std::vector<uint32_t> want(16, 0);
  for (uint32_t v : in) ++want[v & 15u];
  EXPECT_EQ(l.output<uint32_t>(1), want);
}

TEST_P(HipKernel, FloatAtomicAddTotalsEveryElement) {
  const int n = 2000;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = float(i % 8);  // exact in any order
  Launch l(object("atomics"), "float_total");
  auto r = l.buffer(in).zeros(4).arg("i32:" + std::to_string(n)).run(2048, 128);
  ASSERT_LAUNCHED(r);
  auto total = l.output<float>(1);
  ASSERT_EQ(total.size(), 1u);
  EXPECT_EQ(total[0], std::accumulate(in.begin(), in.end(), 0.0f));
}

/// |got - want| within `ulps` units in the last place of `want` (or an absolute floor near 0).
template <typename T>
bool close(T got, T want, T ulps, T floor) {
  const T tol = std::max(std::abs(want) * std::numeric_limits<T>::epsilon() * ulps, floor);
  return std::abs(got - want) <= tol;
}

TEST_P(HipKernel, OcmlSinExpPowMatchTheHostLibrary) {
  const int n = 500;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = -6.0f + float(i) * 0.025f;
  Launch l(object("ocml_math"), "math_f32");
  auto r = l.buffer(x).zeros(n * 4).zeros(n * 4).zeros(n * 4).arg("i32:" + std::to_string(n)).run(512, 64);
  ASSERT_LAUNCHED(r);
  auto s = l.output<float>(1), e = l.output<float>(2), p = l.output<float>(3);
  ASSERT_EQ(s.size(), size_t(n));
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(close(s[i], std::sin(x[i]), 4.0f, 1e-7f)) << "sinf(" << x[i] << ") = " << s[i];
    EXPECT_TRUE(close(e[i], std::exp(x[i]), 4.0f, 0.0f)) << "expf(" << x[i] << ") = " << e[i];
    EXPECT_TRUE(close(p[i], std::pow(std::fabs(x[i]) + 0.5f, 1.75f), 4.0f, 0.0f)) << "powf at " << x[i] << " = " << p[i];
  }
}

TEST_P(HipKernel, OcmlDoubleSinMatchesTheHostLibrary) {
  const int n = 300;
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = -20.0 + double(i) * 0.137;
  Launch l(object("ocml_math"), "math_f64");
  auto r = l.buffer(x).zeros(n * 8).arg("i32:" + std::to_string(n)).run(320, 64);
  ASSERT_LAUNCHED(r);
  auto s = l.output<double>(1);
  ASSERT_EQ(s.size(), size_t(n));
  for (int i = 0; i < n; ++i) EXPECT_TRUE(close(s[i], std::sin(x[i]), 4.0, 1e-16)) << "sin(" << x[i] << ") = " << s[i];
}

TEST_P(HipKernel, TemplateInstantiationsOverFloatDoubleAndInt) {
  const int n = 333;
  {
    auto x = ramp(n, 0.5f, 1.0f), y = ramp(n, 2.0f, -5.0f);
    Launch l(object("templates"), "_Z9scale_addIfEvPKT_PS0_S0_i");
    auto r = l.buffer(x).buffer(y).arg("f32:-2.5").arg("i32:" + std::to_string(n)).run(384, 64);
    ASSERT_LAUNCHED(r);
    auto out = l.output<float>(1);
    ASSERT_EQ(out.size(), size_t(n));
    // hipcc contracts a*b+c into one fused multiply-add by default.
    for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], std::fma(x[i], -2.5f, y[i])) << i;
  }
  {
    std::vector<double> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = i * 0.1, y[i] = 1.0 / (i + 1);
    Launch l(object("templates"), "_Z9scale_addIdEvPKT_PS0_S0_i");
    auto r = l.buffer(x).buffer(y).arg("f64:3.25").arg("i32:" + std::to_string(n)).run(384, 64);
    ASSERT_LAUNCHED(r);
    auto out = l.output<double>(1);
    ASSERT_EQ(out.size(), size_t(n));
    for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], std::fma(x[i], 3.25, y[i])) << i;
  }
  {
    std::vector<int> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = i - 100, y[i] = 7 * i;
    Launch l(object("templates"), "_Z9scale_addIiEvPKT_PS0_S0_i");
    auto r = l.buffer(x).buffer(y).arg("i32:-3").arg("i32:" + std::to_string(n)).run(384, 64);
    ASSERT_LAUNCHED(r);
    auto out = l.output<int>(1);
    ASSERT_EQ(out.size(), size_t(n));
    for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], x[i] * -3 + y[i]) << i;
  }
}

TEST_P(HipKernel, StructPassedByValue) {
  const int n = 200;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = i - 50;
  // struct Affine { int scale; float offset; }: 8 bytes, given as one u64 in memory order.
  const uint64_t affine = uint64_t(uint32_t(3)) | uint64_t(std::bit_cast<uint32_t>(0.25f)) << 32;
  Launch l(object("structs"), "apply_affine");
  auto r = l.buffer(in).zeros(n * 4).arg("u64:" + std::to_string(affine)).arg("i32:" + std::to_string(n)).run(256, 64);
  ASSERT_LAUNCHED(r);
  auto out = l.output<float>(1);
  ASSERT_EQ(out.size(), size_t(n));
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], float(in[i] * 3) + 0.25f) << i;
}

TEST_P(HipKernel, NoinlineDeviceFunctionsAreCalled) {
  const int n = 100;
  auto x = ramp(n, 0.25f, -10.0f);
  Launch l(object("calls"), "call_poly");
  auto r = l.buffer(x).zeros(n * 4).arg("i32:" + std::to_string(n)).run(128, 64);
  ASSERT_LAUNCHED(r);
  auto y = l.output<float>(1);
  ASSERT_EQ(y.size(), size_t(n));
  for (int i = 0; i < n; ++i) {
    // HIP contracts a*b+c into one fused operation by default, so allow a rounding step or two.
    const float want = (x[i] * 0.5f + 1.0f) * x[i] - 2.0f;
    EXPECT_TRUE(close(y[i], want, 8.0f, 1e-6f)) << i << ": " << y[i] << " vs " << want;
  }
}

TEST_P(HipKernel, LoopingDeviceFunctionReturnsItsCount) {
  const int n = 300;
  Launch l(object("calls"), "call_collatz");
  auto r = l.zeros(n * 4).arg("i32:" + std::to_string(n)).run(320, 64);
  ASSERT_LAUNCHED(r);
  auto out = l.output<int>(0);
  ASSERT_EQ(out.size(), size_t(n));
  for (int i = 0; i < n; ++i) {
    int v = i + 1, steps = 0;
    while (v > 1 && steps < 100) v = (v & 1) ? 3 * v + 1 : v / 2, ++steps;
    EXPECT_EQ(out[i], steps) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Flavours, HipKernel, ::testing::Values("O3", "O0", "labels"),
                         [](const auto& info) { return info.param; });

TEST(HipLaunch, DynamicLdsBeyondACuIsBadInput) {
  Launch l(hip_object("O3", "dynamic_shared"), "reverse_block");
  auto r = l.zeros(256).zeros(256).option("--dynamic-lds 70000").run(64, 64);
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("70000 bytes of dynamic LDS asked for; a CU has 65536"), std::string::npos) << r.err;
}

TEST(HipLaunch, TheLdsLimitIsTheConfiguredCusInTimingMode) {
  Launch l(hip_object("O3", "dynamic_shared"), "reverse_block");
  auto r = l.zeros(256).zeros(256).option("--mode timing --set cu.lds_bytes=32768 --dynamic-lds 40000").run(64, 64);
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("40000 bytes of dynamic LDS asked for; a CU has 32768"), std::string::npos) << r.err;
}

TEST_P(HipKernel, DevicePrintfStopsWithNotImplementedNamingTheHostcall) {
  Launch l(object("printf"), "_Z5helloPi");
  auto r = l.zeros(256).run(64, 64);
  EXPECT_EQ(r.rc, 1) << r.err;
  // -O3 calls __ockl_hostcall_internal; -O0 first calls __ockl_hostcall_preview.
  EXPECT_NE(r.err.find("not implemented: a call to __ockl_hostcall_"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("device printf and malloc need a host-side hostcall service"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("kernel _Z5helloPi"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace strobe::foreigntest
