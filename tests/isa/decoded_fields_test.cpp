// Decoded Inst fields of representative instructions: what the emulator reads (widths,
// modifiers, literals, SDWA/DPP controls, memory offsets), independent of the printed text.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "isa/decoder.h"
#include "isa/disassembler.h"
#include "isa/program.h"

namespace strobe::isa {
namespace {

using namespace opcode_field;

Inst dec(std::vector<uint32_t> w) { return decode(w); }

TEST(DecodedFields, VLshlrevB64HasOneDwordShiftAndTwoDwordValue) {
  Inst i = dec({0xD28F0000, 0x00020082});  // v_lshlrev_b64 v[0:1], 2, v[0:1]
  EXPECT_EQ(i.op, Op::V_LSHLREV_B64);
  EXPECT_EQ(i.enc, Encoding::VOP3);
  EXPECT_EQ(i.size, 8);
  EXPECT_EQ(i.dst, kVgprFirst);
  EXPECT_EQ(i.dst_dwords, 2);
  EXPECT_EQ(i.src[0], kIntZero + 2);
  EXPECT_EQ(i.src_dwords[0], 1);
  EXPECT_EQ(i.src[1], kVgprFirst);
  EXPECT_EQ(i.src_dwords[1], 2);
}

TEST(DecodedFields, VMadU64U32HasWideDstCarryAndAddend) {
  Inst i = dec({0xD1E80000, 0x04020403});  // v_mad_u64_u32 v[0:1], s[0:1], s3, v2, v[0:1]
  EXPECT_EQ(i.op, Op::V_MAD_U64_U32);
  EXPECT_EQ(i.dst_dwords, 2);
  EXPECT_EQ(i.sdst, 0);
  EXPECT_EQ(i.src[0], 3);
  EXPECT_EQ(i.src[1], kVgprFirst + 2);
  EXPECT_EQ(i.src_dwords[2], 2);
}

TEST(DecodedFields, VopcE64WritesATwoDwordScalarMask) {
  Inst i = dec({0xD0C4000A, 0x00020100});  // v_cmp_gt_i32_e64 s[10:11], v0, v0
  EXPECT_EQ(i.enc, Encoding::VOP3);
  EXPECT_EQ(i.sdst, 10);
  EXPECT_EQ(i.dst, kNone);
}

TEST(DecodedFields, Vop3FloatModifiers) {
  // v_add_f32_e64 v0, -|v1|, v2 clamp mul:2
  Inst i = dec({0xD1018100, 0x28020501});
  EXPECT_EQ(i.op, Op::V_ADD_F32);
  EXPECT_EQ(i.abs, 1);
  EXPECT_EQ(i.neg, 1);
  EXPECT_EQ(i.clamp, 1);
  EXPECT_EQ(i.omod, 1);
}

TEST(DecodedFields, LiteralFollowsVop2AndGrowsSizeTo8) {
  Inst i = dec({0x020000FF, 0x12345678});  // v_add_f32_e32 v0, 0x12345678, v0
  EXPECT_EQ(i.size, 8);
  EXPECT_EQ(i.src[0], kLiteral);
  EXPECT_EQ(i.literal, 0x12345678u);
}

TEST(DecodedFields, SLoadDwordx4WidthAndImmediateOffset) {
  Inst i = dec({0xC00A0003, 0x00000010});  // s_load_dwordx4 s[0:3], s[6:7], 0x10
  EXPECT_EQ(i.enc, Encoding::SMEM);
  EXPECT_EQ(i.dst, 0);
  EXPECT_EQ(i.dst_dwords, 4);
  EXPECT_EQ(i.addr, 6);
  EXPECT_EQ(i.smem_imm, 1);
  EXPECT_EQ(i.offset, 0x10u);
}

TEST(DecodedFields, FlatLoadDwordx2) {
  Inst i = dec({0xDC540000, 0x04000004});  // flat_load_dwordx2 v[4:5], v[4:5]
  EXPECT_EQ(i.op, Op::FLAT_LOAD_DWORDX2);
  EXPECT_EQ(i.dst, kVgprFirst + 4);
  EXPECT_EQ(i.dst_dwords, 2);
  EXPECT_EQ(i.addr, kVgprFirst + 4);
  EXPECT_EQ(i.src_dwords[0], 2);
}

TEST(DecodedFields, DsRead2B64HasFourDwordDstAndTwoOffsets) {
  Inst i = dec({0xD8EE0201, 0x04000001});  // ds_read2_b64 v[4:7], v1 offset0:1 offset1:2
  EXPECT_EQ(i.op, Op::DS_READ2_B64);
  EXPECT_EQ(i.dst_dwords, 4);
  EXPECT_EQ(i.addr, kVgprFirst + 1);
  EXPECT_EQ(i.offset, 1u);
  EXPECT_EQ(i.offset1, 2);
}

TEST(DecodedFields, BufferStoreDwordx3DataIsThreeDwords) {
  Inst i = dec({0xE0781000, 0x03010201});  // buffer_store_dwordx3 v[2:4], v1, s[4:7], s3 offen
  EXPECT_EQ(i.op, Op::BUFFER_STORE_DWORDX3);
  EXPECT_EQ(i.data0, kVgprFirst + 2);
  EXPECT_EQ(i.src_dwords[1], 3);
  EXPECT_EQ(i.offen, 1);
  EXPECT_EQ(i.srsrc, 4);
  EXPECT_EQ(i.soffset, 3);
}

TEST(DecodedFields, SdwaSelectsAndDpppControls) {
  Inst s = dec({0x7E0202F9, 0x00050016});  // v_mov_b32_sdwa v1, v22 dst_sel:BYTE_0 src0_sel:WORD_1
  EXPECT_EQ(s.ext, VopExt::SDWA);
  EXPECT_EQ(s.src[0], kVgprFirst + 22);
  EXPECT_EQ(s.sdwa_dst_sel, 0);
  EXPECT_EQ(s.sdwa_src_sel[0], 5);
  Inst d = dec({0x020202FA, 0xFF3B4300});  // v_add_f32_dpp v1, -|v0|, v1 row_bcast:31 bound_ctrl
  EXPECT_EQ(d.ext, VopExt::DPP);
  EXPECT_EQ(d.dpp_ctrl, 0x143);
  EXPECT_EQ(d.neg, 1);
  EXPECT_EQ(d.abs, 1);
  EXPECT_EQ(d.dpp_bound_ctrl, 1);
  EXPECT_EQ(d.dpp_row_mask, 0xF);
}

TEST(DecodedFields, RejectedWordIsInvalidAndFourBytes) {
  Inst i = dec({0xD1010000, 0x04020100});  // v_add_f32_e64 with a non-zero unused src2
  EXPECT_EQ(i.enc, Encoding::Invalid);
  EXPECT_EQ(i.size, 4);
  EXPECT_EQ(format_inst(i, std::vector<uint32_t>{0xD1010000, 0x04020100}, 0), ".long 0xd1010000");
}

TEST(DecodedFields, ProgramMapsDwordOffsetsToInstructions) {
  std::vector<uint32_t> w = {0x020000FF, 0x3F800000, 0xBF810000};
  std::vector<uint8_t> bytes(w.size() * 4);
  std::memcpy(bytes.data(), w.data(), bytes.size());
  Program p = decode_program(bytes, 0x1000);
  ASSERT_EQ(p.insts.size(), 2u);
  EXPECT_EQ(p.index_at(0), 0);
  EXPECT_EQ(p.index_at(4), -1);
  EXPECT_EQ(p.index_at(8), 1);
  EXPECT_EQ(p.insts[1].op, Op::S_ENDPGM);
}

TEST(Disassembly, LinePaddingAndBranchLabelMatchObjdump) {
  std::vector<uint32_t> w = {0xBF820003};
  std::string line = format_line(decode(w), w, 0xC, [](uint64_t t) { return std::to_string(t); });
  EXPECT_EQ(line, "\ts_branch 3" + std::string(60 - 11, ' ') + "// 00000000000C: BF820003 <28>");
}

TEST(OpNames, BaseMnemonicWithoutEncodingSuffix) {
  EXPECT_STREQ(op_name(Op::V_ADD_F32), "v_add_f32");
  EXPECT_STREQ(op_name(Op::EXP), "exp");
}

}  // namespace
}  // namespace strobe::isa
