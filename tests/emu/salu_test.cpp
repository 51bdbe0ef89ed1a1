// Scalar ALU semantics, run through the real decoder from llvm-mc-assembled snippets, plus a few
// hand-built Inst cases that exercise handlers directly.
#include <gtest/gtest.h>

#include "common/error.h"
#include "emu/semantics.h"
#include "emu_test_util.h"

namespace strobe::emu {
namespace {
using test::AsmLaunch;
using test::KdSpec;

// Runs `body` (followed by s_endpgm) in one single-lane wave and returns the wave.
Wave run_scalar(const std::string& body) {
  AsmLaunch l(body + "\ns_endpgm", KdSpec{}, {1, 1, 1}, {1, 1, 1});
  return l.run_group()[0];
}

struct Case {
  const char* body;
  int reg;
  uint32_t value;
  int scc;  // -1: don't care
};

class SaluCase : public ::testing::TestWithParam<Case> {};

TEST_P(SaluCase, ProducesResultAndScc) {
  const Case& c = GetParam();
  Wave w = run_scalar(c.body);
  EXPECT_EQ(w.s[c.reg], c.value) << c.body;
  if (c.scc >= 0) {
    EXPECT_EQ(int(w.scc), c.scc) << c.body;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Scalar, SaluCase,
    ::testing::Values(
        Case{"s_mov_b32 s10, -1\ns_add_u32 s11, s10, 2", 11, 1, 1},
        Case{"s_mov_b32 s10, 3\ns_sub_u32 s11, s10, 5", 11, uint32_t(-2), 1},
        Case{"s_mov_b32 s10, 0x7fffffff\ns_add_i32 s11, s10, 1", 11, 0x80000000u, 1},
        Case{"s_mov_b32 s10, -1\ns_add_u32 s11, s10, 1\ns_addc_u32 s12, 0, 0", 12, 1, 0},
        Case{"s_mov_b32 s10, 0\ns_sub_u32 s11, s10, 1\ns_subb_u32 s12, 5, 0", 12, 4, 0},
        Case{"s_min_i32 s11, -5, 3", 11, uint32_t(-5), 1},
        Case{"s_max_u32 s11, -5, 3", 11, uint32_t(-5), 1},
        Case{"s_cmp_eq_u32 0, 0\ns_cselect_b32 s11, 7, 9", 11, 7, -1},
        Case{"s_and_b32 s11, 12, 10", 11, 8, 1},
        Case{"s_xor_b32 s11, 5, 5", 11, 0, 0},
        Case{"s_andn2_b32 s11, 15, 6", 11, 9, 1},
        Case{"s_nor_b32 s11, 0, 0", 11, 0xFFFFFFFFu, 1},
        Case{"s_lshl_b32 s11, 3, 33", 11, 6, 1},
        Case{"s_ashr_i32 s11, -16, 2", 11, uint32_t(-4), 1},
        Case{"s_lshr_b32 s11, -16, 28", 11, 15, 1},
        Case{"s_bfm_b32 s11, 4, 8", 11, 0xF00, -1},
        Case{"s_mul_i32 s11, -3, 7", 11, uint32_t(-21), -1},
        Case{"s_mov_b32 s10, 0xABCD1234\ns_bfe_u32 s11, s10, 0x80008", 11, 0x12, 1},
        Case{"s_mov_b32 s10, 0x0000F000\ns_bfe_i32 s11, s10, 0x4000c", 11, 0xFFFFFFFFu, 1},
        Case{"s_absdiff_i32 s11, 3, 10", 11, 7, 1},
        Case{"s_movk_i32 s11, 0x8000", 11, 0xFFFF8000u, -1},
        Case{"s_mov_b32 s11, 5\ns_addk_i32 s11, 0xfffe", 11, 3, 0},
        Case{"s_mov_b32 s11, 5\ns_mulk_i32 s11, 0xfffe", 11, uint32_t(-10), -1},
        Case{"s_mov_b32 s11, 5\ns_cmpk_gt_i32 s11, 0xffff", 11, 5, 1},
        Case{"s_mov_b32 s11, 5\ns_cmpk_gt_u32 s11, 0xffff", 11, 5, 0},
        Case{"s_not_b32 s11, 0", 11, 0xFFFFFFFFu, 1},
        Case{"s_brev_b32 s11, 1", 11, 0x80000000u, -1},
        Case{"s_mov_b32 s10, 0xF0F0\ns_bcnt1_i32_b32 s11, s10", 11, 8, 1},
        Case{"s_mov_b32 s10, 0xF0F0\ns_bcnt0_i32_b32 s11, s10", 11, 24, 1},
        Case{"s_mov_b32 s10, 0x50\ns_ff1_i32_b32 s11, s10", 11, 4, -1},
        Case{"s_ff1_i32_b32 s11, 0", 11, 0xFFFFFFFFu, -1},
        Case{"s_mov_b32 s10, -2\ns_ff0_i32_b32 s11, s10", 11, 0, -1},
        Case{"s_mov_b32 s10, 0x00100000\ns_flbit_i32_b32 s11, s10", 11, 11, -1},
        Case{"s_mov_b32 s10, 0xFFF00000\ns_flbit_i32 s11, s10", 11, 12, -1},
        Case{"s_flbit_i32 s11, -1", 11, 0xFFFFFFFFu, -1},
        Case{"s_mov_b32 s10, 0x80\ns_sext_i32_i8 s11, s10", 11, 0xFFFFFF80u, -1},
        Case{"s_mov_b32 s10, 0x8001\ns_sext_i32_i16 s11, s10", 11, 0xFFFF8001u, -1},
        Case{"s_mov_b32 s11, 0\ns_bitset1_b32 s11, 5", 11, 32, -1},
        Case{"s_mov_b32 s10, 0x10\ns_wqm_b32 s11, s10", 11, 0xF0, 1},
        Case{"s_mov_b32 s10, 0x0F10\ns_quadmask_b32 s11, s10", 11, 6, 1},
        Case{"s_abs_i32 s11, -7", 11, 7, 1},
        Case{"s_mov_b32 s10, 0x8000\ns_bitcmp1_b32 s10, 15\ns_cselect_b32 s11, 1, 2", 11, 1, -1},
        Case{"s_mov_b64 s[10:11], -1\ns_cmp_lg_u64 s[10:11], 0\ns_cselect_b32 s12, 1, 2", 12, 1, -1},
        Case{"s_mov_b32 m0, 2\ns_mov_b32 s12, 77\ns_movrels_b32 s20, s10", 20, 77, -1},
        Case{"s_mov_b32 m0, 3\ns_movreld_b32 s10, 55", 13, 55, -1},
        Case{"s_mov_b64 s[10:11], 1\ns_lshl_b64 s[10:11], s[10:11], 40", 11, 0x100, 1},
        Case{"s_mov_b64 s[10:11], -1\ns_bfe_u64 s[12:13], s[10:11], 0x280000", 13, 0xFF, 1},
        Case{"s_mov_b64 s[10:11], 0\ns_bcnt1_i32_b64 s12, s[10:11]", 12, 0, 0},
        Case{"s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3\ns_getreg_b32 s11, hwreg(HW_REG_MODE, 0, 8)", 11, 0xC3, -1},
        Case{"s_mov_b32 s10, 0\ns_cmp_eq_u32 s10, 0\ns_cbranch_scc1 BB\ns_mov_b32 s10, 1\nBB:\ns_mov_b32 s11, s10", 11,
             0, -1},
        Case{"s_mov_b32 s10, 0\nL:\ns_add_u32 s10, s10, 1\ns_cmp_lt_u32 s10, 10\ns_cbranch_scc1 L\ns_mov_b32 s11, s10", 11,
             10, -1},
        Case{"s_getpc_b64 s[10:11]", 10, 4, -1}));

TEST(Salu, SaveexecUpdatesExecAndReturnsOldMask) {
  Wave w = run_scalar("s_mov_b64 s[10:11], 0xff\ns_and_saveexec_b64 s[12:13], s[10:11]");
  // One work-item: EXEC starts as 1.
  EXPECT_EQ(w.s64(12), 1u);
  EXPECT_EQ(w.exec(), 1u);
  EXPECT_EQ(w.scc, 1);
}

TEST(Salu, ExeczBranchSkipsWhenNoLanesActive) {
  Wave w = run_scalar(
      "s_mov_b32 s11, 0\ns_mov_b64 exec, 0\ns_cbranch_execz SKIP\ns_mov_b32 s11, 1\nSKIP:\ns_mov_b64 exec, 1");
  EXPECT_EQ(w.s[11], 0u);
}

TEST(Salu, SetpcJumpsToAddressFromGetpc) {
  Wave w = run_scalar("s_mov_b32 s20, 0\ns_getpc_b64 s[10:11]\ns_add_u32 s10, s10, 12\ns_setpc_b64 s[10:11]\n"
                      "s_mov_b32 s20, 1\ns_mov_b32 s21, 2");
  EXPECT_EQ(w.s[20], 0u);
  EXPECT_EQ(w.s[21], 2u);
}

TEST(Salu, MemtimeIsMonotonicAndDeterministic) {
  Wave a = run_scalar("s_memtime s[10:11]\ns_memtime s[12:13]");
  Wave b = run_scalar("s_memtime s[10:11]\ns_memtime s[12:13]");
  EXPECT_LT(a.s64(10), a.s64(12));
  EXPECT_EQ(a.s64(12), b.s64(12));
}

TEST(Salu, UnimplementedInstructionFaultsNamingIt) {
  try {
    run_scalar("s_cbranch_join s10");
    FAIL() << "expected a fault";
  } catch (const FaultError& e) {
    EXPECT_NE(std::string(e.what()).find("not implemented: s_cbranch_join"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("test_kernel"), std::string::npos) << e.what();
  }
}

TEST(Salu, TrapFaultsWithPc) {
  try {
    run_scalar("s_nop 0\ns_trap 2");
    FAIL() << "expected a fault";
  } catch (const FaultError& e) {
    EXPECT_NE(std::string(e.what()).find("PC 0x4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("s_trap"), std::string::npos) << e.what();
  }
}

TEST(Salu, HandBuiltInstRunsThroughHandlerTable) {
  Wave w;
  isa::Inst in;
  in.op = isa::Op::S_ADD_U32;
  in.enc = isa::Encoding::SOP2;
  in.dst = 3;
  in.src[0] = 1;
  in.src[1] = isa::opcode_field::kLiteral;
  in.literal = 0xFFFFFFFF;
  w.s[1] = 2;
  ExecContext ctx;
  handlers().fn[size_t(in.op)](w, in, ctx);
  EXPECT_EQ(w.s[3], 1u);
  EXPECT_EQ(w.scc, 1);
}

}  // namespace
}  // namespace strobe::emu
