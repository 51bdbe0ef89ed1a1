// Calls and returns (s_swappc_b64 / s_setpc_b64) in a Program decoded function by function, and
// the faults for control flow that leaves the decoded functions.
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "emu_test_util.h"
#include "isa/decoder.h"

namespace strobe::emu::test {
namespace {

// The kernel calls FUNC, which sets s20 and returns; 0xBF810000 between them is an s_endpgm
// word that is data (outside every function), as a v2 amd_kernel_code_t is.
constexpr const char* kCallSource = R"(
  s_getpc_b64 s[10:11]
  s_add_u32 s10, s10, 24
  s_addc_u32 s11, s11, 0
  s_swappc_b64 s[30:31], s[10:11]
  s_mov_b32 s21, 2
  s_endpgm
  .long 0xBF810000
FUNC:
  s_mov_b32 s20, 7
  s_setpc_b64 s[30:31]
)";

// Byte layout of kCallSource: kernel [0, 24), data word [24, 28), FUNC [28, 36).
constexpr isa::ByteRange kKernel{0, 24}, kFunc{28, 8};

/// A launch of `source` whose program holds only `ranges` of the assembled bytes.
void decode_functions(AsmLaunch& l, const std::string& source, std::initializer_list<isa::ByteRange> ranges) {
  l.program = isa::decode_program(assemble_bytes(source), 0x1000, std::vector<isa::ByteRange>(ranges));
  l.d.entry_address = 0x1000;
}

std::string fault_of(AsmLaunch& l) {
  try {
    l.run_group();
  } catch (const FaultError& e) {
    return e.what();
  }
  return "no fault";
}

TEST(Calls, SwappcCallsAFunctionAndSetpcReturnsAfterTheCall) {
  AsmLaunch l(kCallSource, KdSpec{}, {1, 1, 1}, {1, 1, 1});
  decode_functions(l, kCallSource, {kKernel, kFunc});
  const Wave w = l.run_group()[0];
  EXPECT_EQ(w.s[20], 7u);
  EXPECT_EQ(w.s[21], 2u);
  EXPECT_EQ(w.s64(30), 0x1000u + 16);  // the return address: the instruction after s_swappc_b64
}

TEST(Calls, DataBetweenFunctionsIsNotDecoded) {
  AsmLaunch l(kCallSource, KdSpec{}, {1, 1, 1}, {1, 1, 1});
  decode_functions(l, kCallSource, {kKernel, kFunc});
  EXPECT_EQ(l.program.index_at(24), -1);
  EXPECT_GE(l.program.index_at(28), 0);
  EXPECT_EQ(l.program.insts[size_t(l.program.index_at(28))].op, isa::Op::S_MOV_B32);
}

TEST(Calls, JumpOutsideAnyFunctionFaultsNamingKernelPcInstructionAndTarget) {
  // FUNC's range left out: the call's target is not an instruction of any decoded function.
  AsmLaunch l(kCallSource, KdSpec{}, {1, 1, 1}, {1, 1, 1});
  decode_functions(l, kCallSource, {kKernel});
  const std::string msg = fault_of(l);
  EXPECT_NE(msg.find("kernel test_kernel"), std::string::npos) << msg;
  EXPECT_NE(msg.find("PC 0x100c"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[s_swappc_b64 s[30:31], s[10:11]]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("jump to 0x101c"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not an instruction"), std::string::npos) << msg;
}

TEST(Calls, JumpIntoDataBetweenFunctionsFaults) {
  // The call lands on the data word, which decodes as s_endpgm but is not code.
  const std::string source = std::string(kCallSource).replace(std::string(kCallSource).find("24"), 2, "20");
  AsmLaunch l(source, KdSpec{}, {1, 1, 1}, {1, 1, 1});
  decode_functions(l, source, {kKernel, kFunc});
  const std::string msg = fault_of(l);
  EXPECT_NE(msg.find("jump to 0x1018"), std::string::npos) << msg;
}

TEST(Calls, RunningPastTheEndOfAFunctionFaults) {
  // FUNC without its return: execution would continue into whatever follows it.
  const std::string source = std::string(kCallSource) + "  s_nop 0\n";
  AsmLaunch l(source, KdSpec{}, {1, 1, 1}, {1, 1, 1});
  decode_functions(l, source, {kKernel, isa::ByteRange{28, 4}, isa::ByteRange{36, 4}});
  const std::string msg = fault_of(l);
  EXPECT_NE(msg.find("ran past the last instruction of a function"), std::string::npos) << msg;
  EXPECT_NE(msg.find("PC 0x1020"), std::string::npos) << msg;
}

TEST(Calls, OverlappingAndTouchingRangesDecodeOnce) {
  const std::vector<uint8_t> bytes = assemble_bytes(kCallSource);
  const isa::Program p = isa::decode_program(bytes, 0, std::vector<isa::ByteRange>{kFunc, {0, 12}, {4, 24}, {24, 4}});
  // One merged range [0, 36): nine instructions (the data word too) and one end marker.
  EXPECT_EQ(p.insts.size(), 10u);
  EXPECT_EQ(p.offsets.back(), 36u);
  EXPECT_TRUE(p.is_end_marker(uint32_t(p.insts.size() - 1)));
  EXPECT_FALSE(p.is_end_marker(0));
}

}  // namespace
}  // namespace strobe::emu::test
