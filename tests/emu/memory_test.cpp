// GlobalMemory: allocation tracking, host copies and the kernel-side translate() fast path.
#include <gtest/gtest.h>

#include <cstring>

#include "common/error.h"
#include "emu/memory.h"

namespace strobe::emu {
namespace {

TEST(GlobalMemory, WriteThenReadRoundTrips) {
  GlobalMemory m;
  uint64_t a = m.allocate(1000);
  std::vector<uint8_t> in(1000);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 7);
  m.write(a, in.data(), in.size());
  std::vector<uint8_t> out(1000);
  m.read(a, out.data(), out.size());
  EXPECT_EQ(in, out);
}

TEST(GlobalMemory, FreshAllocationReadsZero) {
  GlobalMemory m;
  uint64_t a = m.allocate(3 * GlobalMemory::kPageSize);
  std::vector<uint8_t> out(3 * GlobalMemory::kPageSize, 0xAA);
  m.read(a, out.data(), out.size());
  for (uint8_t b : out) ASSERT_EQ(b, 0);
}

TEST(GlobalMemory, AllocationsAreAlignedAndDisjoint) {
  GlobalMemory m;
  uint64_t a = m.allocate(10), b = m.allocate(10, 4096);
  EXPECT_EQ(a % 256, 0u);
  EXPECT_EQ(b % 4096, 0u);
  EXPECT_NE(a, b);
  EXPECT_FALSE(m.is_mapped(a + 10, 1));
  EXPECT_EQ(m.bytes_allocated(), 20u);
}

TEST(GlobalMemory, HostAccessOutsideAllocationThrowsInputError) {
  GlobalMemory m;
  uint64_t a = m.allocate(64);
  uint32_t x = 0;
  EXPECT_THROW(m.read(a + 62, &x, 4), InputError);   // straddles the end
  EXPECT_THROW(m.write(0x1000, &x, 4), InputError);  // never mapped
  EXPECT_THROW(m.free(a + 4), InputError);           // not an allocation start
}

TEST(GlobalMemory, TranslateRejectsUnmappedFreedAndStraddlingRanges) {
  GlobalMemory m;
  uint64_t a = m.allocate(128);
  EXPECT_NE(m.translate(a, 128), nullptr);
  EXPECT_EQ(m.translate(a + 125, 4), nullptr);  // runs past the end
  EXPECT_EQ(m.translate(a - 4, 4), nullptr);    // before the start
  EXPECT_EQ(m.translate(12, 4), nullptr);       // null page
  m.free(a);
  EXPECT_EQ(m.translate(a, 4), nullptr);  // freed
  EXPECT_FALSE(m.is_mapped(a, 4));
}

TEST(GlobalMemory, TranslateAndHostCopiesShareBytes) {
  GlobalMemory m;
  uint64_t a = m.allocate(256);
  uint32_t v = 0xDEADBEEF;
  std::memcpy(m.translate(a + 8, 4), &v, 4);
  uint32_t back = 0;
  m.read(a + 8, &back, 4);
  EXPECT_EQ(back, v);
}

TEST(GlobalMemory, CopiesSpanPageBoundaries) {
  GlobalMemory m;
  uint64_t a = m.allocate(2 * GlobalMemory::kPageSize);
  uint64_t edge = a + GlobalMemory::kPageSize - 2;
  uint32_t v = 0x11223344, back = 0;
  EXPECT_EQ(m.translate(edge, 4), nullptr);  // the fast path declines a straddling access
  EXPECT_TRUE(m.is_mapped(edge, 4));
  m.write(edge, &v, 4);
  m.read(edge, &back, 4);
  EXPECT_EQ(back, v);
}

TEST(GlobalMemory, FillSetsEveryByte) {
  GlobalMemory m;
  uint64_t a = m.allocate(100);
  m.fill(a, 0x5A, 100);
  std::vector<uint8_t> out(100);
  m.read(a, out.data(), 100);
  for (uint8_t b : out) EXPECT_EQ(b, 0x5A);
}

TEST(GlobalMemory, HugeAllocationIsRejected) {
  GlobalMemory m;
  EXPECT_THROW(m.allocate(uint64_t{1} << 40), InputError);
}

TEST(GlobalMemory, OverlayWritesAreDiscardedAndLeaveTheImageUnchanged) {
  GlobalMemory m;
  const uint64_t a = m.allocate(3 * 4096);
  const uint32_t before = 0x11223344;
  m.write(a + 4096, &before, 4);
  m.begin_overlay();
  auto* p = reinterpret_cast<uint32_t*>(m.translate(a + 4096, 4));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, before);  // the overlay page starts as a copy
  *p = 0xDEADBEEF;
  EXPECT_EQ(*reinterpret_cast<uint32_t*>(m.translate(a + 4096, 4)), 0xDEADBEEFu);  // seen by later accesses
  *reinterpret_cast<uint32_t*>(m.translate(a + 2 * 4096 + 8, 4)) = 7;  // a page never written before
  EXPECT_EQ(m.translate(a + 3 * 4096 + 8, 4), nullptr);  // bounds still checked
  m.end_overlay();
  uint32_t got = 0;
  m.read(a + 4096, &got, 4);
  EXPECT_EQ(got, before);
  m.read(a + 2 * 4096 + 8, &got, 4);
  EXPECT_EQ(got, 0u);
  *reinterpret_cast<uint32_t*>(m.translate(a + 4096, 4)) = 5;  // writes land in the image again
  m.read(a + 4096, &got, 4);
  EXPECT_EQ(got, 5u);
}

}  // namespace
}  // namespace strobe::emu
