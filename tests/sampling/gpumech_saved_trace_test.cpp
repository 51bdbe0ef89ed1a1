// GPUMech's saved trace (the "gpumech" blob of `strobe profile --gpumech`): it round-trips a
// launch's waves exactly, and a blob that is truncated, of another version, or inconsistent with
// itself or with the program it is replayed on is refused with an error naming where it came from.
#include "sampling/gpumech/saved_trace.h"

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"

namespace strobe::sampling::gpumech {
namespace {

/// Two waves: a load, its use and a store in the first; a lone ALU op in the second.
SavedTrace sample() {
  SavedTrace s;
  s.trace.line_bytes = 64;
  s.trace.workgroups = 1;
  s.trace.waves_per_group = 2;
  CollectedWave a;
  a.pc = {0, 1, 2};
  a.nproducers = {0, 1, 1};
  a.producers = {0, 1};
  const uint64_t load[] = {100, 101}, store[] = {7};
  a.lines.append(load);
  a.lines.append(store);
  CollectedWave b;
  b.wave = 1;
  b.pc = {1};
  b.nproducers = {0};
  s.trace.waves = {a, b};
  s.trace.instructions = 4;
  s.representative = 1;
  return s;
}

/// Load, ALU, store: the program the sample runs.
std::vector<StaticInst> program() {
  std::vector<StaticInst> p(3);
  p[0].cls = InstClass::VectorMemory;
  p[0].access = MemAccess::Read;
  p[2].cls = InstClass::VectorMemory;
  p[2].access = MemAccess::Write;
  return p;
}

/// The message decode_saved_trace() throws for `bytes`, or "" when it does not throw.
std::string decode_error(const std::string& bytes) {
  try {
    decode_saved_trace(bytes, "profile p.prof launch 3");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(GpumechSavedTrace, RoundTripsEveryWaveExactly) {
  const SavedTrace s = sample();
  const SavedTrace t = decode_saved_trace(encode_saved_trace(s), "here");
  EXPECT_EQ(t.representative, 1u);
  EXPECT_EQ(t.trace.instructions, 4u);
  EXPECT_EQ(t.trace.workgroups, 1u);
  EXPECT_EQ(t.trace.waves_per_group, 2u);
  ASSERT_EQ(t.trace.waves.size(), 2u);
  for (size_t w = 0; w < 2; ++w) {
    EXPECT_EQ(t.trace.waves[w].pc, s.trace.waves[w].pc);
    EXPECT_EQ(t.trace.waves[w].nproducers, s.trace.waves[w].nproducers);
    EXPECT_EQ(t.trace.waves[w].producers, s.trace.waves[w].producers);
    EXPECT_EQ(t.trace.waves[w].wave, s.trace.waves[w].wave);
  }
  LineStream::Reader r(t.trace.waves[0].lines);
  std::vector<uint64_t> lines;
  ASSERT_TRUE(r.next(lines));
  EXPECT_EQ(lines, (std::vector<uint64_t>{100, 101}));
  ASSERT_TRUE(r.next(lines));
  EXPECT_EQ(lines, (std::vector<uint64_t>{7}));
  EXPECT_FALSE(r.next(lines));
  EXPECT_NO_THROW(check_trace_program(t.trace, program(), "here"));
}

TEST(GpumechSavedTrace, ATruncatedOrForeignBlobIsRefusedNamingWhereItCameFrom) {
  const std::string good = encode_saved_trace(sample());
  const std::string truncated = decode_error(good.substr(0, good.size() / 2));
  EXPECT_NE(truncated.find("profile p.prof launch 3: GPUMech trace: truncated"), std::string::npos) << truncated;
  EXPECT_NE(decode_error("\xc1").find("corrupt"), std::string::npos);
  EXPECT_NE(decode_error(good + "x").find("bytes after the document"), std::string::npos);
}

TEST(GpumechSavedTrace, InconsistentTracesAreCorrupt) {
  SavedTrace later = sample();
  later.trace.waves[0].producers = {0, 2};  // instruction 2 named as its own producer
  EXPECT_NE(decode_error(encode_saved_trace(later)).find("not earlier"), std::string::npos);

  SavedTrace counts = sample();
  counts.trace.waves[0].nproducers = {0, 1};
  EXPECT_NE(decode_error(encode_saved_trace(counts)).find("producer counts for 3 instructions"), std::string::npos);

  SavedTrace header = sample();
  header.trace.instructions = 5;
  EXPECT_NE(decode_error(encode_saved_trace(header)).find("5 in its header"), std::string::npos);

  SavedTrace rep = sample();
  rep.representative = 2;
  EXPECT_NE(decode_error(encode_saved_trace(rep)).find("representative wave 2 of 2"), std::string::npos);

  SavedTrace lines = sample();
  lines.trace.waves[0].lines = LineStream::from_raw({0x02, 0x80});  // two lines, then a cut varint
  EXPECT_NE(decode_error(encode_saved_trace(lines)).find("lines do not parse"), std::string::npos);

  // The cache-only simulation indexes per-group tables with each wave's group: a header of no
  // groups over waves of group 0 overran one and corrupted the heap (found by FileFuzz).
  SavedTrace none = sample();
  none.trace.workgroups = 0;
  EXPECT_NE(decode_error(encode_saved_trace(none)).find("wave 0 is of work-group 0 after work-group none of 0"),
            std::string::npos)
      << decode_error(encode_saved_trace(none));
  SavedTrace gap = sample();
  gap.trace.workgroups = 3;
  gap.trace.waves[1].workgroup = 2;  // group 1 has no waves
  EXPECT_NE(decode_error(encode_saved_trace(gap)).find("wave 1 is of work-group 2 after work-group 0 of 3"),
            std::string::npos);
  SavedTrace uncovered = sample();
  uncovered.trace.workgroups = 2;  // group 1 has no waves
  EXPECT_NE(decode_error(encode_saved_trace(uncovered)).find("its waves cover 1 of its 2 work-groups"), std::string::npos);
  SavedTrace two = sample();
  two.trace.workgroups = 2;
  two.trace.waves[1].workgroup = 1;
  EXPECT_EQ(decode_error(encode_saved_trace(two)), "");
}

TEST(GpumechSavedTrace, ATraceOfAnotherProgramIsRefused) {
  const SavedTrace s = sample();
  std::vector<StaticInst> shorter = program();
  shorter.pop_back();  // PC 2 is past its end
  EXPECT_THROW(check_trace_program(s.trace, shorter, "here"), InputError);
  std::vector<StaticInst> no_store = program();
  no_store[2].cls = InstClass::Compute;  // one memory instruction fewer than the lines recorded
  try {
    check_trace_program(s.trace, no_store, "here");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("lines for 2 memory instructions, the program runs 1"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace strobe::sampling::gpumech
