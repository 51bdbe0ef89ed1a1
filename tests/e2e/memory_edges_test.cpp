// End-to-end: what real programs do at the edges of their memory. Kernarg segments without hidden
// arguments, whose trailing scalar loads LLVM widens past the last argument, and vector loads
// that run past the end of an input buffer, as on hardware.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/error.h"
#include "e2e/kernel_fixture.h"

namespace strobe::e2e {
namespace {

class MemoryEdges : public KernelTest {
 protected:
  void SetUp() override {
    KernelTest::SetUp();
    // The kernarg tail must be readable by the runtime's own allocation, not by page slack.
    dev_.set_memory_check(emu::MemoryCheck::Strict);
  }
};
STROBE_E2E_SUITE(MemoryEdges);

TEST_P(MemoryEdges, RegressionConv2dKernargOverReadFaultedOnThePaddedTail) {
  const int w = 37, h = 23, mw = 5;
  Rng rng(5);
  std::vector<float> img(w * h), mask(mw * mw);
  for (auto& v : img) v = rng.uniform(-1, 1);
  for (auto& v : mask) v = rng.uniform(0, 1);
  auto& m = load("kernarg_tail");
  uint64_t di = upload(img), dm = upload(mask), dout = zeros<float>(w * h);
  launch(m, "conv2d", {48, 32, 1}, {16, 16, 1},
         {ArgValue::buffer(di), ArgValue::buffer(dout), ArgValue::buffer(dm), ArgValue::scalar(int32_t(w)),
          ArgValue::scalar(int32_t(h)), ArgValue::scalar(int32_t(mw))},
         2);
  auto got = download<float>(dout, w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double sum = 0, magnitude = 0;  // the kernel's summation order differs: bound by the terms' size
      for (int j = -2; j <= 2; ++j)
        for (int i = -2; i <= 2; ++i) {
          const int xx = std::clamp(x + i, 0, w - 1), yy = std::clamp(y + j, 0, h - 1);
          const double t = double(img[yy * w + xx]) * mask[(j + 2) * mw + i + 2];
          sum += t, magnitude += std::abs(t);
        }
      ASSERT_NEAR(got[y * w + x], sum, 1e-6 * magnitude + 1e-7) << "at " << x << "," << y;
    }
}

TEST_P(MemoryEdges, TiledMatmulWithThreePointersAndThreeIntsReadsItsKernargTail) {
  const int M = 19, N = 21, K = 13;
  Rng rng(6);
  std::vector<float> a(M * K), b(K * N);
  for (auto& v : a) v = rng.uniform(-1, 1);
  for (auto& v : b) v = rng.uniform(-1, 1);
  auto& m = load("kernarg_tail");
  uint64_t da = upload(a), db = upload(b), dc = zeros<float>(M * N);
  launch(m, "matmul3", {32, 32, 1}, {16, 16, 1},
         {ArgValue::buffer(da), ArgValue::buffer(db), ArgValue::buffer(dc), ArgValue::scalar(int32_t(M)),
          ArgValue::scalar(int32_t(N)), ArgValue::scalar(int32_t(K))},
         2);
  auto c = download<float>(dc, M * N);
  for (int r = 0; r < M; ++r)
    for (int col = 0; col < N; ++col) {
      double acc = 0;
      for (int i = 0; i < K; ++i) acc += double(a[r * K + i]) * b[i * N + col];
      ASSERT_NEAR(c[r * N + col], acc, 1e-4) << r << "," << col;
    }
}

TEST_P(MemoryEdges, PointerThenIntArgumentListsOfEveryLengthRun) {
  const uint32_t n = 64;
  std::vector<int32_t> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = int32_t(i * 3 + 1), y[i] = int32_t(i ^ 5);
  auto& m = load("kernarg_tail");
  uint64_t dx = upload(x), dy = upload(y), o = zeros<int32_t>(n);
  auto check = [&](const char* kernel, auto expect) {
    auto got = download<int32_t>(o, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], expect(int32_t(i))) << kernel << " at " << i;
  };
  auto s = [](int32_t v) { return ArgValue::scalar(v); };
  launch(m, "p1i1", {n, 1, 1}, {n, 1, 1}, {ArgValue::buffer(o), s(7)});
  check("p1i1", [](int32_t i) { return 7 + i; });
  launch(m, "p1i2", {n, 1, 1}, {n, 1, 1}, {ArgValue::buffer(o), s(7), s(3)});
  check("p1i2", [](int32_t i) { return 21 + i; });
  launch(m, "p1i3", {n, 1, 1}, {n, 1, 1}, {ArgValue::buffer(o), s(7), s(3), s(-4)});
  check("p1i3", [](int32_t i) { return 17 + i; });
  launch(m, "p2i1", {n, 1, 1}, {n, 1, 1}, {ArgValue::buffer(dx), ArgValue::buffer(o), s(9)});
  check("p2i1", [&](int32_t i) { return x[i] + 9; });
  launch(m, "p2i3", {n, 1, 1}, {n, 1, 1}, {ArgValue::buffer(dx), ArgValue::buffer(o), s(2), s(5), s(11)});
  check("p2i3", [&](int32_t i) { return x[i] * 2 + 5 - 11; });
  launch(m, "p3i5", {n, 1, 1}, {n, 1, 1},
         {ArgValue::buffer(dx), ArgValue::buffer(dy), ArgValue::buffer(o), s(2), s(3), s(4), s(5), s(6)});
  check("p3i5", [&](int32_t i) { return x[i] * 2 + y[i] * 3 + 4 - 5 + 6; });
}

TEST_P(MemoryEdges, RegressionMergeSortPassVectorLoadPastTheEndRunsAsOnHardwareWithAWarning) {
  dev_.set_memory_check(emu::MemoryCheck::Page);
  std::vector<std::string> warnings;
  dev_.set_warning_sink([&](const std::string& w) { warnings.push_back(w); });
  const uint32_t n = 1021;  // the last group of four has one element: 12 bytes are read past the end
  std::vector<int32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = int32_t(i * 7 % 101);
  auto& m = load("past_end");
  const uint32_t groups = (n + 3) / 4;
  uint64_t din = upload(in), dout = zeros<int32_t>(groups);
  runtime::LaunchResult r = launch(m, "sum_tail", {(groups + 63) / 64 * 64, 1, 1}, {64, 1, 1},
                                   {ArgValue::buffer(din), ArgValue::buffer(dout), ArgValue::scalar(n)});
  auto got = download<int32_t>(dout, groups);
  for (uint32_t g = 0; g < groups; ++g) {
    int32_t s = 0;
    for (uint32_t i = g * 4; i < std::min(n, g * 4 + 4); ++i) s += in[i];
    ASSERT_EQ(got[g], s) << "group " << g;
  }
  EXPECT_GE(r.past_end.count, 1u);
  ASSERT_FALSE(r.past_end.shown.empty());
  EXPECT_NE(r.past_end.shown[0].find("kernel sum_tail"), std::string::npos) << r.past_end.shown[0];
  EXPECT_NE(r.past_end.shown[0].find("inside a mapped page"), std::string::npos) << r.past_end.shown[0];
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("--memory-check strict"), std::string::npos) << warnings[0];
}

TEST_P(MemoryEdges, StrictMemoryCheckMakesAReadPastTheEndAFault) {
  const uint32_t n = 1021;
  std::vector<int32_t> in(n, 1);
  auto& m = load("past_end");
  const uint32_t groups = (n + 3) / 4;
  uint64_t din = upload(in), dout = zeros<int32_t>(groups);
  try {
    launch(m, "sum_tail", {(groups + 63) / 64 * 64, 1, 1}, {64, 1, 1},
           {ArgValue::buffer(din), ArgValue::buffer(dout), ArgValue::scalar(n)});
    FAIL() << "expected a fault";
  } catch (const FaultError& e) {
    EXPECT_NE(std::string(e.what()).find("is outside every live allocation"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace strobe::e2e
