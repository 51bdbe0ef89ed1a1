// build_inst_info's classification of calls and returns, and the basic blocks they end.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "isa/decoder.h"
#include "isa/program.h"
#include "timing/cu/inst_info.h"

namespace strobe::timing {
namespace {

isa::Program program_of(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes(words.size() * 4);
  for (size_t i = 0; i < words.size(); ++i)
    for (int b = 0; b < 4; ++b) bytes[4 * i + b] = uint8_t(words[i] >> (8 * b));
  return isa::decode_program(bytes, 0);
}

TEST(InstInfo, CallsAndReturnsIssueAsBranchesAndEndBasicBlocks) {
  // s_getpc_b64 s[4:5]; s_swappc_b64 s[30:31], s[4:5]; s_setpc_b64 s[30:31]; s_endpgm
  const isa::Program p = program_of({0xBE841C00, 0xBE9E1E04, 0xBE801D1E, 0xBF810000});
  const InstTimingParams t;
  const std::vector<InstInfo> info = build_inst_info(p, t);
  ASSERT_EQ(info.size(), 4u);
  EXPECT_EQ(info[0].type, IssueType::Scalar);
  EXPECT_EQ(info[1].type, IssueType::Branch);
  EXPECT_EQ(info[1].busy, t.branch);
  // The call writes the return address: a later read of s[30:31] waits for it.
  ASSERT_EQ(info[1].ndst, 1u);
  EXPECT_EQ(info[1].dst[0].first, 30u);
  EXPECT_EQ(info[1].dst[0].count, 2u);
  EXPECT_EQ(info[2].type, IssueType::Branch);
  EXPECT_EQ(info[2].ndst, 0u);
  EXPECT_EQ(basic_block_ends(p), (std::vector<uint8_t>{0, 1, 1, 1}));
}

}  // namespace
}  // namespace strobe::timing
