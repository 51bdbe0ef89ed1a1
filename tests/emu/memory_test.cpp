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

TEST(GlobalMemory, APlacedAllocationPastTheAddressSpaceIsRefusedWithoutGrowingThePageTable) {
  // A damaged capture's allocation map placed a buffer at 0x7fff000000000000: the flat page
  // table grew to reach it, and the process died of std::bad_alloc (FileFuzz found it).
  GlobalMemory m;
  try {
    m.allocate_at(uint64_t{0x7fff} << 48, 4096, "placed");
    FAIL() << "a placement 128 TiB up was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("placed"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("address space"), std::string::npos) << e.what();
  }
  EXPECT_THROW(m.set_next_address(uint64_t{1} << 50); (void)m.allocate(64), InputError);
  // The space ends 1 TiB above the first address; placements below it still work.
  const uint64_t end = (uint64_t{1} << 32) + (uint64_t{1} << 40);
  EXPECT_THROW(m.allocate_at(end, 65536, "at the end"), InputError);
  EXPECT_THROW(m.allocate_at(end - 65536, 2 * 65536, "across the end"), InputError);
  m.allocate_at(uint64_t{1} << 33, 65536, "low");
  const uint32_t v = 7;
  m.write((uint64_t{1} << 33) + 8, &v, 4);
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

TEST(GlobalMemory, PastTheEndInsideTheLastGpuPageIsReachableByDefault) {
  GlobalMemory m;
  uint64_t a = m.allocate(4088);
  EXPECT_EQ(m.translate(a + 4088, 8), nullptr);  // the fast path stays exact
  ASSERT_NE(m.translate_mapped(a + 4088, 8), nullptr);
  EXPECT_EQ(m.translate_mapped(a + 4090, 8), nullptr);  // crosses into an unmapped GPU page
  EXPECT_EQ(m.translate_mapped(a + 8192, 4), nullptr);
}

TEST(GlobalMemory, StrictCheckRefusesEveryByteOutsideTheAllocation) {
  GlobalMemory m;
  m.set_check(MemoryCheck::Strict);
  uint64_t a = m.allocate(4088);
  EXPECT_EQ(m.translate_mapped(a + 4088, 8), nullptr);
  uint32_t v = 0;
  EXPECT_FALSE(m.copy_kernel(a + 4084, &v, 8, false, true));
}

TEST(GlobalMemory, PastTheEndBytesAreKeptPerAllocationAndNeverReachAnother) {
  GlobalMemory m;
  uint64_t a = m.allocate(100);
  uint64_t b = m.allocate(100);
  const uint32_t w = 0xDEADBEEF;
  ASSERT_TRUE(m.copy_kernel(a + 100, const_cast<uint32_t*>(&w), 4, true, true));
  uint32_t r = 0;
  ASSERT_TRUE(m.copy_kernel(a + 100, &r, 4, false, true));
  EXPECT_EQ(r, w);
  std::vector<uint8_t> bytes(100, 0xFF);
  m.read(b, bytes.data(), bytes.size());
  for (uint8_t x : bytes) ASSERT_EQ(x, 0);
}

TEST(GlobalMemory, KernelCopiesStraddlingPagesGoThroughTheOverlay) {
  GlobalMemory m;
  uint64_t a = m.allocate(2 * GlobalMemory::kPageSize);
  const uint64_t at = a + GlobalMemory::kPageSize - 2;
  m.begin_overlay();
  const uint32_t w = 0x01020304;
  ASSERT_TRUE(m.copy_kernel(at, const_cast<uint32_t*>(&w), 4, true, false));
  uint32_t r = 0;
  ASSERT_TRUE(m.copy_kernel(at, &r, 4, false, false));
  EXPECT_EQ(r, w);
  m.end_overlay();
  m.read(at, &r, 4);
  EXPECT_EQ(r, 0u) << "a kernel store under the overlay reached the image";
}

TEST(GlobalMemory, OverrunLogCountsEveryAccessAndKeepsTheFirstFew) {
  GlobalMemory m;
  int formatted = 0;
  for (int i = 0; i < 12; ++i) m.note_overrun([&] { ++formatted; return std::to_string(i); });
  OverrunLog log = m.take_overruns();
  EXPECT_EQ(log.count, 12u);
  ASSERT_EQ(log.shown.size(), OverrunLog::kShown);
  EXPECT_EQ(log.shown.front(), "0");
  EXPECT_EQ(formatted, int(OverrunLog::kShown));
  EXPECT_EQ(m.take_overruns().count, 0u);
}

TEST(GlobalMemory, MemoryCheckNamesAreParsedAndABadOneIsNamed) {
  EXPECT_EQ(parse_memory_check("page"), MemoryCheck::Page);
  EXPECT_EQ(parse_memory_check("strict"), MemoryCheck::Strict);
  try {
    parse_memory_check("loose");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'loose'"), std::string::npos);
  }
}

}  // namespace
}  // namespace strobe::emu

namespace strobe::emu {
namespace {

TEST(Memory32BitWindow, AllocationsLieBelow4GiBAndAreReachableFromKernelsAndHost) {
  GlobalMemory m;
  const uint64_t big = m.allocate(1 << 20, 256, "buffer");
  const uint64_t a = m.allocate_32bit(100, "descriptors");
  const uint64_t b = m.allocate_32bit(70000, "more");
  EXPECT_GE(a, uint64_t{1} << 20);
  EXPECT_LT(b + 70000, uint64_t{1} << 32);
  EXPECT_GE(big, uint64_t{1} << 32);
  EXPECT_NE(a >> 16, b >> 16) << "each allocation starts on its own page";
  const uint32_t words[4] = {1, 2, 3, 4};
  m.write(a + 16, words, sizeof words);
  uint8_t* p = m.translate(a + 16, 16);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(std::memcmp(p, words, 16), 0);
  uint32_t back[4] = {};
  m.read(a + 16, back, sizeof back);
  EXPECT_EQ(back[3], 4u);
  EXPECT_EQ(m.translate(a + 96, 8), nullptr) << "past the allocation's end";
  EXPECT_EQ(m.translate(a - 16, 4), nullptr) << "below it";
  EXPECT_EQ(m.translate(16, 4), nullptr) << "near null";
  // A range straddling two of the window's pages goes through copy_kernel.
  uint32_t straddle[2] = {7, 8};
  const uint64_t edge = (b & ~uint64_t{0xFFFF}) + 0x10000 - 4;
  EXPECT_TRUE(m.copy_kernel(edge, straddle, 8, true, false));
  uint32_t got[2] = {};
  m.read(edge, got, 8);
  EXPECT_EQ(got[1], 8u);
  m.free(a);
  EXPECT_EQ(m.translate(a + 16, 4), nullptr);
  EXPECT_THROW(m.write(a, words, 4), InputError);
}

TEST(Memory32BitWindow, IsRefusedWithHostAddressesAndWhenFull) {
  GlobalMemory host;
  host.use_host_addresses();
  EXPECT_THROW(host.allocate_32bit(16, "t"), InputError);
  GlobalMemory m;
  EXPECT_THROW(m.allocate_32bit(uint64_t{5} << 30, "huge"), InputError);
}

}  // namespace
}  // namespace strobe::emu
