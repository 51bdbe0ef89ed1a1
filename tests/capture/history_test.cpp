// Launch histories: the distinct lines of a launch in last-access order, the same whether the
// accesses were folded by one builder or by several merged in order, and their encoding.
#include "capture/history.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace strobe::capture {
namespace {

using timing::ReqKind;
using timing::WarmAccess;

WarmAccess acc(uint64_t line, uint32_t group, ReqKind kind = ReqKind::Read, WarmAccess::Path p = WarmAccess::L1v,
               uint32_t step = 0) {
  return WarmAccess{line, group, p, kind, step};
}

TEST(CaptureHistory, KeepsEachLineAndGroupAtItsLastAccessWithEverythingTheLaunchDidToTheLine) {
  HistoryBuilder b;
  b.add(acc(10, 0, ReqKind::Read, WarmAccess::L1v, 5));
  b.add(acc(11, 0, ReqKind::Read, WarmAccess::L1v, 6));
  b.add(acc(10, 1, ReqKind::Write, WarmAccess::L1v, 9));
  b.add(acc(12, 2, ReqKind::Atomic));
  b.add(acc(11, 0, ReqKind::Read, WarmAccess::L1v, 8));     // group 0 again: its use moves to the end
  b.add(acc(11, 3, ReqKind::Read, WarmAccess::Scalar, 2));  // another path: another line
  const std::vector<HistoryEntry> e = b.entries();
  ASSERT_EQ(e.size(), 5u);
  EXPECT_EQ(b.size(), 4u);
  EXPECT_EQ(e[0], (HistoryEntry{10, 0, WarmAccess::L1v, kRead | kWrite, 5}));
  EXPECT_EQ(e[1], (HistoryEntry{10, 1, WarmAccess::L1v, kRead | kWrite, 9}));
  EXPECT_EQ(e[2], (HistoryEntry{12, 2, WarmAccess::L1v, kAtomic, 0}));
  EXPECT_EQ(e[3], (HistoryEntry{11, 0, WarmAccess::L1v, kRead, 8}));
  EXPECT_EQ(e[4], (HistoryEntry{11, 3, WarmAccess::Scalar, kRead, 2}));
}

TEST(CaptureHistory, AVectorLineKeepsItsLastGroupsAndAnInstructionOrScalarLineItsLastOne) {
  HistoryBuilder b;
  const uint32_t groups = HistoryBuilder::kGroupsPerLine + 2;
  for (uint32_t g = 0; g < groups; ++g) {
    b.add(acc(7, g));
    b.add(acc(8, g, ReqKind::Read, WarmAccess::L1i));
    b.add(acc(9, g, ReqKind::Read, WarmAccess::Scalar));
    if (g == 5) b.add(acc(7, 1));  // group 1 again: it becomes one of the last
  }
  std::vector<uint32_t> vector_groups, expected;
  for (const HistoryEntry& e : b.entries()) {
    if (e.path == WarmAccess::L1v) vector_groups.push_back(e.group);
    else EXPECT_EQ(e.group, groups - 1) << "path " << int(e.path);
  }
  // The last kGroupsPerLine distinct groups in the order of their last access: 3, 4, 5, then 1
  // (touched again after 5), then 6 onwards; 0 and 2 made room, the oldest first.
  expected = {3, 4, 5, 1};
  for (uint32_t g = 6; g < groups; ++g) expected.push_back(g);
  EXPECT_EQ(vector_groups, expected);
  EXPECT_EQ(b.entries().size(), HistoryBuilder::kGroupsPerLine + 2);
}

TEST(CaptureHistory, BuildersMergedInOrderEqualOneBuilderFedEveryAccess) {
  // Enough lines to make the tables grow several times.
  std::vector<WarmAccess> all;
  for (uint32_t g = 0; g < 64; ++g)
    for (uint64_t i = 0; i < 300; ++i)
      all.push_back(acc((i * 7919 + g * 31) % 5000, g, i % 5 == 0 ? ReqKind::Write : ReqKind::Read, WarmAccess::L1v,
                        uint32_t(i)));
  HistoryBuilder one, merged;
  for (const auto& a : all) one.add(a);
  for (size_t part = 0; part < 4; ++part) {
    HistoryBuilder b;
    for (size_t i = part * all.size() / 4; i < (part + 1) * all.size() / 4; ++i) b.add(all[i]);
    merged.append(b);
  }
  EXPECT_EQ(one.size(), merged.size());
  EXPECT_EQ(one.entries(), merged.entries());
}

TEST(CaptureHistory, EncodesAndDecodesExactly) {
  std::vector<HistoryEntry> e = {{1000, 5, 0, kRead, 7}, {3, 0, 2, kRead, 0},
                                 {uint64_t(1) << 50, 900000, 1, kWrite, 123456}, {999, 900000, 0, kAtomic | kRead, 1}};
  const std::string bytes = encode_history(e);
  EXPECT_EQ(decode_history(bytes, e.size(), "test"), e);
}

TEST(CaptureHistory, MalformedBytesAreAnInputErrorNamingTheirOwner) {
  const std::string bytes = encode_history({{1, 1, 0, kRead}, {2, 1, 0, kRead}});
  EXPECT_THROW(decode_history(bytes, 3, "launch 7"), InputError);                       // wrong count
  EXPECT_THROW(decode_history(bytes.substr(0, bytes.size() - 1), 2, "launch 7"), InputError);  // truncated
  std::string bad = bytes;
  bad[bad.size() - 2] = char(0x01);  // the last entry's path and flags: an entry with no access
  try {
    decode_history(bad, 2, "launch 7");
    FAIL();
  } catch (const InputError& err) {
    EXPECT_NE(std::string(err.what()).find("launch 7"), std::string::npos) << err.what();
  }
}

}  // namespace
}  // namespace strobe::capture
