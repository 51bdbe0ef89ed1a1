// Inline constants (operand codes 128..248) and scalar operand reads.
#include <gtest/gtest.h>

#include <bit>

#include "emu/wave.h"

namespace strobe::emu {
namespace {
namespace of = isa::opcode_field;

TEST(InlineConstant, IntegersAreTwosComplementPerWidth) {
  EXPECT_EQ(inline_constant(128, OperandType::B32), 0u);
  EXPECT_EQ(inline_constant(192, OperandType::B32), 64u);
  EXPECT_EQ(inline_constant(193, OperandType::B32), 0xFFFFFFFFu);
  EXPECT_EQ(inline_constant(208, OperandType::B32), uint32_t(-16));
  EXPECT_EQ(inline_constant(193, OperandType::B64), ~uint64_t{0});
  EXPECT_EQ(inline_constant(208, OperandType::F64), uint64_t(int64_t{-16}));
  EXPECT_EQ(inline_constant(193, OperandType::B16), 0xFFFFu);
}

TEST(InlineConstant, FloatsHaveTheRightBitPatternPerType) {
  EXPECT_EQ(inline_constant(240, OperandType::F32), std::bit_cast<uint32_t>(0.5f));
  EXPECT_EQ(inline_constant(243, OperandType::F32), std::bit_cast<uint32_t>(-1.0f));
  EXPECT_EQ(inline_constant(247, OperandType::F32), std::bit_cast<uint32_t>(-4.0f));
  EXPECT_EQ(inline_constant(244, OperandType::F64), std::bit_cast<uint64_t>(2.0));
  EXPECT_EQ(inline_constant(242, OperandType::B64), std::bit_cast<uint64_t>(1.0));
  EXPECT_EQ(inline_constant(242, OperandType::F16), 0x3C00u);
  EXPECT_EQ(inline_constant(241, OperandType::F16), 0xB800u);
  EXPECT_EQ(inline_constant(248, OperandType::F32), 0x3E22F983u);
  EXPECT_EQ(inline_constant(248, OperandType::F64), 0x3FC45F306DC9C882ull);
  EXPECT_EQ(inline_constant(248, OperandType::F16), 0x3118u);
}

TEST(ScalarSource, ReadsRegistersPairsLiteralsAndSpecials) {
  Wave w;
  isa::Inst in;
  in.literal = 0x40490FDB;
  w.s[4] = 7;
  w.s[5] = 9;
  EXPECT_EQ(scalar_source(w, in, 4, OperandType::B32), 7u);
  EXPECT_EQ(scalar_source(w, in, 4, OperandType::B64), 0x0000000900000007ull);
  EXPECT_EQ(scalar_source(w, in, of::kLiteral, OperandType::B32), 0x40490FDBu);
  EXPECT_EQ(scalar_source(w, in, of::kLiteral, OperandType::F64), 0x40490FDB00000000ull);
  EXPECT_EQ(scalar_source(w, in, of::kLiteral, OperandType::B64), 0x40490FDBull);
  w.scc = 1;
  EXPECT_EQ(scalar_source(w, in, of::kScc, OperandType::B32), 1u);
  w.set_exec(0);
  EXPECT_EQ(scalar_source(w, in, of::kExecz, OperandType::B32), 1u);
  w.set_vcc(5);
  EXPECT_EQ(scalar_source(w, in, of::kVccz, OperandType::B32), 0u);
  EXPECT_EQ(scalar_source(w, in, 129, OperandType::B32), 1u);
}

}  // namespace
}  // namespace strobe::emu
