// Differential fuzzing against LLVM's decoder (LLVM 14 for gfx803, LLVM 19 for gfx942): random
// words of each encoding class must disassemble to exactly the lines llvm-objdump prints
// (including .long for rejected words).
// STROBE_ISA_FUZZ_N sets the words per class (default 5000: 100,000 words in all, a few seconds);
// scripts/fuzz-decoder runs 100000.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>

#include "isa/disassembler.h"
#include "isa/llvm_reference.h"

namespace strobe::isa {
namespace {

struct FuzzClass {
  const char* name;
  uint32_t fixed;       ///< prefix bits
  uint32_t free;        ///< bits randomised in the first dword
  bool two_words;       ///< the class is a 64-bit encoding (second dword random)
  uint32_t op_shift = 0, op_mod = 0;  ///< keep the opcode field below op_mod (other classes above it)
};

void PrintTo(const FuzzClass& k, std::ostream* os) { *os << k.name; }

// VOP3b opcodes: carry-out adds/subs, div_scale and the 64-bit mads.
constexpr uint16_t kVop3b[] = {0x119, 0x11A, 0x11B, 0x11C, 0x11D, 0x11E, 0x1E0, 0x1E1, 0x1E8, 0x1E9};

const FuzzClass kClasses[] = {
    {"SOP2", 0x80000000, 0x3FFFFFFF, false, 23, 0x60},
    {"SOPK", 0xB0000000, 0x0FFFFFFF, false, 23, 0x1C},
    {"SOP1", 0xBE800000, 0x007FFFFF, false},
    {"SOPC", 0xBF000000, 0x007FFFFF, false},
    {"SOPP", 0xBF800000, 0x007FFFFF, false},
    {"SMEM", 0xC0000000, 0x03FFFFFF, true},
    {"VOP1", 0x7E000000, 0x01FFFFFF, false},
    {"VOP2", 0x00000000, 0x7FFFFFFF, false, 25, 0x3E},
    {"VOPC", 0x7C000000, 0x01FFFFFF, false},
    {"VOP3a", 0xD0000000, 0x03FFFFFF, true},
    {"VOP3b", 0xD0000000, 0x0000FFFF, true},
    {"SDWA", 0x00000000, 0x7FFFFE00, false, 25, 0x40},
    {"DPP", 0x00000000, 0x7FFFFE00, false, 25, 0x40},
    {"VINTRP", 0xD4000000, 0x03FFFFFF, false},
    {"DS", 0xD8000000, 0x03FFFFFF, true},
    {"FLAT", 0xDC000000, 0x03FFFFFF, true},
    {"MUBUF", 0xE0000000, 0x03FFFFFF, true},
    {"MTBUF", 0xE8000000, 0x03FFFFFF, true},
    {"MIMG", 0xF0000000, 0x03FFFFFF, true},
    {"EXP", 0xC4000000, 0x03FFFFFF, true},
};

// gfx942's classes: gfx803's without VINTRP, MIMG and EXP (gfx940 has none), with VOP3P; FLAT
// covers the SCRATCH and GLOBAL segments; VOP3a stops where VOP3P's opcodes start.
const FuzzClass kClassesGfx942[] = {
    {"SOP2", 0x80000000, 0x3FFFFFFF, false, 23, 0x60},
    {"SOPK", 0xB0000000, 0x0FFFFFFF, false, 23, 0x1D},
    {"SOP1", 0xBE800000, 0x007FFFFF, false},
    {"SOPC", 0xBF000000, 0x007FFFFF, false},
    {"SOPP", 0xBF800000, 0x007FFFFF, false},
    {"SMEM", 0xC0000000, 0x03FFFFFF, true},
    {"VOP1", 0x7E000000, 0x01FFFFFF, false},
    {"VOP2", 0x00000000, 0x7FFFFFFF, false, 25, 0x3E},
    {"VOPC", 0x7C000000, 0x01FFFFFF, false},
    {"SDWA", 0x00000000, 0x7FFFFE00, false, 25, 0x40},
    {"DPP", 0x00000000, 0x7FFFFE00, false, 25, 0x40},
    {"VOP3a", 0xD0000000, 0x03FFFFFF, true, 16, 0x380},
    {"VOP3b", 0xD0000000, 0x0000FFFF, true},
    {"VOP3P", 0xD3800000, 0x007FFFFF, true},
    {"DS", 0xD8000000, 0x03FFFFFF, true},
    {"FLAT", 0xDC000000, 0x03FFFFFF, true},
    {"MUBUF", 0xE0000000, 0x03FFFFFF, true},
    {"MTBUF", 0xE8000000, 0x03FFFFFF, true},
};

constexpr uint32_t kNop = 0xBF800000;

// Random bits, half the time sparse so that operands with must-be-zero fields survive often.
uint32_t bits(std::mt19937& rng, uint32_t mask) {
  uint32_t r = rng();
  if (rng() & 1) r &= rng() & rng();
  return r & mask;
}

// Source codes worth hitting often: literal, SDWA/DPP markers, constants, specials.
uint32_t interesting_src(std::mt19937& rng) {
  static const uint16_t kCodes[] = {0xFF, 0xF9, 0xFA, 0x80, 0xC1, 0xF0, 0xF8, 0x6A, 0x7E, 0x7C, 0x7D,
                                    0xFB, 0xFD, 0xEB, 0xD1, 0x65, 0x66, 0x67, 0x70, 0x7B, 0x1FF, 0x100};
  return kCodes[rng() % std::size(kCodes)];
}

std::vector<uint32_t> make_case(const FuzzClass& k, std::mt19937& rng) {
  std::string_view name(k.name);
  uint32_t w0 = k.fixed | bits(rng, k.free);
  if (k.op_mod) {
    uint32_t op = rng() % k.op_mod;
    uint32_t field = (name == "SOPK") ? 0x1F : (name == "SOP2") ? 0x7F : (name == "VOP3a") ? 0x3FF : 0x3F;
    w0 = (w0 & ~(field << k.op_shift)) | op << k.op_shift;
  }
  if (name == "SDWA" || name == "DPP") {
    // VOP2 opcodes 0..0x3D, VOPC (0x3E) or VOP1 (0x3F) with the extension marker in src0.
    w0 = (w0 & ~0x1FFu) | (name == "SDWA" ? 0xF9 : 0xFA);
  } else if ((name == "VOP1" || name == "VOP2" || name == "VOPC") && (rng() % 3 == 0)) {
    w0 = (w0 & ~0x1FFu) | interesting_src(rng);
  }
  if (name == "VOP3b") w0 = (w0 & 0xFC00FFFF) | uint32_t(kVop3b[rng() % std::size(kVop3b)]) << 16;
  uint32_t w1 = rng();
  if (rng() & 1) w1 &= rng() & rng();
  if (name.starts_with("VOP3") && rng() % 3 == 0) w1 = (w1 & ~0x1FFu) | interesting_src(rng);
  if ((w0 & 0x1FF) == 0xF9 && (w0 >> 31) == 0) {
    // A select of 7 crashes llvm-objdump 14 (no reference exists); strobe rejects it.
    for (int shift : {8, 16, 24})
      if (((w1 >> shift) & 7) == 7) w1 &= ~(1u << shift);
  }
  std::vector<uint32_t> out{w0, w1};
  if (!k.two_words && rng() % 4 == 0) out[1] = kNop;
  // llvm-objdump prints a run of 8 or more zero bytes as "...": keep cases out of one.
  if (out[0] == 0 && out[1] == 0) out[1] = kNop;
  out.push_back(kNop);
  out.push_back(kNop);
  return out;
}

// Address (from "// ADDRESS:") -> full line.
std::map<uint64_t, std::string> by_address(const std::vector<std::string>& lines) {
  std::map<uint64_t, std::string> m;
  for (const auto& l : lines) {
    size_t p = l.find("// ");
    if (p == std::string::npos) continue;
    m[std::strtoull(l.c_str() + p + 3, nullptr, 16)] = l;
  }
  return m;
}

TargetLabeler text_labeler() {
  return [](uint64_t target) {
    char buf[40];
    std::snprintf(buf, sizeof buf, ".text+0x%llx", static_cast<unsigned long long>(target));
    return std::string(buf);
  };
}

// STROBE_ISA_FUZZ_SHOW: how many mismatching lines to report per class (default 15).
size_t shown_per_class() {
  const char* env = std::getenv("STROBE_ISA_FUZZ_SHOW");
  return env ? std::strtoull(env, nullptr, 10) : 15;
}

size_t words_per_class() {
  const char* env = std::getenv("STROBE_ISA_FUZZ_N");
  return env ? std::strtoull(env, nullptr, 10) : 5000;
}

void fuzz_class(const FuzzClass& k, Target target) {
  // STROBE_ISA_FUZZ_SEED varies the word streams (default 0: the streams the suite always used).
  const char* seed_env = std::getenv("STROBE_ISA_FUZZ_SEED");
  uint32_t seed = seed_env ? static_cast<uint32_t>(std::strtoul(seed_env, nullptr, 10)) << 16 : 0;
  std::mt19937 rng((0x5eed0000u + seed) ^ static_cast<uint32_t>(std::hash<std::string_view>{}(k.name) & 0xFFFF));
  std::vector<uint32_t> words;
  size_t n = words_per_class();
  for (size_t i = 0; i < n; ++i) {
    auto c = make_case(k, rng);
    words.insert(words.end(), c.begin(), c.end());
  }
  auto expected = by_address(testing::llvm_lines_for_words(words, target));
  std::vector<uint8_t> bytes(words.size() * 4);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  auto actual = by_address(testing::split_lines(disassemble(bytes, 0, text_labeler(), target)));
  size_t mismatches = 0, shown = 0, show = shown_per_class();
  for (const auto& [addr, line] : expected) {
    auto it = actual.find(addr);
    std::string got = it == actual.end() ? "<no line>" : it->second;
    if (got == line) continue;
    ++mismatches;
    if (shown++ < show) ADD_FAILURE() << k.name << "\n  llvm:   " << line << "\n  strobe: " << got;
  }
  for (const auto& [addr, line] : actual) {
    if (expected.count(addr)) continue;
    ++mismatches;
    if (shown++ < show) ADD_FAILURE() << k.name << "\n  llvm:   <no line>\n  strobe: " << line;
  }
  std::printf("FUZZ %s %-6s words=%zu mismatches=%zu\n", target_name(target), k.name, n, mismatches);
  EXPECT_EQ(mismatches, 0u) << k.name;
}

class DecoderFuzz : public ::testing::TestWithParam<FuzzClass> {};

TEST_P(DecoderFuzz, RandomWordsDisassembleExactlyAsLlvm) { fuzz_class(GetParam(), Target::Gfx803); }

class DecoderFuzzGfx942 : public ::testing::TestWithParam<FuzzClass> {};

TEST_P(DecoderFuzzGfx942, RandomWordsDisassembleExactlyAsLlvm19) { fuzz_class(GetParam(), Target::Gfx942); }

// A debugging aid: STROBE_ISA_PROBE names a file of word lists (one instruction case per line,
// hex words separated by spaces or commas); every differing line is reported. Skipped otherwise.
TEST(DecoderProbe, WordsFromFileDisassembleExactlyAsLlvm) {
  const char* path = std::getenv("STROBE_ISA_PROBE");
  if (!path) GTEST_SKIP() << "set STROBE_ISA_PROBE=FILE to compare hand-picked words";
  std::vector<uint32_t> words;
  FILE* f = std::fopen(path, "r");
  ASSERT_NE(f, nullptr) << path;
  char tok[64];
  while (std::fscanf(f, " %63[0-9a-fA-FxX]%*[, ]", tok) == 1) words.push_back(std::strtoul(tok, nullptr, 16));
  std::fclose(f);
  auto expected = by_address(testing::llvm_lines_for_words(words));
  std::vector<uint8_t> bytes(words.size() * 4);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  auto actual = by_address(testing::split_lines(disassemble(bytes, 0, text_labeler())));
  size_t mismatches = 0;
  for (const auto& [addr, line] : expected) {
    auto it = actual.find(addr);
    std::string got = it == actual.end() ? "<no line>" : it->second;
    if (got != line && mismatches++ < shown_per_class())
      ADD_FAILURE() << "\n  llvm:   " << line << "\n  strobe: " << got;
  }
  std::printf("PROBE words=%zu mismatches=%zu\n", words.size(), mismatches);
}

INSTANTIATE_TEST_SUITE_P(EveryEncodingClass, DecoderFuzz, ::testing::ValuesIn(kClasses),
                         [](const auto& info) { return std::string(info.param.name); });
INSTANTIATE_TEST_SUITE_P(EveryEncodingClass, DecoderFuzzGfx942, ::testing::ValuesIn(kClassesGfx942),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace strobe::isa
