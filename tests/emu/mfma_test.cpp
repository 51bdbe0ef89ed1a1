// gfx942's matrix-core instructions against AMD's published operand layouts and a CPU GEMM.
//
// tests/emu/data/mfma_layouts_cdna3.txt.zst holds, for every CDNA3 MFMA and SMFMAC instruction,
// which matrix entry each register slot of each lane carries, as AMD's Matrix Instruction
// Calculator prints it (scripts/gen-mfma-layouts), for every CBSZ/ABID, BLGP (f64: negation)
// and compression-index set. Each test assembles the instruction with llvm-mc-19, places random
// matrices into the registers through that table alone, runs the emulator's handler, reads D
// back through the table, and compares with D = A x B + C worked out here. Inputs are small
// values whose products and sums are exact, so the expected bits do not depend on the order in
// which the matrix core adds. Slots the table leaves unused hold NaNs (or large integers), so an
// instruction that reads the wrong slot fails.
#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "emu/emu_test_util.h"
#include "emu/semantics.h"
#include "emu/wave.h"

namespace strobe::emu {
namespace {

/// A register slot: a column of the calculator's table.
struct Slot {
  int reg = 0, lo = 0, width = 32;
};
/// One matrix entry named in a slot: M[r][c].Bblock, negated when printed with a '-'.
struct Entry {
  char m = 0;
  int r = 0, c = 0, block = 0;
  bool neg = false;
};
/// A lane's row of the table: per slot, the entries it carries.
struct LaneRow {
  int lane = 0;
  std::vector<std::vector<Entry>> cells;
};
/// One table: a matrix of one instruction under one choice of modifiers.
struct Table {
  std::vector<Slot> slots;
  std::vector<LaneRow> rows;
  /// Registers it spans.
  int regs() const {
    int n = 0;
    for (const Slot& s : slots) n = std::max(n, s.reg + (s.width == 64 ? 2 : 1));
    return n;
  }
};

std::string key(const std::string& inst, char m, int cbsz, int abid, int blgp) {
  return inst + " " + m + " cbsz=" + std::to_string(cbsz) + " abid=" + std::to_string(abid) +
         " blgp=" + std::to_string(blgp);
}

Slot parse_slot(const std::string& s) {
  static const std::regex pair(R"(v\[(\d+):(\d+)\])"), one(R"(v(\d+)(?:\.\[(\d+):(\d+)\])?)");
  std::smatch m;
  Slot r;
  if (std::regex_match(s, m, pair)) {
    r.reg = std::stoi(m[2]), r.width = 64;
  } else if (std::regex_match(s, m, one)) {
    r.reg = std::stoi(m[1]);
    if (m[2].matched) r.lo = std::stoi(m[3]), r.width = std::stoi(m[2]) - r.lo + 1;
  } else {
    ADD_FAILURE() << "unreadable slot " << s;
  }
  return r;
}

std::vector<Entry> parse_cell(const std::string& cell) {
  static const std::regex e(R"((-?)([ABCDK])\[(\d+)\]\[(\d+)\](?:\.B(\d+))?)");
  std::vector<Entry> out;
  for (std::sregex_iterator it(cell.begin(), cell.end(), e), end; it != end; ++it) {
    const std::smatch& m = *it;
    out.push_back({m[2].str()[0], std::stoi(m[3]), std::stoi(m[4]), m[5].matched ? std::stoi(m[5]) : 0,
                   m[1].length() > 0});
  }
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) out.push_back(cur), cur.clear();
    else cur += c;
  }
  out.push_back(cur);
  return out;
}

/// Every table, keyed by key(); read once.
const std::map<std::string, Table>& tables() {
  static const std::map<std::string, Table> all = [] {
    std::map<std::string, Table> t;
    std::ifstream f(STROBE_SOURCE_DIR "/tests/emu/data/mfma_layouts_cdna3.txt.zst", std::ios::binary);
    const std::string packed((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    // The file is one zstd frame written by a stream, so its size is not in its header.
    std::string text;
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    std::vector<char> buf(ZSTD_DStreamOutSize());
    ZSTD_inBuffer src{packed.data(), packed.size(), 0};
    while (src.pos < src.size) {
      ZSTD_outBuffer dst{buf.data(), buf.size(), 0};
      if (ZSTD_isError(ZSTD_decompressStream(dctx, &dst, &src))) break;
      text.append(buf.data(), dst.pos);
    }
    ZSTD_freeDCtx(dctx);
    std::istringstream in(text);
    std::string line;
    Table* cur = nullptr;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      if (line[0] == '@') {
        cur = &t[line.substr(2)];
        continue;
      }
      const auto fields = split(line, ',');
      if (fields[0] == "lane") {
        for (size_t i = 1; i < fields.size(); ++i) cur->slots.push_back(parse_slot(fields[i]));
        continue;
      }
      LaneRow row;
      row.lane = std::stoi(fields[0]);
      for (size_t i = 1; i < fields.size(); ++i) row.cells.push_back(parse_cell(fields[i]));
      cur->rows.push_back(std::move(row));
    }
    return t;
  }();
  return all;
}

const Table& table(const std::string& k) {
  static const Table none;
  auto it = tables().find(k);
  if (it == tables().end()) {
    ADD_FAILURE() << "no layout table " << k;
    return none;
  }
  return it->second;
}

/// What the mnemonic says: result type, shape, blocks, the types of A and B, sparsity.
struct Form {
  std::string name, out, a, b;
  int m = 0, n = 0, k = 0, blocks = 1;
  bool sparse = false;
};
Form form(const std::string& name) {
  static const std::regex re(R"(v_(s?)mfma(?:c)?_(f32|i32|f64)_(\d+)x(\d+)x(\d+)(?:_(\d+)b)?_([a-z0-9]+)(?:_([a-z0-9]+))?)");
  std::smatch m;
  Form f;
  f.name = name;
  EXPECT_TRUE(std::regex_match(name, m, re)) << name;
  f.sparse = m[1].length() > 0;
  f.out = m[2];
  f.m = std::stoi(m[3]), f.n = std::stoi(m[4]), f.k = std::stoi(m[5]);
  if (m[6].matched) f.blocks = std::stoi(m[6]);
  f.a = m[7];
  f.b = m[8].matched ? m[8].str() : f.a;
  return f;
}

int bits_of(const std::string& t) {
  if (t == "f64") return 64;
  if (t == "f32" || t == "xf32") return 32;
  if (t == "f16" || t == "bf16") return 16;
  return 8;
}

/// A value of type `t` with exact products and sums, and its bits.
struct Value {
  double v;
  uint64_t bits;
};
Value draw(const std::string& t, std::mt19937& rng) {
  // FNUZ encodings (bias 8 for FP8's E4M3, 16 for BF8's E5M2): 1.0 is 0x40 in both.
  static const Value fp8[] = {{0, 0x00}, {0.5, 0x38}, {1, 0x40}, {1.5, 0x44}, {2, 0x48}, {3, 0x4C},
                              {-0.5, 0xB8}, {-1, 0xC0}, {-1.5, 0xC4}, {-3, 0xCC}, {0.125, 0x28}};
  static const Value bf8[] = {{0, 0x00}, {0.5, 0x3C}, {1, 0x40}, {1.5, 0x42}, {2, 0x44}, {3, 0x46},
                              {-0.5, 0xBC}, {-1, 0xC0}, {-1.5, 0xC2}, {-3, 0xC6}, {0.125, 0x34}};
  if (t == "fp8") return fp8[rng() % std::size(fp8)];
  if (t == "bf8") return bf8[rng() % std::size(bf8)];
  if (t == "i8" || t == "i32") {
    const int v = int(rng() % 256) - 128;
    return {double(v), uint64_t(uint8_t(int8_t(v)))};
  }
  const double v = (int(rng() % 17) - 8) / 4.0;
  if (t == "f64") return {v, std::bit_cast<uint64_t>(v)};
  const uint32_t f = std::bit_cast<uint32_t>(float(v));
  if (t == "bf16") return {v, f >> 16};
  if (t == "f16") return {v, std::bit_cast<uint16_t>(_Float16(v))};
  return {v, f};  // f32, xf32
}

/// A dword no slot of type `t` holds a usable value in: NaNs, or 127s for i8.
uint32_t garbage(const std::string& t) {
  if (t == "fp8" || t == "bf8") return 0x80808080u;
  if (t == "i8") return 0x7F7F7F7Fu;
  return 0xFFFFFFFFu;
}

void put(Wave& w, int base, const Slot& s, int lane, uint64_t bits) {
  uint32_t* row = w.vrow(uint32_t(base + s.reg));
  if (s.width == 64) {
    row[lane] = uint32_t(bits);
    row[kWaveSize + lane] = uint32_t(bits >> 32);
    return;
  }
  const uint32_t mask = s.width == 32 ? ~0u : ((1u << s.width) - 1) << s.lo;
  row[lane] = (row[lane] & ~mask) | (uint32_t(bits) << s.lo & mask);
}
uint64_t get(const Wave& w, int base, const Slot& s, int lane) {
  const uint32_t* row = w.vrow(uint32_t(base + s.reg));
  if (s.width == 64) return row[lane] | uint64_t{row[kWaveSize + lane]} << 32;
  return s.width == 32 ? row[lane] : (row[lane] >> s.lo) & ((1u << s.width) - 1);
}

std::string regs(char file, int first, int n) {
  return n == 1 ? std::string(1, file) + std::to_string(first)
                : std::string(1, file) + "[" + std::to_string(first) + ":" + std::to_string(first + n - 1) + "]";
}

/// One run of `f` under the modifiers, with C and D in AccVGPRs when `acc`; returns how many
/// D entries were compared (failures are reported as they are found).
int check(const Form& f, int cbsz, int abid, int blgp, bool acc, uint32_t seed) {
  const bool f64 = f.out == "f64";
  const Table& ta = table(key(f.name, 'A', f.sparse ? 0 : cbsz, f.sparse ? 0 : abid, f64 ? blgp : 0));
  const Table& tb = table(key(f.name, 'B', 0, 0, blgp));
  const Table& tc = table(key(f.name, f.sparse ? 'D' : 'C', 0, 0, f64 ? blgp : 0));
  const Table& td = table(key(f.name, 'D', 0, 0, 0));
  const Table* tk = f.sparse ? &table(key(f.name, 'k', 0, abid, 0)) : nullptr;
  if (ta.rows.empty() || tb.rows.empty() || td.rows.empty()) return 0;

  constexpr int kA = 0, kB = 8, kIdx = 48, kCv = 32, kDv = 64, kAcc = 256;
  const int c_base = acc ? kAcc : kCv, d_base = acc ? kAcc : (f.sparse ? kCv : kDv);
  std::string mods;
  if (f64) {
    mods = " neg:[" + std::to_string(blgp & 1) + "," + std::to_string(blgp >> 1 & 1) + "," + std::to_string(blgp >> 2 & 1) + "]";
  } else {
    if (cbsz) mods += " cbsz:" + std::to_string(cbsz);
    if (abid) mods += " abid:" + std::to_string(abid);
    if (blgp) mods += " blgp:" + std::to_string(blgp);
  }
  const char file = acc ? 'a' : 'v';
  const std::string src = f.name + " " + regs(file, d_base - (acc ? kAcc : 0), td.regs()) + ", " +
                          regs('v', kA, ta.regs()) + ", " + regs('v', kB, tb.regs()) + ", " +
                          (f.sparse ? regs('v', kIdx, 1) : regs(file, c_base - (acc ? kAcc : 0), tc.regs())) + mods;
  SCOPED_TRACE(src);
  const isa::Program prog = test::assemble(src, isa::Target::Gfx942);
  if (prog.insts.empty() || prog.insts[0].op == isa::Op::INVALID) {
    ADD_FAILURE() << "llvm-mc-19's word does not decode";
    return 0;
  }

  Wave w;
  w.num_vgprs = 512;
  w.v.assign(size_t(512) * kWaveSize, 0);
  w.set_exec(~0ull);
  for (int r = 0; r < 32; ++r) {
    std::fill_n(w.vrow(kA + r), kWaveSize, garbage(f.a));
    if (r < 24) std::fill_n(w.vrow(kB + r), kWaveSize, garbage(f.b));
  }
  std::mt19937 rng(seed);
  // Logical matrices, block-major: A[b][i][k], B[b][k][j], C[b][i][j].
  std::vector<double> A(size_t(f.blocks) * f.m * f.k, 0.0), B(size_t(f.blocks) * f.k * f.n), C(size_t(f.blocks) * f.m * f.n);
  if (f.sparse) {
    // A slot holds one group of four k: two stored values (the first in the low half) and, in
    // the index table's slot for the same lane, the positions of both (the first in bits 1:0).
    std::fill_n(w.vrow(kIdx), kWaveSize, 0xFFFFFFFFu);  // other index sets: positions 3,3
    std::map<std::pair<int, int>, std::pair<int, int>> pos;  // (i, group) -> positions
    for (const LaneRow& row : ta.rows)
      for (size_t s = 0; s < row.cells.size(); ++s) {
        if (row.cells[s].empty()) continue;
        const Entry& e = row.cells[s][0];
        const int g = e.c / 4, p0 = int(rng() % 3), p1 = p0 + 1 + int(rng() % (3 - p0));
        pos[{e.r, g}] = {p0, p1};
        const Value v0 = draw(f.a, rng), v1 = draw(f.a, rng);
        const int half = ta.slots[s].width / 2;
        put(w, kA, ta.slots[s], row.lane, v0.bits | v1.bits << half);
        A[size_t(e.r) * f.k + 4 * g + p0] = v0.v;
        A[size_t(e.r) * f.k + 4 * g + p1] = v1.v;
      }
    for (const LaneRow& row : tk->rows)
      for (size_t s = 0; s < row.cells.size(); ++s) {
        if (row.cells[s].empty()) continue;
        const Entry& e = row.cells[s][0];
        const auto [p0, p1] = pos.at({e.r, e.c / 4});
        put(w, kIdx, tk->slots[s], row.lane, uint64_t(p0 | p1 << 2));
      }
  } else {
    for (const LaneRow& row : ta.rows)
      for (size_t s = 0; s < row.cells.size(); ++s) {
        if (row.cells[s].empty()) continue;
        const Value v = draw(f.a, rng);
        put(w, kA, ta.slots[s], row.lane, v.bits);
        for (const Entry& e : row.cells[s]) A[(size_t(e.block) * f.m + e.r) * f.k + e.c] = e.neg ? -v.v : v.v;
      }
  }
  for (const LaneRow& row : tb.rows)
    for (size_t s = 0; s < row.cells.size(); ++s) {
      if (row.cells[s].empty()) continue;
      const Value v = draw(f.b, rng);
      put(w, kB, tb.slots[s], row.lane, v.bits);
      for (const Entry& e : row.cells[s]) B[(size_t(e.block) * f.k + e.r) * f.n + e.c] = e.neg ? -v.v : v.v;
    }
  for (const LaneRow& row : tc.rows)
    for (size_t s = 0; s < row.cells.size(); ++s) {
      if (row.cells[s].empty()) continue;
      const Value v = draw(f.out == "i32" ? "i32" : "f64", rng);
      const double c = f.out == "i32" ? v.v * 1000 : v.v * 16;
      const uint64_t bits = f.out == "f64" ? std::bit_cast<uint64_t>(c)
                            : f.out == "i32" ? uint64_t(uint32_t(int32_t(c))) : std::bit_cast<uint32_t>(float(c));
      put(w, c_base, tc.slots[s], row.lane, bits);
      for (const Entry& e : row.cells[s]) C[(size_t(e.block) * f.m + e.r) * f.n + e.c] = e.neg ? -c : c;
    }

  ExecContext ctx;
  const isa::Inst& in = prog.insts[0];
  Handler h = handlers().fn[size_t(in.op)];
  if (!h) {
    ADD_FAILURE() << "no semantics";
    return 0;
  }
  h(w, in, ctx);

  int compared = 0;
  for (const LaneRow& row : td.rows)
    for (size_t s = 0; s < row.cells.size(); ++s)
      for (const Entry& e : row.cells[s]) {
        double want = C[(size_t(e.block) * f.m + e.r) * f.n + e.c];
        for (int k = 0; k < f.k; ++k)
          want += A[(size_t(e.block) * f.m + e.r) * f.k + k] * B[(size_t(e.block) * f.k + k) * f.n + e.c];
        const uint64_t got = get(w, d_base, td.slots[s], row.lane);
        const uint64_t bits = f.out == "f64" ? std::bit_cast<uint64_t>(want)
                              : f.out == "i32" ? uint64_t(uint32_t(int32_t(want))) : std::bit_cast<uint32_t>(float(want));
        if (got != bits) {
          ADD_FAILURE() << "D[" << e.r << "][" << e.c << "].B" << e.block << " (lane " << row.lane << ", slot " << s
                        << "): got 0x" << std::hex << got << ", want 0x" << bits << " (" << std::dec << want << ")";
          return -1;  // one mismatch says enough
        }
        ++compared;
      }
  return compared;
}

/// Every instruction the table covers.
std::vector<std::string> instructions() {
  std::vector<std::string> out;
  for (const auto& [k, t] : tables()) {
    const std::string inst = k.substr(0, k.find(' '));
    if (out.empty() || out.back() != inst) out.push_back(inst);
  }
  return out;
}

class Mfma : public ::testing::TestWithParam<std::string> {};

TEST_P(Mfma, MatchesAmdLayoutAndCpuGemmInVgprsAndAccVgprs) {
  const Form f = form(GetParam());
  const int per_d = f.blocks * f.m * f.n;
  EXPECT_EQ(check(f, 0, 0, 0, false, 1), per_d);
  EXPECT_EQ(check(f, 0, 0, 0, true, 2), per_d);
}

TEST_P(Mfma, EveryModifierChoiceMatchesAmdLayout) {
  const Form f = form(GetParam());
  const int per_d = f.blocks * f.m * f.n;
  int runs = 0;
  for (const auto& [k, t] : tables()) {
    int cbsz = 0, abid = 0, blgp = 0;
    char m = 0;
    char name[64];
    if (std::sscanf(k.c_str(), "%63s %c cbsz=%d abid=%d blgp=%d", name, &m, &cbsz, &abid, &blgp) != 5 || f.name != name)
      continue;
    if (cbsz == 0 && abid == 0 && blgp == 0) continue;
    if (f.out == "f64" && m != 'A') continue;  // f64's negation tables come as A, B and C together
    EXPECT_EQ(check(f, cbsz, abid, blgp, runs % 2 == 1, 100 + runs), per_d) << k;
    ++runs;
  }
  if (f.sparse) EXPECT_GE(runs, 1) << "compression-index sets";
  else if (f.blocks > 1 || f.out == "f64") EXPECT_GE(runs, 1) << "CBSZ/ABID or BLGP";
}

INSTANTIATE_TEST_SUITE_P(Cdna3, Mfma, ::testing::ValuesIn(instructions()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

TEST(MfmaTable, CoversEveryMatrixInstructionOfGfx942) {
  // The calculator's CDNA3 list is LLVM's gfx942 list: 46 instructions, each with semantics.
  const std::vector<std::string> insts = instructions();
  EXPECT_EQ(insts.size(), 46u);
  int ops = 0;
  for (size_t op = 0; op < size_t(isa::Op::COUNT); ++op) {
    const std::string name = mnemonic(isa::Op(op));
    if (name.rfind("v_mfma", 0) != 0 && name.rfind("v_smfmac", 0) != 0) continue;
    ++ops;
    EXPECT_TRUE(std::find(insts.begin(), insts.end(), name) != insts.end()) << name << " has no layout table";
    EXPECT_TRUE(has_semantics(isa::Op(op))) << name;
  }
  EXPECT_EQ(ops, 46);
}

TEST(MfmaNumerics, Xf32RoundsInputsToTenFractionBitsAndFp8NanPropagates) {
  // 1 + 2^-11 rounds to 1 in TF32 (ties to even); 1 + 3*2^-11 rounds up to 1 + 2^-9.
  const isa::Program p = test::assemble("v_mfma_f32_16x16x8_xf32 v[64:67], v[0:1], v[8:9], 0", isa::Target::Gfx942);
  Wave w;
  w.num_vgprs = 512;
  w.v.assign(size_t(512) * kWaveSize, 0);
  w.set_exec(~0ull);
  // Lane l < 16 holds A[l][0..1] in v0, v1; B[0..1][l] likewise in v8, v9. Only k = 0 is set.
  for (int l = 0; l < 16; ++l) {
    w.vrow(0)[l] = std::bit_cast<uint32_t>(l % 2 ? 1.0f + 0x1p-11f : 1.0f + 3 * 0x1p-11f);
    w.vrow(8)[l] = std::bit_cast<uint32_t>(1.0f);
  }
  ExecContext ctx;
  handlers().fn[size_t(p.insts[0].op)](w, p.insts[0], ctx);
  // D[i][j] sits in v(64 + i % 4), lane 16 * (i / 4) + j.
  EXPECT_EQ(w.vrow(64)[0], std::bit_cast<uint32_t>(1.0f + 0x1p-9f));  // i = 0: 1 + 3*2^-11
  EXPECT_EQ(w.vrow(65)[0], std::bit_cast<uint32_t>(1.0f));            // i = 1: 1 + 2^-11

  const isa::Program q = test::assemble("v_mfma_f32_16x16x32_fp8_fp8 v[64:67], v[0:1], v[8:9], 0", isa::Target::Gfx942);
  for (int l = 0; l < 64; ++l) w.vrow(0)[l] = w.vrow(1)[l] = w.vrow(8)[l] = w.vrow(9)[l] = 0x40404040u;  // all 1.0
  w.vrow(0)[0] = 0x40404080u;  // A[0][0] is the FNUZ NaN
  handlers().fn[size_t(q.insts[0].op)](w, q.insts[0], ctx);
  EXPECT_TRUE(std::isnan(std::bit_cast<float>(w.vrow(64)[0])));
  EXPECT_EQ(w.vrow(65)[0], std::bit_cast<uint32_t>(32.0f));  // A[1][*] . B[*][0] = 32 ones
}

}  // namespace
}  // namespace strobe::emu
