// gfx942 code objects (build/gfx942-kernels) decode as whole Programs in gfx942's instruction set,
// and every operation their code uses has semantics (that the semantics are gfx942's is checked
// by running the code: tests/workloads/gfx942_runs_test.cpp, tests/emu/gfx942_semantics_test.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "emu/code_object_program.h"
#include "emu/semantics.h"
#include "gfx942_kernels.h"
#include "isa/op_table.h"
#include "loader/code_object.h"

namespace strobe::emu {
namespace {

namespace fs = std::filesystem;

TEST(Gfx942Programs, EveryInstructionOfTheSuiteDecodesAndHasSemantics) {
  const auto files = strobe::testing::gfx942_code_objects();
  if (files.empty()) GTEST_SKIP() << "no clang-19 build: build/gfx942-kernels is empty";
  size_t insts = 0, invalid = 0;
  std::map<std::string, size_t> unhandled;  // mnemonic -> static count
  for (const fs::path& f : files) {
    const loader::CodeObject co = loader::CodeObject::load(f.string(), loader::Accept::Decodable);
    ASSERT_EQ(isa_target(co), isa::Target::Gfx942) << f;
    const isa::Program p = decode_code_object(co, 0);
    for (uint32_t pc = 0; pc < p.insts.size(); ++pc) {
      if (p.is_end_marker(pc)) continue;
      const isa::Inst& inst = p.insts[pc];
      ++insts;
      if (inst.enc == isa::Encoding::Invalid) {
        if (++invalid <= 5) ADD_FAILURE() << f << ": an undecodable word at byte " << p.offsets[pc];
        continue;
      }
      EXPECT_EQ(inst.target, isa::Target::Gfx942);
      if (!has_semantics(inst.op)) ++unhandled[isa::detail::lookup(inst)->mnemonic];
    }
  }
  EXPECT_EQ(invalid, 0u);
  EXPECT_GT(insts, 100000u);
  std::string list;
  for (const auto& [m, n] : unhandled) list += " " + m + " (" + std::to_string(n) + ")";
  std::printf("GFX942 code objects=%zu instructions=%zu unhandled operations=%zu:%s\n", files.size(), insts,
              unhandled.size(), list.c_str());
  EXPECT_TRUE(unhandled.empty()) << "operations without semantics:" << list;
  RecordProperty("instructions", static_cast<int>(insts));
  RecordProperty("unhandled_operations", static_cast<int>(unhandled.size()));
}

}  // namespace
}  // namespace strobe::emu
