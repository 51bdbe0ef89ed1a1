// End-to-end: OpenCL kernels from kernels/emu compiled by clang-15 (v4) and clang-19 (v5),
// loaded, decoded and executed; results checked against host references.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <random>

#include "emu_test_util.h"

namespace strobe::emu {
namespace {
using test::Arg;
using test::CompiledKernel;

class Kernels : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    // clang-19 is optional: without it the v5 tree is not built.
    if (!std::filesystem::exists(test::kernel_path("emu/reduce", GetParam())))
      GTEST_SKIP() << "kernels not built: " << test::kernel_path("emu/reduce", GetParam());
  }
  std::string path(const std::string& stem) { return test::kernel_path("emu/" + stem, GetParam()); }
  GlobalMemory mem;
  uint64_t upload(const void* data, size_t bytes) {
    uint64_t a = mem.allocate(bytes);
    mem.write(a, data, bytes);
    return a;
  }
  template <typename T>
  std::vector<T> download(uint64_t a, size_t n) {
    std::vector<T> v(n);
    mem.read(a, v.data(), n * sizeof(T));
    return v;
  }
};

TEST_P(Kernels, LdsReductionWithBarriersSumsEachGroup) {
  CompiledKernel k(path("reduce"), "reduce_sum");
  const uint32_t n = 1000, local = 256, groups = 4;
  std::vector<uint32_t> in(n);
  std::iota(in.begin(), in.end(), 1u);
  uint64_t din = upload(in.data(), n * 4), dout = upload(std::vector<uint32_t>(groups).data(), groups * 4);
  DispatchStats s = test::launch(mem, k, {groups * local, 1, 1}, {local, 1, 1},
                                 {{Arg::Pointer, din}, {Arg::Pointer, dout}, {Arg::Local, local * 4}, {Arg::U32, n}});
  auto out = download<uint32_t>(dout, groups);
  for (uint32_t g = 0; g < groups; ++g) {
    uint32_t want = 0;
    for (uint32_t i = g * local; i < std::min(n, (g + 1) * local); ++i) want += in[i];
    EXPECT_EQ(out[g], want) << g;
  }
  EXPECT_EQ(s.workgroups, groups);
  EXPECT_GT(s.lds_instructions, 0u);
}

TEST_P(Kernels, LocalAndGlobalAtomicsCountExactly) {
  CompiledKernel k(path("atomics"), "histogram");
  const uint32_t n = 1000;
  std::vector<uint32_t> in(n);
  std::mt19937 rng(1);
  for (auto& x : in) x = rng();
  uint64_t din = upload(in.data(), n * 4);
  uint64_t bins = upload(std::vector<uint32_t>(16).data(), 64), counter = upload(std::vector<uint32_t>(1).data(), 4);
  uint64_t tickets = upload(std::vector<uint32_t>(n).data(), n * 4);
  test::launch(mem, k, {n, 1, 1}, {128, 1, 1},
               {{Arg::Pointer, din}, {Arg::Pointer, bins}, {Arg::Pointer, counter}, {Arg::Pointer, tickets}, {Arg::U32, n}});
  std::vector<uint32_t> want(16);
  for (uint32_t x : in) ++want[x & 15];
  EXPECT_EQ(download<uint32_t>(bins, 16), want);
  EXPECT_EQ(download<uint32_t>(counter, 1)[0], n);
  auto t = download<uint32_t>(tickets, n);
  std::sort(t.begin(), t.end());
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(t[i], i);
}

TEST_P(Kernels, GlobalMinMaxExchangeAndCompareExchange) {
  CompiledKernel k(path("atomics"), "minmax");
  std::vector<int32_t> in = {5, -7, 12, 3, -2, 40, 0, 9};
  uint64_t din = upload(in.data(), in.size() * 4);
  std::vector<int32_t> init = {1000, -1000, 0, 0};
  uint64_t res = upload(init.data(), 16);
  test::launch(mem, k, {8, 1, 1}, {8, 1, 1}, {{Arg::Pointer, din}, {Arg::Pointer, res}, {Arg::U32, 8}});
  auto r = download<int32_t>(res, 4);
  EXPECT_EQ(r[0], -7);
  EXPECT_EQ(r[1], 40);
  EXPECT_EQ(r[2], 7);
  EXPECT_GE(r[3], 1);  // exactly one work-item won the exchange
  EXPECT_LE(r[3], 8);
}

TEST_P(Kernels, DynamicallyIndexedPrivateArrayUsesScratch) {
  CompiledKernel k(path("scratch"), "private_array");
  const uint32_t n = 200;
  std::vector<uint32_t> idx(n);
  for (uint32_t i = 0; i < n; ++i) idx[i] = i * 13 + 5;
  uint64_t di = upload(idx.data(), n * 4), dout = upload(std::vector<uint32_t>(n).data(), n * 4);
  DispatchStats s = test::launch(mem, k, {n, 1, 1}, {64, 1, 1}, {{Arg::Pointer, di}, {Arg::Pointer, dout}});
  auto out = download<uint32_t>(dout, n);
  for (uint32_t g = 0; g < n; ++g) {
    uint32_t kk = idx[g] % 40;
    ASSERT_EQ(out[g], (g * 100 + kk + 5) + (g * 100 + (kk + 7) % 40) + ((kk + 7) % 40 == kk ? 5 : 0)) << g;
  }
  EXPECT_GT(s.vector_memory_instructions, 40u);
}

TEST_P(Kernels, ByteAndShortDataRoundTrip) {
  CompiledKernel k(path("bytes"), "bytes_shorts");
  const uint32_t n = 77;
  std::vector<uint8_t> a(n);
  std::vector<int8_t> b(n);
  std::vector<int16_t> c(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = uint8_t(i * 37), b[i] = int8_t(i * 11 - 100), c[i] = int16_t(i * 1000 - 30000);
  uint64_t da = upload(a.data(), n), db = upload(b.data(), n), dc = upload(c.data(), n * 2);
  uint64_t o16 = upload(std::vector<uint16_t>(n).data(), n * 2), o8 = upload(std::vector<int8_t>(n).data(), n);
  test::launch(mem, k, {n, 1, 1}, {32, 1, 1},
               {{Arg::Pointer, da}, {Arg::Pointer, db}, {Arg::Pointer, dc}, {Arg::Pointer, o16}, {Arg::Pointer, o8},
                {Arg::U32, n}});
  auto r16 = download<uint16_t>(o16, n);
  auto r8 = download<int8_t>(o8, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(r16[i], uint16_t(a[i] * 3 + c[i])) << i;
    ASSERT_EQ(r8[i], int8_t(b[i] / 2 - 1)) << i;
  }
}

TEST_P(Kernels, ThreeDimensionalGridWithPartialGroups) {
  CompiledKernel k(path("grid"), "grid_ids");
  const uint32_t w = 10, h = 7, d = 3;
  uint64_t out = upload(std::vector<uint32_t>(w * h * d, 0xFFFFFFFF).data(), w * h * d * 4);
  DispatchStats s = test::launch(mem, k, {w, h, d}, {4, 4, 2}, {{Arg::Pointer, out}});
  auto o = download<uint32_t>(out, w * h * d);
  for (uint32_t z = 0; z < d; ++z)
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        uint32_t want = (x / 4) << 24 | (y / 4) << 16 | (z / 2) << 8 | (x % 4 + (y % 4) * 4 + (z % 2) * 16);
        ASSERT_EQ(o[(z * h + y) * w + x], want) << x << "," << y << "," << z;
      }
  EXPECT_EQ(s.workgroups, 3u * 2 * 2);
}

TEST_P(Kernels, TiledMatmulMatchesHostAndRunsFast) {
  CompiledKernel k(path("matmul"), "matmul_tiled");
  // STROBE_MATMUL_N lets a developer measure throughput on a bigger problem.
  const uint32_t n = std::getenv("STROBE_MATMUL_N") ? uint32_t(std::atoi(std::getenv("STROBE_MATMUL_N"))) : 128;
  std::vector<float> A(n * n), B(n * n);
  for (uint32_t i = 0; i < n * n; ++i) A[i] = float(i % 7) - 3, B[i] = float(i % 5) * 0.5f;
  uint64_t da = upload(A.data(), n * n * 4), db = upload(B.data(), n * n * 4);
  uint64_t dc = upload(std::vector<float>(n * n).data(), n * n * 4);
  auto t0 = std::chrono::steady_clock::now();
  DispatchStats s = test::launch(mem, k, {n, n, 1}, {16, 16, 1},
                                 {{Arg::Pointer, da}, {Arg::Pointer, db}, {Arg::Pointer, dc}, {Arg::U32, n}});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto C = download<float>(dc, n * n);
  for (uint32_t r = 0; r < n; r += 7)
    for (uint32_t c = 0; c < n; c += 5) {
      float want = 0;
      for (uint32_t i = 0; i < n; ++i) want += A[r * n + i] * B[i * n + c];
      ASSERT_FLOAT_EQ(C[r * n + c], want) << r << "," << c;
    }
  double rate = s.wave_instructions / secs;
  RecordProperty("wave_instructions_per_second", std::to_string(rate));
  std::printf("matmul %u: %llu wave instructions in %.3f s = %.1f M/s\n", n,
              (unsigned long long)s.wave_instructions, secs, rate / 1e6);
}

INSTANTIATE_TEST_SUITE_P(Clang, Kernels, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "v5" : "v4"; });

}  // namespace
}  // namespace strobe::emu
