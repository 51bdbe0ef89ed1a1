// Launch histories: the distinct lines of a launch in last-access order, the same whether the
// accesses were folded by one builder in order or by several apart and joined, and their encoding.
#include "capture/history.h"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "common/error.h"

namespace strobe::capture {
namespace {

using timing::ReqKind;
using timing::WarmAccess;

/// A builder fed in order, each access numbered after the one before.
struct InOrder : HistoryBuilder {
  uint64_t next = 0;
  void add(const WarmAccess& a) { HistoryBuilder::add(a, next++); }
};

WarmAccess acc(uint64_t line, uint32_t group, ReqKind kind = ReqKind::Read, WarmAccess::Path p = WarmAccess::L1v,
               uint32_t step = 0) {
  return WarmAccess{line, group, p, kind, step};
}

TEST(CaptureHistory, KeepsEachLineAndGroupAtItsLastAccessWithEverythingTheLaunchDidToTheLine) {
  InOrder b;
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

TEST(CaptureHistory, EveryPathsLineKeepsItsLastGroups) {
  // An instruction or scalar line keeps its groups as a vector line does: a replay puts it in
  // those groups' shader arrays (code a branch took in few groups is not everywhere).
  InOrder b;
  const uint32_t groups = HistoryBuilder::kGroupsPerLine + 2;
  for (uint32_t g = 0; g < groups; ++g) {
    b.add(acc(7, g));
    b.add(acc(8, g, ReqKind::Read, WarmAccess::L1i));
    b.add(acc(9, g, ReqKind::Read, WarmAccess::Scalar));
    if (g == 5) b.add(acc(7, 1)), b.add(acc(8, 1, ReqKind::Read, WarmAccess::L1i));  // group 1 again
  }
  b.add(acc(10, 4, ReqKind::Read, WarmAccess::L1i));  // a line one group took
  std::map<int, std::vector<uint32_t>> kept;
  for (const HistoryEntry& e : b.entries()) kept[e.path].push_back(e.group);
  // The last kGroupsPerLine distinct groups in the order of their last access: 3, 4, 5, then 1
  // (touched again after 5), then 6 onwards; 0 and 2 made room, the oldest first.
  std::vector<uint32_t> again = {3, 4, 5, 1}, plain;
  for (uint32_t g = 6; g < groups; ++g) again.push_back(g);
  for (uint32_t g = 2; g < groups; ++g) plain.push_back(g);
  EXPECT_EQ(kept[WarmAccess::L1v], again);
  std::vector<uint32_t> code = again;
  code.push_back(4);
  EXPECT_EQ(kept[WarmAccess::L1i], code);
  EXPECT_EQ(kept[WarmAccess::Scalar], plain);
}

TEST(CaptureHistory, ALineKeepsTheLastGroupsWhateverOrderItsNumberedAccessesArriveIn) {
  // Builders fed apart take runs of groups in any order (one builder per host thread): a line
  // must keep the groups whose accesses are numbered last, each at its last access, as in order.
  std::vector<std::pair<WarmAccess, uint64_t>> all;
  for (uint32_t i = 0; i < 4000; ++i)
    all.push_back({acc(i * 7919 % 23, i % 40, i % 9 == 0 ? ReqKind::Write : ReqKind::Read,
                       i % 3 ? WarmAccess::L1v : WarmAccess::Scalar, i),
                   uint64_t(i) * 3 + 1});
  HistoryBuilder in_order;
  for (const auto& [a, seq] : all) in_order.add(a, seq);
  for (uint64_t seed : {1u, 2u, 3u}) {
    std::vector<std::pair<WarmAccess, uint64_t>> shuffled = all;
    uint64_t x = seed;
    for (size_t i = shuffled.size(); i > 1; --i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      std::swap(shuffled[i - 1], shuffled[(x >> 33) % i]);
    }
    HistoryBuilder b;
    for (const auto& [a, seq] : shuffled) b.add(a, seq);
    EXPECT_EQ(b.entries(), in_order.entries()) << "shuffle " << seed;
  }
  // Numbered by the builder itself, in order, the same.
  InOrder self;
  for (const auto& [a, seq] : all) self.add(a);
  EXPECT_EQ(self.entries(), in_order.entries());
}

/// The history's rule written plainly, with none of the builder's tables: per line and path,
/// each group's last access; a line keeps the kGroupsPerLine groups whose last accesses came
/// last, whatever its path; every entry carries what any access did to the line;
/// the entries in the order of those accesses.
std::vector<HistoryEntry> plain_history(const std::vector<std::pair<WarmAccess, uint64_t>>& accesses) {
  struct Last {
    uint64_t seq;
    uint32_t step;
  };
  std::map<std::pair<uint64_t, uint8_t>, std::map<uint32_t, Last>> uses;
  std::map<std::pair<uint64_t, uint8_t>, uint8_t> flags;
  for (const auto& [a, seq] : accesses) {
    const auto line = std::make_pair(a.line, uint8_t(a.path));
    auto [it, fresh] = uses[line].try_emplace(a.unit, Last{seq, a.step});
    if (!fresh && seq > it->second.seq) it->second = Last{seq, a.step};
    flags[line] |= a.kind == ReqKind::Atomic ? kAtomic : a.kind == ReqKind::Write ? kWrite : kRead;
  }
  std::vector<std::pair<uint64_t, HistoryEntry>> kept;
  for (const auto& [line, groups] : uses) {
    std::vector<std::pair<uint64_t, HistoryEntry>> v;
    for (const auto& [group, last] : groups)
      v.push_back({last.seq, HistoryEntry{line.first, group, line.second, flags[line], last.step}});
    std::sort(v.begin(), v.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    v.resize(std::min<size_t>(v.size(), HistoryBuilder::kGroupsPerLine));
    kept.insert(kept.end(), v.begin(), v.end());
  }
  std::sort(kept.begin(), kept.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<HistoryEntry> out;
  for (const auto& k : kept) out.push_back(k.second);
  return out;
}

TEST(CaptureHistory, FollowsItsRuleWrittenPlainlyAndTakesAnInstructionsAccessesTogetherAsOneByOne) {
  // Lines shared by up to 40 groups, groups that come back, three paths, accesses in order but
  // numbered with gaps; fed one at a time, and in batches of every size a recorder uses (an
  // instruction's code line and up to two lines per lane, and more than a batch holds).
  std::vector<std::pair<WarmAccess, uint64_t>> all;
  uint64_t x = 99;
  auto next = [&x] { return x = x * 6364136223846793005ull + 1442695040888963407ull, x >> 33; };
  for (uint32_t i = 0; i < 30000; ++i) {
    const uint64_t r = next();
    const auto path = WarmAccess::Path(r % 9 == 0 ? WarmAccess::L1i : r % 7 == 0 ? WarmAccess::Scalar : WarmAccess::L1v);
    all.push_back({acc((r >> 8) % 300 * ((r & 16) ? 1 : 4099), uint32_t(i / 50 % 40 + (r >> 30) % 2),
                       r % 6 == 0 ? ReqKind::Write : r % 17 == 0 ? ReqKind::Atomic : ReqKind::Read, path, i % 777),
                   uint64_t(i) * 2 + 5});
  }
  const std::vector<HistoryEntry> expected = plain_history(all);
  HistoryBuilder one;
  for (const auto& [a, seq] : all) one.add(a, seq);
  EXPECT_EQ(one.entries(), expected);
  for (size_t batch : {1, 3, 4, 65, 130, 400}) {
    // add_all numbers a batch's accesses consecutively: the gaps fall between batches only.
    std::vector<std::pair<WarmAccess, uint64_t>> numbered = all;
    HistoryBuilder b;
    for (size_t i = 0; i < all.size(); i += batch) {
      std::vector<WarmAccess> run;
      for (size_t k = i; k < std::min(all.size(), i + batch); ++k) {
        run.push_back(all[k].first);
        numbered[k].second = all[i].second + (k - i);
      }
      b.add_all(run, all[i].second);
    }
    EXPECT_EQ(b.entries(), plain_history(numbered)) << "batches of " << batch;
  }
}

TEST(CaptureHistory, PartsJoinedByPageOnThreadsEqualOneBuilderFedEveryAccess) {
  // Lines over many pages and paths, shared by more groups than a line keeps, and groups that
  // come back in later parts (as a frame's units do), so that a join that lost a use's order or
  // a part's offset, or joined a line's parts out of order, keeps other uses.
  std::vector<WarmAccess> all;
  uint64_t x = 12345;
  auto next = [&x] { return x = x * 6364136223846793005ull + 1442695040888963407ull, x >> 33; };
  for (uint32_t i = 0; i < 60000; ++i) {
    const uint64_t r = next();
    const auto path = WarmAccess::Path(r % 7 == 0 ? WarmAccess::L1i : r % 11 == 0 ? WarmAccess::Scalar : WarmAccess::L1v);
    all.push_back(acc((r >> 4) % 40000 * ((r & 8) ? 1 : 37), uint32_t(i / 700 + (r >> 20) % 3 * 5), 
                      r % 5 == 0 ? ReqKind::Write : r % 13 == 0 ? ReqKind::Atomic : ReqKind::Read, path, i % 1000));
  }
  InOrder one;
  for (const auto& a : all) one.add(a);
  for (size_t count : {1, 2, 7, 32}) {
    // Runs of accesses numbered in order, dealt to builders as threads take them: run k to
    // builder k % 3, so a builder holds runs that others' runs separate.
    std::vector<HistoryBuilder> builders(std::min<size_t>(count, 3));
    for (size_t run = 0; run < count; ++run)
      for (size_t i = run * all.size() / count; i < (run + 1) * all.size() / count; ++i)
        builders[run % builders.size()].add(all[i], i);
    // A thread that took no run leaves an empty builder, which joins nothing.
    HistoryBuilder idle;
    std::vector<const HistoryBuilder*> parts = {&idle};
    for (const HistoryBuilder& b : builders) parts.push_back(&b);
    for (int threads : {1, 3}) {
      size_t lines = 0;
      std::vector<HistoryEntry> merged;
      tbb::task_arena(threads).execute([&] { merged = HistoryBuilder::merged_entries(parts, &lines); });
      EXPECT_EQ(lines, one.size()) << count << " runs";
      EXPECT_EQ(merged, one.entries()) << count << " runs on " << threads << " threads";
    }
  }
  EXPECT_TRUE(HistoryBuilder::merged_entries({}).empty());
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
