// The written-line digest a replay is verified with (capture/checkpoint.h).
#include "capture/checkpoint.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "emu/memory.h"

namespace strobe::capture {
namespace {

TEST(WrittenDigest, CoversTheLinesTheLaunchWroteAndNothingElseOfTheirPages) {
  // A HIP program's heap page can hold a buffer HIP pinned for a copy beside data the program's
  // other threads write while the launch runs: only the launch's lines may decide.
  emu::GlobalMemory mem;
  const uint64_t a = mem.allocate(2 * kPageBytes);
  const std::vector<PageRef> pages = {{a, kZeroPage, true}, {a + kPageBytes, kZeroPage, false}};
  const std::vector<uint64_t> written = written_granules({HistoryEntry{a / 64 + 1, 0, 0, kWrite, 0},
                                                          HistoryEntry{a / 64 + 3, 0, 0, kRead, 0},
                                                          HistoryEntry{a / 64 + 1, 1, 0, kWrite, 0}});
  ASSERT_EQ(written, (std::vector<uint64_t>{a / 64 + 1}));
  const uint64_t before = written_digest(mem, pages, written, 64);
  const uint32_t v = 7;
  mem.write(a + 200, &v, 4);  // line 3: read, not written
  mem.write(a + kPageBytes + 64, &v, 4);  // a page the launch did not write
  EXPECT_EQ(written_digest(mem, pages, written, 64), before);
  mem.write(a + 64 + 8, &v, 4);  // line 1, which it wrote
  EXPECT_NE(written_digest(mem, pages, written, 64), before);
}

}  // namespace
}  // namespace strobe::capture
