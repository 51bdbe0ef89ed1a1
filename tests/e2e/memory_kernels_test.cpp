// End-to-end: LDS with barriers, local and global atomics, and scratch, against CPU references.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "e2e/kernel_fixture.h"

namespace strobe::e2e {
namespace {

class MemoryKernels : public KernelTest {};
STROBE_E2E_SUITE(MemoryKernels);

TEST_P(MemoryKernels, ReduceSumTreeInDynamicLdsThenGlobalAtomic) {
  const uint32_t n = 5000, wg = 128;
  Rng rng(10);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(rng.u32() % 2001) - 1000;
  auto& m = load("reduce_sum");
  uint64_t di = upload(in), dt = zeros<int32_t>(1);
  launch(m, "reduce_sum", {(n + wg - 1) / wg * wg, 1, 1}, {wg, 1, 1},
         {ArgValue::buffer(di), ArgValue::buffer(dt), ArgValue::local(wg * 4), ArgValue::scalar(n)});
  EXPECT_EQ(download<int32_t>(dt, 1)[0], std::accumulate(in.begin(), in.end(), 0));
}

TEST_P(MemoryKernels, HistogramWithLocalAndGlobalAtomics) {
  const uint32_t n = 20000;
  Rng rng(11);
  std::vector<uint8_t> data(n);
  for (auto& v : data) v = uint8_t(rng.u32() % 97 + (rng.u32() & 1 ? 100 : 0));
  auto& m = load("histogram");
  uint64_t dd = upload(data), db = zeros<uint32_t>(256);
  launch(m, "histogram", {64 * 24, 1, 1}, {64, 1, 1}, {ArgValue::buffer(dd), ArgValue::buffer(db), ArgValue::scalar(n)});
  std::vector<uint32_t> expect(256, 0);
  for (auto v : data) ++expect[v];
  EXPECT_EQ(download<uint32_t>(db, 256), expect);
}

TEST_P(MemoryKernels, GlobalAtomicsReturnPreviousValues) {
  const uint32_t n = 700;
  auto& m = load("atomics_global");
  std::vector<int32_t> init{0, 1 << 30, -(1 << 30), 0, 1000};
  uint64_t dc = upload(init), dr = zeros<int32_t>(n), dbits = zeros<uint32_t>(8);
  launch(m, "atomics_global", {n, 1, 1}, {64, 1, 1},
         {ArgValue::buffer(dc), ArgValue::buffer(dr), ArgValue::buffer(dbits), ArgValue::scalar(n)});
  auto c = download<int32_t>(dc, 5);
  auto r = download<int32_t>(dr, n);
  auto bits = download<uint32_t>(dbits, 8);
  // Tickets are a permutation of 0..n-1: every atomic_add returned a distinct previous value.
  std::vector<int32_t> sorted = r;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], int32_t(i));
  int32_t mn = INT32_MAX, mx = INT32_MIN;
  std::vector<uint32_t> eb(8, 0);
  for (uint32_t i = 0; i < n; ++i) {
    int32_t v = int32_t(i * 37 % 101) - 50;
    mn = std::min(mn, v), mx = std::max(mx, v);
    eb[i % 4] |= 1u << (i % 32);
    eb[4 + i % 4] ^= i * 2654435761u;
  }
  EXPECT_EQ(c[0], int32_t(n));
  EXPECT_EQ(c[1], mn);
  EXPECT_EQ(c[2], mx);
  EXPECT_GE(c[3], 1);  // one winner's id + 1
  EXPECT_LE(c[3], int32_t(n));
  EXPECT_EQ(c[4], 1000 - 2 * int32_t(n));
  EXPECT_EQ(bits, eb);
}

TEST_P(MemoryKernels, LocalAtomicsPerGroupTicketsMinMaxCas) {
  const uint32_t n = 250, wg = 64, groups = (n + wg - 1) / wg;
  Rng rng(12);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(rng.u32() % 100000) - 50000;
  auto& m = load("local_atomics");
  uint64_t di = upload(in), dt = zeros<int32_t>(groups * wg), dg = zeros<int32_t>(4 * groups);
  launch(m, "local_atomics", {groups * wg, 1, 1}, {wg, 1, 1},
         {ArgValue::buffer(di), ArgValue::buffer(dt), ArgValue::buffer(dg), ArgValue::scalar(n)});
  auto t = download<int32_t>(dt, groups * wg);
  auto g = download<int32_t>(dg, 4 * groups);
  for (uint32_t grp = 0; grp < groups; ++grp) {
    std::set<int32_t> tickets(t.begin() + grp * wg, t.begin() + (grp + 1) * wg);
    EXPECT_EQ(tickets.size(), wg);
    EXPECT_EQ(*tickets.begin(), 0);
    EXPECT_EQ(*tickets.rbegin(), int32_t(wg - 1));
    int32_t mn = 0x7fffffff, mx = -0x7fffffff;
    for (uint32_t l = 0; l < wg; ++l) {
      uint32_t gid = grp * wg + l;
      int32_t v = gid < n ? in[gid] : 0;
      mn = std::min(mn, v), mx = std::max(mx, v);
    }
    EXPECT_EQ(g[4 * grp + 0], int32_t(wg));
    EXPECT_EQ(g[4 * grp + 1], mn);
    EXPECT_EQ(g[4 * grp + 2], mx);
    EXPECT_GE(g[4 * grp + 3], 0);
    EXPECT_LT(g[4 * grp + 3], int32_t(wg));
  }
}

TEST_P(MemoryKernels, PrefixScanWithinWorkGroups) {
  const uint32_t n = 1000, wg = 256;
  Rng rng(13);
  std::vector<uint32_t> in(n);
  for (auto& v : in) v = rng.u32() % 1000;
  auto& m = load("prefix_scan");
  uint64_t di = upload(in), dout = zeros<uint32_t>(n);
  launch(m, "prefix_scan", {(n + wg - 1) / wg * wg, 1, 1}, {wg, 1, 1},
         {ArgValue::buffer(di), ArgValue::buffer(dout), ArgValue::scalar(n)});
  auto out = download<uint32_t>(dout, n);
  uint32_t acc = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (i % wg == 0) acc = 0;
    acc += in[i];
    ASSERT_EQ(out[i], acc) << i;
  }
}

// Regression: LDS addresses are 32-bit. The compiler computes buf[1 - ping] as (v - 1024) with
// offset:1024, and the emulator once added them in 64 bits, so the writes fell outside the LDS.
TEST_P(MemoryKernels, RegressionDsAddressPlusOffsetWrapsAt32Bits) {
  std::vector<uint32_t> ones(256, 1);
  auto& m = load("prefix_scan");
  uint64_t di = upload(ones), dout = zeros<uint32_t>(256);
  launch(m, "prefix_scan", {256, 1, 1}, {256, 1, 1}, {ArgValue::buffer(di), ArgValue::buffer(dout), ArgValue::scalar(256u)});
  auto out = download<uint32_t>(dout, 256);
  for (uint32_t i = 0; i < 256; ++i) ASSERT_EQ(out[i], i + 1) << i;
}

TEST_P(MemoryKernels, BitonicSortOfEachBlockInLds) {
  const uint32_t blocks = 5;
  Rng rng(14);
  std::vector<uint32_t> data(256 * blocks);
  for (auto& v : data) v = rng.u32() % 5000;
  auto& m = load("bitonic_local");
  uint64_t dd = upload(data);
  launch(m, "bitonic_local", {256 * blocks, 1, 1}, {256, 1, 1}, {ArgValue::buffer(dd)});
  auto out = download<uint32_t>(dd, data.size());
  for (uint32_t b = 0; b < blocks; ++b) std::sort(data.begin() + b * 256, data.begin() + (b + 1) * 256);
  EXPECT_EQ(out, data);
}

TEST_P(MemoryKernels, PrivateArrayLivesInScratch) {
  const uint32_t n = 300;
  Rng rng(15);
  std::vector<uint32_t> idx(n);
  for (auto& v : idx) v = rng.u32();
  auto& m = load("scratch_spill");
  uint64_t di = upload(idx), dout = zeros<uint32_t>(n);
  launch(m, "scratch_spill", {n, 1, 1}, {64, 1, 1}, {ArgValue::buffer(di), ArgValue::buffer(dout), ArgValue::scalar(n)});
  auto out = download<uint32_t>(dout, n);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t priv[48];
    for (uint32_t k = 0; k < 48; ++k) priv[k] = i * 31u + k * k;
    uint32_t acc = 0;
    for (uint32_t k = 0; k < 16; ++k) {
      uint32_t j = (idx[i] + k * 5u) % 48u;
      priv[j] ^= acc;
      acc += priv[(j * 7u) % 48u];
    }
    ASSERT_EQ(out[i], acc) << i;
  }
}

}  // namespace
}  // namespace strobe::e2e
