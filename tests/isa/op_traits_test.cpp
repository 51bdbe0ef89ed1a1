// isa::traits: every Op's table row agrees with what its mnemonic and encodings say. This is
// the one place that reads mnemonic text to check traits; the simulator reads the table.
#include <gtest/gtest.h>

#include <bit>
#include <set>
#include <string>
#include <string_view>

#include "isa/decoder.h"
#include "isa/op_traits.h"

namespace strobe::isa {
namespace {

/// Encodings each Op occurs in, on any target, from the generated opcode tables.
std::set<Encoding> encodings_of(Op op) {
  struct Row { Encoding enc; Op op; };
  static constexpr Row kRows[] = {
#define STROBE_OPCODE(ENC, NUM, MNEM, OP, SAMPLE) {Encoding::ENC, Op::OP},
#include "isa/opcodes.def"
#include "isa/gfx942/opcodes.def"
#undef STROBE_OPCODE
  };
  std::set<Encoding> out;
  for (const Row& r : kRows)
    if (r.op == op) out.insert(r.enc);
  return out;
}

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

TEST(OpTraits, EveryOpIsClassifiedConsistentlyWithItsMnemonicAndEncodings) {
  for (size_t i = 0; i < size_t(Op::INVALID); ++i) {
    const Op op = Op(i);
    const std::string_view m = op_name(op);
    const OpTraits& t = traits(op);
    const std::set<Encoding> e = encodings_of(op);
    SCOPED_TRACE(std::string(m));
    ASSERT_FALSE(e.empty());
    const MemKind kind = e.count(Encoding::SMEM) ? MemKind::Scalar
                         : e.count(Encoding::DS) ? MemKind::Lds
                         : e.count(Encoding::FLAT) ? MemKind::Flat
                         : e.count(Encoding::GLOBAL) ? MemKind::Global
                         : e.count(Encoding::SCRATCH) ? MemKind::Scratch
                         : e.count(Encoding::MUBUF) || e.count(Encoding::MTBUF) ? MemKind::Buffer
                         : e.count(Encoding::MIMG) ? MemKind::Image
                                                   : MemKind::None;
    EXPECT_EQ(t.mem, kind);
    if (kind == MemKind::None) { EXPECT_EQ(t.access, MemAccess::None); }
    if (contains(m, "atomic")) { EXPECT_EQ(t.access, MemAccess::Atomic); }
    if (kind != MemKind::None && kind != MemKind::Lds) {
      EXPECT_EQ(t.access == MemAccess::Store, contains(m, "store"));
    }
    if (contains(m, "load") || m.starts_with("ds_read")) { EXPECT_EQ(t.access, MemAccess::Load); }
    if (m.starts_with("ds_write_") || m.starts_with("ds_write2")) { EXPECT_EQ(t.access, MemAccess::Store); }
    EXPECT_EQ(t.has(kF64), contains(m, "f64"));
    EXPECT_EQ(t.has(kWritesExec), m.starts_with("v_cmpx"));
    EXPECT_EQ(t.has(kExport), e.count(Encoding::EXP) > 0);
    EXPECT_EQ(t.has(kInterp), e.count(Encoding::VINTRP) > 0);
    if (e.count(Encoding::VOPC)) { EXPECT_TRUE(t.has(kWritesVccE32)); }
    const bool jump = m.starts_with("s_branch") || m.starts_with("s_cbranch") || m == "s_setpc_b64" ||
                      m == "s_swappc_b64" || m.starts_with("s_rfe");
    EXPECT_EQ(jump, t.control == Control::Branch || t.control == Control::Call || t.control == Control::Return);
    // Every SOPP has a control role: nothing is left for a consumer to guess.
    if (e.count(Encoding::SOPP)) { EXPECT_NE(t.control, Control::None); }
    if (!e.count(Encoding::SOPP) && !jump) { EXPECT_EQ(t.control, Control::None); }
  }
}

TEST(OpTraits, CarryAndSelectOpsUseVccImplicitly) {
  EXPECT_TRUE(traits(Op::V_ADDC_U32).has(kReadsVccE32 | kWritesVccE32));
  EXPECT_TRUE(traits(Op::V_SUBB_U32).has(kReadsVccE32 | kWritesVccE32));
  EXPECT_TRUE(traits(Op::V_SUBBREV_U32).has(kReadsVccE32 | kWritesVccE32));
  EXPECT_TRUE(traits(Op::V_CNDMASK_B32).has(kReadsVccE32));
  EXPECT_FALSE(traits(Op::V_CNDMASK_B32).has(kWritesVccE32));
  EXPECT_TRUE(traits(Op::V_ADD_U32).has(kWritesVccE32));
  EXPECT_FALSE(traits(Op::V_ADD_U32).has(kReadsVccE32));
  EXPECT_TRUE(traits(Op::V_DIV_FMAS_F32).has(kReadsVcc));
  EXPECT_TRUE(traits(Op::V_CMP_LT_F32).has(kWritesVccE32));
  EXPECT_TRUE(traits(Op::V_CMPX_LT_F32).has(kWritesVccE32 | kWritesExec));
  EXPECT_EQ(traits(Op::V_ADD_F32).flags, 0);
}

// gfx9 gave gfx8's carry-out adds new names and gave their old names to adds without a carry:
// the Op follows the operation, so the traits follow it too.
TEST(OpTraits, Gfx942CarryAddsAreGfx803sAndItsNoCarryAddsWriteNoVcc) {
  EXPECT_TRUE(traits(Op::V_ADD_U32).has(kWritesVccE32));
  EXPECT_EQ(traits(Op::V_ADD_NC_U32).flags, 0);
  EXPECT_EQ(traits(Op::V_SUB_NC_U32).flags, 0);
  EXPECT_STREQ(op_name(Op::V_ADD_NC_U32), "v_add_nc_u32");
  EXPECT_EQ(traits(Op::GLOBAL_LOAD_DWORD).mem, MemKind::Global);
  EXPECT_EQ(traits(Op::SCRATCH_STORE_DWORD).access, MemAccess::Store);
}

TEST(OpTraits, ScalarConditionsReadSccVccOrExec) {
  EXPECT_TRUE(traits(Op::S_CBRANCH_SCC1).has(kReadsScc));
  EXPECT_TRUE(traits(Op::S_CSELECT_B64).has(kReadsScc));
  EXPECT_TRUE(traits(Op::S_ADDC_U32).has(kReadsScc));
  EXPECT_TRUE(traits(Op::S_CBRANCH_VCCZ).has(kReadsVcc));
  EXPECT_TRUE(traits(Op::S_CBRANCH_EXECNZ).has(kReadsExec));
  EXPECT_FALSE(traits(Op::S_ADD_U32).has(kReadsScc));
}

TEST(OpTraits, ExecutionClassesAreFlagged) {
  EXPECT_TRUE(traits(Op::V_FMA_F64).has(kF64));
  EXPECT_TRUE(traits(Op::V_EXP_F32).has(kTranscendental));
  EXPECT_TRUE(traits(Op::V_RSQ_F64).has(kTranscendental | kF64));
  EXPECT_FALSE(traits(Op::V_MUL_F32).has(kTranscendental));
  EXPECT_TRUE(traits(Op::EXP).has(kExport));
  EXPECT_TRUE(traits(Op::V_INTERP_P1_F32).has(kInterp));
}

// The VALU's rate classes as CLRX measured them on GCN (docs/notes-preset-sources.md, M1): every
// op of a class is flagged, and the full-rate neighbours of each are not.
TEST(OpTraits, QuarterRateIntegerInt64AndFma32OpsAreFlaggedAsMeasured) {
  for (Op op : {Op::V_MUL_LO_U32, Op::V_MUL_HI_U32, Op::V_MUL_HI_I32, Op::V_MAD_U64_U32, Op::V_MAD_I64_I32,
                Op::V_QSAD_PK_U16_U8, Op::V_MQSAD_PK_U16_U8, Op::V_MQSAD_U32_U8})
    EXPECT_EQ(traits(op).flags & (kQuarterInt | kInt64 | kFma32), kQuarterInt) << op_name(op);
  for (Op op : {Op::V_LSHLREV_B64, Op::V_LSHRREV_B64, Op::V_ASHRREV_I64, Op::V_CMP_LT_U64, Op::V_CMP_EQ_I64,
                Op::V_CMPX_GT_U64})
    EXPECT_EQ(traits(op).flags & (kQuarterInt | kInt64 | kFma32), kInt64) << op_name(op);
  for (Op op : {Op::V_FMA_F32, Op::V_DIV_SCALE_F32, Op::V_DIV_FMAS_F32, Op::V_DIV_FIXUP_F32})
    EXPECT_EQ(traits(op).flags & (kQuarterInt | kInt64 | kFma32), kFma32) << op_name(op);
  // Full rate: 24-bit multiplies, f32 multiply-adds that are not fused, conversions, 32-bit
  // shifts and compares, f16 FMA.
  for (Op op : {Op::V_MUL_U32_U24, Op::V_MUL_HI_U32_U24, Op::V_MAD_U32_U24, Op::V_MAD_F32, Op::V_MAC_F32,
                Op::V_CVT_F32_U32, Op::V_CVT_U32_F32, Op::V_LSHLREV_B32, Op::V_CMP_LT_U32, Op::V_FMA_F16,
                Op::V_DIV_FIXUP_F16, Op::V_SAD_U32, Op::V_MSAD_U8})
    EXPECT_EQ(traits(op).flags & (kQuarterInt | kInt64 | kFma32), 0) << op_name(op);
  // Every op of a class is a VALU op, and no op is in two.
  for (size_t i = 0; i < size_t(Op::INVALID); ++i) {
    const uint16_t f = traits(Op(i)).flags & (kQuarterInt | kInt64 | kFma32 | kF64 | kTranscendental);
    if (f & (kQuarterInt | kInt64 | kFma32)) {
      EXPECT_EQ(std::popcount(f), 1) << op_name(Op(i));
      EXPECT_TRUE(std::string_view(op_name(Op(i))).starts_with("v_")) << op_name(Op(i));
    }
  }
}

TEST(OpTraits, MemoryOpsNameTheirMemoryAndAccess) {
  EXPECT_EQ(traits(Op::BUFFER_STORE_DWORD).mem, MemKind::Buffer);
  EXPECT_EQ(traits(Op::BUFFER_STORE_DWORD).access, MemAccess::Store);
  EXPECT_EQ(traits(Op::BUFFER_LOAD_DWORD).access, MemAccess::Load);
  EXPECT_EQ(traits(Op::TBUFFER_LOAD_FORMAT_X).mem, MemKind::Buffer);
  EXPECT_EQ(traits(Op::FLAT_ATOMIC_ADD).mem, MemKind::Flat);
  EXPECT_EQ(traits(Op::FLAT_ATOMIC_ADD).access, MemAccess::Atomic);
  EXPECT_EQ(traits(Op::S_LOAD_DWORDX2).mem, MemKind::Scalar);
  EXPECT_EQ(traits(Op::S_LOAD_DWORDX2).access, MemAccess::Load);
  EXPECT_EQ(traits(Op::DS_READ_B32).mem, MemKind::Lds);
  EXPECT_EQ(traits(Op::DS_WRITE_B32).access, MemAccess::Store);
  EXPECT_EQ(traits(Op::DS_ADD_RTN_U32).access, MemAccess::Atomic);
  EXPECT_EQ(traits(Op::BUFFER_WBINVL1).access, MemAccess::None);
  EXPECT_EQ(traits(Op::V_ADD_F32).mem, MemKind::None);
}

TEST(OpTraits, ControlFlowAndSequencerOpsHaveTheirRole) {
  EXPECT_EQ(traits(Op::S_SWAPPC_B64).control, Control::Call);
  EXPECT_EQ(traits(Op::S_SETPC_B64).control, Control::Return);
  EXPECT_EQ(traits(Op::S_BRANCH).control, Control::Branch);
  EXPECT_EQ(traits(Op::S_CBRANCH_EXECZ).control, Control::Branch);
  EXPECT_EQ(traits(Op::S_GETPC_B64).control, Control::None);
  EXPECT_EQ(traits(Op::S_WAITCNT).control, Control::Waitcnt);
  EXPECT_EQ(traits(Op::S_NOP).control, Control::Nop);
  EXPECT_EQ(traits(Op::S_SLEEP).control, Control::Sleep);
  EXPECT_EQ(traits(Op::S_BARRIER).control, Control::Barrier);
  EXPECT_EQ(traits(Op::S_ENDPGM).control, Control::Endpgm);
  EXPECT_EQ(traits(Op::S_SETPRIO).control, Control::Sequencer);
}

TEST(OpTraits, InvalidOpHasNoTraits) {
  EXPECT_EQ(traits(Op::INVALID).mem, MemKind::None);
  EXPECT_EQ(traits(Op::INVALID).control, Control::None);
  EXPECT_EQ(traits(Op::INVALID).flags, 0);
}

// One generated row per Op: a missing row would silently read as "no traits".
constexpr size_t kTraitRows = 0
#define STROBE_OP_TRAITS(OP, MEM, ACCESS, CONTROL, FLAGS) +1
#include "isa/op_traits.def"
#undef STROBE_OP_TRAITS
    ;
static_assert(kTraitRows == size_t(Op::INVALID));

// The table must be usable where a constant is needed (no run-time initialisation).
static_assert(traits(Op::V_ADDC_U32).has(kReadsVccE32));

}  // namespace
}  // namespace strobe::isa
