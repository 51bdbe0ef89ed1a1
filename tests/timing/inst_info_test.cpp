// build_inst_info: issue types, unit occupancy, implicit registers and basic-block ends, all
// read from isa::traits.
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

TEST(InstInfo, ImplicitVccIsReadAndWrittenByTheE32Forms) {
  // v_cndmask_b32_e32 v0, v0, v0, vcc; v_cmp_lt_f32_e32 vcc, v0, v0; s_endpgm
  const isa::Program p = program_of({0x00000100, 0x7C820100, 0xBF810000});
  const std::vector<InstInfo> info = build_inst_info(p, InstTimingParams{});
  ASSERT_EQ(info.size(), 3u);
  bool reads_vcc = false;
  for (uint8_t k = 0; k < info[0].nsrc; ++k) reads_vcc |= info[0].src[k].first == isa::opcode_field::kVccLo;
  EXPECT_TRUE(reads_vcc);
  ASSERT_EQ(info[1].ndst, 1u);
  EXPECT_EQ(info[1].dst[0].first, isa::opcode_field::kVccLo);
  EXPECT_EQ(info[1].dst[0].count, 2u);
}

TEST(InstInfo, F64AndTranscendentalOpsOccupyTheirUnitLonger) {
  // v_exp_f32_e32 v0, v0; v_fma_f64 v[0:1], v[0:1], v[0:1], v[0:1]; s_endpgm
  const isa::Program p = program_of({0x7E004100, 0xD1CC0000, 0x04020100, 0xBF810000});
  InstTimingParams t;
  t.valu_trans = 17;
  t.valu_f64 = 33;
  const std::vector<InstInfo> info = build_inst_info(p, t);
  ASSERT_EQ(info.size(), 3u);
  EXPECT_EQ(info[0].busy, 17u);
  EXPECT_EQ(info[1].busy, 33u);
}

TEST(InstInfo, EachValuRateClassTakesItsOwnCycles) {
  // v_mul_lo_u32 v0, v0, v0; v_lshlrev_b64 v[0:1], 2, v[0:1]; v_fma_f32 v0, v0, v0, v0;
  // v_mad_f32 v0, v0, v0, v0; v_mul_u32_u24_e32 v0, v0, v0; s_endpgm
  const isa::Program p = program_of({0xD2850000, 0x00020100, 0xD28F0000, 0x00020082, 0xD1CB0000, 0x04020100,
                                     0xD1C10000, 0x04020100, 0x10000100, 0xBF810000});
  InstTimingParams t;
  t.valu = 3;
  t.valu_quarter_int = 19;
  t.valu_int64 = 23;
  t.valu_fma32 = 29;
  const std::vector<InstInfo> info = build_inst_info(p, t);
  ASSERT_EQ(info.size(), 6u);
  EXPECT_EQ(info[0].busy, 19u);
  EXPECT_EQ(info[1].busy, 23u);
  EXPECT_EQ(info[2].busy, 29u);
  EXPECT_EQ(info[3].busy, 3u);  // not fused: full rate
  EXPECT_EQ(info[4].busy, 3u);  // 24-bit multiply: full rate
  for (const InstInfo& i : info) EXPECT_EQ(i.latency, i.busy);
}

TEST(InstInfo, SequencerOnlySoppIsExplicitlyUntimed) {
  // s_setprio 0; s_endpgm
  const isa::Program p = program_of({0xBF8F0000, 0xBF810000});
  const std::vector<InstInfo> info = build_inst_info(p, InstTimingParams{});
  ASSERT_EQ(info.size(), 2u);
  EXPECT_EQ(info[0].type, IssueType::Internal);
  EXPECT_EQ(info[0].special, Special::Untimed);
  EXPECT_EQ(info[1].special, Special::Endpgm);
}

}  // namespace
}  // namespace strobe::timing
