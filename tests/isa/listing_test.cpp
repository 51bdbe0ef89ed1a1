// isa::list_section reproduces llvm-objdump 14's section loop on hand-made sections.
#include <gtest/gtest.h>

#include <cstring>

#include "isa/listing.h"
#include "isa/llvm_reference.h"

namespace strobe::isa {
namespace {

constexpr uint8_t kNoType = 0, kFunc = 2, kHsaKernel = 10;
constexpr uint32_t kNop = 0xBF800000, kEndpgm = 0xBF810000;

std::vector<uint8_t> bytes_of(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> b(words.size() * 4);
  std::memcpy(b.data(), words.data(), b.size());
  return b;
}

std::vector<std::string> list(const std::vector<uint8_t>& bytes, std::vector<ListingSymbol> symbols,
                              uint64_t address = 0x1000) {
  return testing::split_lines(list_section({".text", address, bytes, std::move(symbols)}));
}

TEST(Listing, SymbolRunsToTheNextSymbolNotToItsSize) {
  // Two functions; the first is followed by padding that belongs to no symbol's st_size.
  auto b = bytes_of({kEndpgm, kNop, kNop, kEndpgm});
  auto l = list(b, {{0x1000, "a", kFunc}, {0x100C, "b", kFunc}});
  ASSERT_EQ(l.size(), 10u);
  EXPECT_EQ(l[0], "");
  EXPECT_EQ(l[1], "Disassembly of section .text:");
  EXPECT_EQ(l[2], "");
  EXPECT_EQ(l[3], "0000000000001000 <a>:");
  EXPECT_TRUE(l[4].starts_with("\ts_endpgm ")) << l[4];
  EXPECT_TRUE(l[5].starts_with("\ts_nop 0 ")) << l[5];
  EXPECT_TRUE(l[6].starts_with("\ts_nop 0 ")) << l[6];
  EXPECT_EQ(l[7], "");
  EXPECT_EQ(l[8], "000000000000100c <b>:");
  EXPECT_TRUE(l[9].starts_with("\ts_endpgm ")) << l[9];
}

TEST(Listing, BytesBeforeTheFirstSymbolGetTheSectionNameAsLabel) {
  auto l = list(bytes_of({kNop, kEndpgm}), {{0x1004, "k", kFunc}});
  ASSERT_GE(l.size(), 7u);
  EXPECT_EQ(l[3], "0000000000001000 <.text>:");
  EXPECT_EQ(l[6], "0000000000001004 <k>:");
}

TEST(Listing, OfSymbolsAtOneAddressOnlyTheLastInNameOrderIsShown) {
  auto l = list(bytes_of({kEndpgm}), {{0x1000, "zeta", kFunc}, {0x1000, "alpha", kFunc}});
  ASSERT_EQ(l.size(), 5u);
  EXPECT_EQ(l[3], "0000000000001000 <zeta>:");
}

TEST(Listing, EightOrMoreZeroBytesAreElided) {
  // Two zero dwords are a valid instruction each (v_cndmask_b32), but objdump skips the run.
  auto l = list(bytes_of({0, 0, kEndpgm}), {{0x1000, "k", kFunc}});
  ASSERT_EQ(l.size(), 6u);
  EXPECT_EQ(l[4], "\t\t...");
  EXPECT_TRUE(l[5].starts_with("\ts_endpgm ")) << l[5];
  // One zero dword is not a run.
  l = list(bytes_of({0, kEndpgm}), {{0x1000, "k", kFunc}});
  ASSERT_EQ(l.size(), 6u);
  EXPECT_TRUE(l[4].starts_with("\tv_cndmask_b32_e32 v0, s0, v0, vcc ")) << l[4];
}

TEST(Listing, UntypedSymbolAtABranchTargetReplacesTheOffset) {
  // s_branch 1 (to 0x1008), s_nop, then the target: named by the untyped symbol, no comment.
  auto b = bytes_of({0xBF820001, kNop, kEndpgm});
  auto l = list(b, {{0x1000, "k", kFunc}, {0x1008, "BB0_1", kNoType}});
  ASSERT_GE(l.size(), 9u);
  EXPECT_TRUE(l[4].starts_with("\ts_branch BB0_1 ")) << l[4];
  EXPECT_TRUE(l[4].ends_with("BF820001")) << l[4];
  EXPECT_EQ(l[7], "0000000000001008 <BB0_1>:");
}

TEST(Listing, TypedSymbolAtABranchTargetIsOnlyAComment) {
  auto b = bytes_of({0xBF820001, kNop, kEndpgm});
  auto l = list(b, {{0x1000, "k", kFunc}, {0x1008, "f", kFunc}});
  EXPECT_TRUE(l[4].starts_with("\ts_branch 1 ")) << l[4];
  EXPECT_TRUE(l[4].ends_with("BF820001 <f>")) << l[4];
  // Without a symbol there, the nearest one below plus the distance.
  l = list(b, {{0x1000, "k", kFunc}});
  EXPECT_TRUE(l[4].ends_with("BF820001 <k+0x8>")) << l[4];
}

TEST(Listing, V2KernelHeaderIsBytesFromTheSectionStart) {
  // Two v2 kernels of a 256-byte header and one instruction each. LLVM 14 prints the section's
  // first 256 bytes for both headers, so the second kernel shows the first one's header.
  std::vector<uint32_t> words(2 * (64 + 64), kNop);
  words[0] = 0x11;
  words[128] = 0x22;
  words[64] = kEndpgm;
  words[128 + 64] = kEndpgm;
  auto l = list(bytes_of(words), {{0x1000, "k1", kHsaKernel}, {0x1200, "k2", kHsaKernel}});
  size_t headers = 0;
  for (size_t i = 0; i < l.size(); ++i)
    if (l[i].starts_with("// Error in decoding ")) {
      ++headers;
      EXPECT_EQ(l[i + 1], "\t.byte\t 0x11") << i;
      EXPECT_EQ(l[i + 2], "\t.byte\t 0x0") << i;
      EXPECT_TRUE(l[i + 257].starts_with("\ts_endpgm ")) << l[i + 257];
    }
  EXPECT_EQ(headers, 2u);
  EXPECT_NE(std::find(l.begin(), l.end(), "// Error in decoding k2 : Decoding failed region as bytes."), l.end());
}

TEST(Listing, DataSymbolInTextIsDumpedAsHexAndText) {
  // Rows as llvm-objdump 14 printed them for the same bytes (llvm-mc + ld.lld, .type @object).
  std::vector<uint8_t> b = {0x00, 0x00, 0x81, 0xBF};
  const std::string text = "Hello, world! \x01\x02\x03" "A";
  b.insert(b.end(), text.begin(), text.end());
  auto l = list(b, {{0x1284, "k", kFunc}, {0x1288, "tbl", 1 /* STT_OBJECT */}}, 0x1284);
  ASSERT_EQ(l.size(), 10u);
  EXPECT_EQ(l[6], "0000000000001288 <tbl>:");
  EXPECT_EQ(l[7], "    1288: 48 65 6c 6c 6f 2c 20 77         Hello, w");
  EXPECT_EQ(l[8], "    1290: 6f 72 6c 64 21 20 01 02         orld! ..");
  EXPECT_EQ(l[9], "    1298: 03 41                           .A");
}

TEST(Listing, EmptySectionPrintsNothing) { EXPECT_TRUE(list({}, {}).empty()); }

}  // namespace
}  // namespace strobe::isa
