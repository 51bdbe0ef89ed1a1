// The tiler's bin lists as a part of their own: lists grow in chunks taken from one heap in the
// order the tiler needs them, and a read asks for exactly the lines a list fills.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "timing/engine/events.h"
#include "timing/gfx/bin_lists.h"
#include "timing/gfx/tbr_addresses.h"

namespace strobe::timing {
namespace {

/// An L2 bank that records the lines asked of it.
struct Bank : Component {
  explicit Bank(RequestPool& p) : Component("l2"), pool(p) {}
  RequestPool& pool;
  std::vector<std::pair<uint64_t, ReqKind>> lines;
  void handle(Cycle, uint32_t kind, uint32_t arg) override {
    ASSERT_EQ(kind, kMemRequest);
    lines.emplace_back(pool[arg].line, pool[arg].kind);
  }
};

struct Requester : Component {
  Requester() : Component("tiler") {}
  void handle(Cycle, uint32_t, uint32_t) override {}
};

TEST(BinLists, ListsGrowInHeapChunksInTheOrderTheTilerFillsThem) {
  Engine engine;
  RequestPool pool;
  Bank bank(pool);
  Requester tiler;
  LinePort port(engine, pool, {&bank}, tiler, 64, 10);
  BinLists bins(port);
  bins.reset(4);
  // Tile 2 first, then tile 0, then tile 2 past its first chunk: chunks 0, 1, 2 of the heap.
  EXPECT_EQ(bins.append(2, 128, 7, Cycle{0}), 2u);
  EXPECT_EQ(bins.append(0, 64, 7, Cycle{0}), 1u);
  EXPECT_EQ(bins.append(2, tbr::kBinChunkBytes, 7, Cycle{0}), 8u) << "384 bytes finish chunk 0, 128 open chunk 2";
  EXPECT_EQ(bins.bytes(2), 128 + tbr::kBinChunkBytes);
  engine.run(Cycle{100});
  std::set<uint64_t> written;
  for (const auto& [line, kind] : bank.lines) {
    EXPECT_EQ(kind, ReqKind::Write);
    written.insert(line);
  }
  const uint64_t chunk_lines = tbr::kBinChunkBytes / 64, base = tbr::kBinBase / 64;
  EXPECT_TRUE(written.count(base)) << "tile 2's first chunk is the heap's first";
  EXPECT_TRUE(written.count(base + chunk_lines)) << "tile 0's chunk is the second";
  EXPECT_TRUE(written.count(base + 2 * chunk_lines)) << "tile 2's second chunk is the third";
  // Reading tile 2 back asks for its 10 filled lines, across both chunks, and nothing of tile 0's.
  bank.lines.clear();
  EXPECT_EQ(bins.read(2, 9, Cycle{100}), 10u);
  engine.run(Cycle{200});
  ASSERT_EQ(bank.lines.size(), 10u);
  for (const auto& [line, kind] : bank.lines) {
    EXPECT_EQ(kind, ReqKind::Read);
    EXPECT_FALSE(line >= base + chunk_lines && line < base + 2 * chunk_lines) << "a line of tile 0's chunk";
  }
  bins.reset(4);
  EXPECT_EQ(bins.bytes(2), 0u);
}

}  // namespace
}  // namespace strobe::timing
