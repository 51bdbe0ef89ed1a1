// Regression tests for LLVM 14 gfx803 decoder quirks the fuzz harness found, each named after
// the bug: the expected texts are llvm-objdump's, checked in by hand so they run without LLVM.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "isa/decoder.h"
#include "isa/disassembler.h"

namespace strobe::isa {
namespace {

// The instruction text (before the "// ADDRESS" comment) of the first instruction of `w`.
std::string text(std::vector<uint32_t> w) {
  std::vector<uint8_t> bytes(w.size() * 4);
  std::memcpy(bytes.data(), w.data(), bytes.size());
  std::string line = disassemble(bytes, 0);
  line = line.substr(1, line.find("// 0000") - 1);  // long texts run into the comment
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

TEST(LlvmQuirks, MimgOpcodeBit7IsWordBit0ForG16Samplers) {
  EXPECT_EQ(text({0xF28BD9F9, 0x02000000}),
            "image_sample_d_g16 v[0:2], v[0:1], s[0:7], s[64:67] dmask:0x9 unorm slc r128 tfe lwe da");
}

TEST(LlvmQuirks, MimgDataWidthFollowsDmaskOnlyWhereAVariantExists) {
  EXPECT_EQ(text({0xF0400500, 0x00000000}), "image_atomic_swap v[0:1], v0, s[0:7] dmask:0x5");
  EXPECT_EQ(text({0xF0400700, 0x00000000}), "image_atomic_swap v0, v0, s[0:7] dmask:0x7");
  EXPECT_EQ(text({0xF0000F00, 0x0000FD00}), "image_load v253, v0, s[0:7] dmask:0xf");
}

TEST(LlvmQuirks, BufferStoreLdsDwordNeedsItsLdsBit) {
  EXPECT_EQ(text({0xE0F54B75, 0x80003808}), "buffer_store_lds_dword s[0:3], 0 offset:2933 lds glc");
  EXPECT_EQ(decode(std::vector<uint32_t>{0xE0F40000, 0}).enc, Encoding::Invalid);
}

TEST(LlvmQuirks, ConstantInRegisterOnlySourcePrintsInvalidImmediate) {
  EXPECT_EQ(text({0xBEEE2AAF}), "s_movrels_b32 tma_lo, /*invalid immediate*/");
  EXPECT_EQ(text({0x7E000498}), "v_readfirstlane_b32 s0, /*invalid immediate*/");
  EXPECT_EQ(text({0xD11E0000, 0x02400040}), "v_subbrev_u32_e64 v0, s[0:1], s64, s0, /*invalid immediate*/");
}

TEST(LlvmQuirks, DppIntegerSourceNegBitPrintsSextAndCndmaskIgnoresModifiers) {
  EXPECT_EQ(text({0x6677C6FA, 0x00400041}),
            "v_ldexp_f16_dpp v59, v65, sext(v227) quad_perm:[0,0,0,0] row_mask:0x0 bank_mask:0x0");
  EXPECT_EQ(text({0x001006FA, 0x0153C512}),
            "v_cndmask_b32_dpp v8, v18, v3, vcc /* Invalid dpp_ctrl value */ row_mask:0x0 bank_mask:0x1");
}

TEST(LlvmQuirks, DppRowShareAndXmaskPrintNotSupportedNotes) {
  EXPECT_EQ(text({0x028820FA, 0x94815810}),
            "v_add_f32_dpp v68, v16, |v16|  /* row_newbcast/row_share is not supported on ASICs earlier than "
            "GFX90A/GFX10 */ row_mask:0x9 bank_mask:0x4");
  EXPECT_EQ(text({0x3EAE74FA, 0x4F016ED8}),
            "v_add_f16_dpp v87, v216, v58 /* row_xmask is not supported on ASICs earlier than GFX10 */ "
            "row_mask:0x4 bank_mask:0xf");
}

TEST(LlvmQuirks, VopcSdwaHasNoSuffix) {
  EXPECT_EQ(text({0x7C8800F9, 0x00002000}), "v_cmp_gt_f32 vcc, v0, v0 clamp src0_sel:BYTE_0 src1_sel:BYTE_0");
}

TEST(LlvmQuirks, VNopSdwaIsEightBytes) {
  EXPECT_EQ(decode(std::vector<uint32_t>{0x7E0000F9, 0x00008C00}).size, 8);
  EXPECT_EQ(decode(std::vector<uint32_t>{0x7E0000F9, 0x07000000}).size, 4);
}

TEST(LlvmQuirks, MadmkLiteralSrc0IsTheKConstant) {
  EXPECT_EQ(text({0x2E4172FF, 0xBF800000}), "v_madmk_f32 v32, -1.0, 0xbf800000, v185");
  EXPECT_EQ(text({0x4AB1B6FF, 0xBF800000}), "v_madak_f16 v88, 0, v219, 0xbf800000");
}

TEST(LlvmQuirks, FlatOffsetIs13Bits) {
  EXPECT_EQ(text({0xDC771ED2, 0x00000000}), "flat_store_dwordx2 v[0:1], v[0:1] offset:7890 glc slc");
}

TEST(LlvmQuirks, DsSrc2OpsHaveOneOffset) {
  EXPECT_EQ(text({0xD9133173, 0x00000020}), "ds_and_src2_b32 v32 offset:12659 gds");
  EXPECT_EQ(text({0xD97FB3A6, 0x01000000}), "ds_ordered_count v1, v0 offset:45990 gds");
}

TEST(LlvmQuirks, SoppAndAtcProbeImmediatesAreUnsigned) {
  EXPECT_EQ(text({0xBF80FFFD}), "s_nop 0xfffd");
  EXPECT_EQ(text({0xC09DF95D, 0xBF800000}), "s_atc_probe_buffer 0x65, s[56:59], s0");
}

TEST(LlvmQuirks, SixtyFourBitSourceRejectsLdsDirect) {
  EXPECT_EQ(decode(std::vector<uint32_t>{0xBE8001FE}).enc, Encoding::Invalid);
  EXPECT_EQ(text({0xBE8001FB}), "s_mov_b64 s[0:1], src_vccz");
}

TEST(LlvmQuirks, Vop3F16InterpolationKeepsSourceModifiers) {
  EXPECT_EQ(text({0xD276F650, 0x01006820}), "v_interp_p2_f16 v80, |s52|, attr32.x, |s64| clamp");
}

}  // namespace
}  // namespace strobe::isa
