// GlobalMemory in host-identity addressing: device addresses are this process's addresses, and
// only ranges made known to the memory are reachable.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "common/error.h"
#include "emu/memory.h"

namespace strobe::emu {
namespace {

TEST(GlobalMemoryHost, MappedHostRangeIsReachableAtItsOwnAddress) {
  GlobalMemory m;
  m.use_host_addresses();
  std::vector<uint32_t> buf(1000, 7);
  const auto a = reinterpret_cast<uint64_t>(buf.data());
  m.map_host(a, buf.size() * 4, "buffer");
  EXPECT_EQ(m.translate(a + 40, 4), reinterpret_cast<uint8_t*>(buf.data() + 10));
  uint32_t v = 0;
  m.read(a + 8, &v, 4);
  EXPECT_EQ(v, 7u);
  v = 99;
  m.write(a + 12, &v, 4);
  EXPECT_EQ(buf[3], 99u);
  EXPECT_TRUE(m.is_mapped(a, buf.size() * 4));
  EXPECT_FALSE(m.is_mapped(a, buf.size() * 4 + 1));
}

TEST(GlobalMemoryHost, AddressesOutsideEveryRangeAreRefused) {
  GlobalMemory m;
  m.use_host_addresses();
  std::vector<uint8_t> buf(8192);
  const auto a = reinterpret_cast<uint64_t>(buf.data());
  m.map_host(a, 100, "small");
  EXPECT_EQ(m.translate(a + 96, 8), nullptr) << "runs past the range's end";
  EXPECT_EQ(m.translate(0x10000, 4), nullptr);
  EXPECT_THROW(m.write(a + 100, buf.data(), 1), InputError);
  m.unmap_host(a);
  EXPECT_EQ(m.translate(a, 4), nullptr) << "a forgotten range is not reachable, even after a hit on it";
}

TEST(GlobalMemoryHost, PastTheEndInsideTheLastPageFollowsTheCheckMode) {
  GlobalMemory m;
  m.use_host_addresses();
  alignas(4096) static uint8_t page[8192];
  const auto a = reinterpret_cast<uint64_t>(page);
  m.map_host(a, 100, "short");
  EXPECT_NE(m.translate_mapped(a + 200, 4), nullptr);
  EXPECT_EQ(m.translate_mapped(a + 4096, 4), nullptr) << "beyond the last 4 KiB page";
  m.set_check(MemoryCheck::Strict);
  EXPECT_EQ(m.translate_mapped(a + 200, 4), nullptr);
}

TEST(GlobalMemoryHost, AllocateAndFreeOwnHostPages) {
  GlobalMemory m;
  m.use_host_addresses();
  const uint64_t a = m.allocate(5000, 256, "own");
  EXPECT_EQ(a % 4096, 0u);
  m.fill(a, 0xab, 5000);
  EXPECT_EQ(*m.translate(a + 4999, 1), 0xab);
  EXPECT_EQ(m.bytes_allocated(), 5000u);
  m.free(a);
  EXPECT_EQ(m.bytes_allocated(), 0u);
  EXPECT_THROW(m.free(a), InputError);
}

TEST(GlobalMemoryHost, OverlappingRangesAndLateSwitchAreRefused) {
  GlobalMemory m;
  m.use_host_addresses();
  std::vector<uint8_t> buf(256);
  const auto a = reinterpret_cast<uint64_t>(buf.data());
  m.map_host(a, 128, "first");
  EXPECT_THROW(m.map_host(a + 64, 128, "overlap"), InputError);
  EXPECT_THROW(m.unmap_host(a + 1), InputError);
  GlobalMemory managed;
  managed.allocate(64);
  EXPECT_THROW(managed.use_host_addresses(), InputError);
  EXPECT_THROW(managed.map_host(a, 1, "x"), InputError);
}

TEST(GlobalMemoryHost, OverlayKeepsTheProgramsMemoryUnchanged) {
  GlobalMemory m;
  m.use_host_addresses();
  std::vector<uint32_t> buf(64, 5);
  const auto a = reinterpret_cast<uint64_t>(buf.data());
  m.map_host(a, buf.size() * 4, "buffer");
  m.begin_overlay();
  uint8_t* p = m.translate(a + 8, 4);
  ASSERT_NE(p, nullptr);
  uint32_t v;
  std::memcpy(&v, p, 4);
  EXPECT_EQ(v, 5u) << "the overlay starts as a copy";
  v = 77;
  std::memcpy(p, &v, 4);
  EXPECT_EQ(buf[2], 5u) << "kernel stores during an overlay do not reach the program";
  m.end_overlay();
  EXPECT_EQ(*reinterpret_cast<uint32_t*>(m.translate(a + 8, 4)), 5u);
}

TEST(GlobalMemoryHost, APlacedRangeLiesAtItsCapturedAddressWithItsBytesElsewhere) {
  // A HIP program's capture replayed in another process: the ranges keep the program's
  // addresses (kernel arguments hold them), and nothing of this process need lie there.
  GlobalMemory m;
  m.use_host_addresses();
  const uint64_t a = 0x7f0000001e00, b = 0x7f0000003000;  // a shares its last 64 KiB page with b
  m.allocate_at(a, 0x100, "kernarg");
  m.allocate_at(b, 0x2000, "buffer");
  const uint32_t v = 0x12345678;
  m.write(a + 8, &v, 4);
  uint8_t* p = m.translate(a + 8, 4);
  ASSERT_NE(p, nullptr);
  EXPECT_NE(reinterpret_cast<uint64_t>(p), a + 8) << "the bytes are this process's, not at the device address";
  uint32_t got = 0;
  std::memcpy(&got, p, 4);
  EXPECT_EQ(got, v);
  EXPECT_EQ(m.translate(a + 0x100, 4), nullptr) << "past the end is refused as for any range";
  EXPECT_NE(m.translate_mapped(a + 0x100, 4), nullptr) << "but the tail of its last 4 KiB page is mapped";
  EXPECT_THROW(m.allocate_at(b + 0x1000, 16, "overlap"), InputError);
  const std::vector<GlobalMemory::LiveAllocation> live = m.allocations();
  ASSERT_EQ(live.size(), 2u);
  EXPECT_EQ(live[0].addr, a);
  EXPECT_EQ(live[1].bytes, 0x2000u);

  // A 64 KiB checkpoint page covers parts of both ranges; what no range maps reads as zero.
  const uint64_t page = a & ~(GlobalMemory::kPageSize - 1);
  std::vector<uint8_t> bytes(GlobalMemory::kPageSize);
  ASSERT_TRUE(m.copy_host_page(page, bytes.data()));
  std::memcpy(&got, bytes.data() + (a + 8 - page), 4);
  EXPECT_EQ(got, v);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 7 + 1);
  m.write_host_page(page, bytes.data());
  std::vector<uint8_t> back(GlobalMemory::kPageSize);
  m.copy_host_page(page, back.data());
  for (uint64_t off : {a - page, a + 0xff - page, b - page, b + 0x1fff - page})
    EXPECT_EQ(back[off], bytes[off]) << "offset " << off;
  EXPECT_EQ(back[0], 0) << "nothing maps the page's start";
  m.free(a);
  EXPECT_EQ(m.translate(a + 8, 4), nullptr);
  EXPECT_FALSE(m.copy_host_page(0x7e0000000000, bytes.data())) << "no range maps it";
}

}  // namespace
}  // namespace strobe::emu
