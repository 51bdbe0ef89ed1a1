#include <gtest/gtest.h>

#include <map>

#include "timing/mem/cache.h"

namespace strobe::timing {
namespace {

/// A lower level that answers every request after a fixed latency and logs it.
struct Memory : Component {
  Memory(Engine& e, RequestPool& p, uint64_t latency) : Component("mem"), e(e), pool(p), latency(latency) {}
  void handle(Cycle now, uint32_t, uint32_t r) override {
    log.push_back({pool[r].line, pool[r].kind});
    pool.respond(e, now + latency, r);
  }
  Engine& e;
  RequestPool& pool;
  uint64_t latency;
  std::vector<std::pair<uint64_t, ReqKind>> log;
};

/// The requester: records when each tagged request was answered.
struct Client : Component {
  Client(RequestPool& p) : Component("client"), pool(p) {}
  void handle(Cycle now, uint32_t kind, uint32_t tag) override {
    EXPECT_TRUE(is_response(kind));
    done[tag] = now.value();
  }
  RequestPool& pool;
  std::map<uint32_t, uint64_t> done;
};

struct CacheFixture : ::testing::Test {
  Engine e;
  RequestPool pool;
  StatsRegistry stats;
  Memory mem{e, pool, 100};
  Client client{pool};

  std::unique_ptr<Cache> make(bool write_back, uint32_t mshrs = 4, uint32_t sets = 2, uint32_t ways = 2,
                              const char* replacement = "lru") {
    CacheParams p;
    p.geometry.sets = sets;
    p.geometry.ways = ways;
    p.geometry.replacement = replacement;
    p.hit_latency = 10;
    p.fill_latency = 10;
    p.mshrs = mshrs;
    p.write_back = write_back;
    p.atomics_here = write_back;
    auto c = std::make_unique<Cache>("c", p, e, pool, stats);
    c->set_lower({&mem});
    return c;
  }
  void send(Cache& c, uint64_t at, uint64_t line, ReqKind k, uint32_t tag) {
    uint32_t r = pool.alloc();
    pool[r].line = line;
    pool[r].kind = k;
    pool[r].reply_to = &client;
    pool[r].tag = tag;
    e.schedule(Cycle(at), &c, kMemRequest, r);
  }
};

TEST_F(CacheFixture, MissThenHitTakeTheirLatencies) {
  auto c = make(false);
  send(*c, 0, 7, ReqKind::Read, 1);
  e.run();
  EXPECT_EQ(client.done[1], 110u);  // miss: 100 below + 10 fill
  send(*c, 200, 7, ReqKind::Read, 2);
  e.run();
  EXPECT_EQ(client.done[2], 210u);  // hit
  EXPECT_EQ(c->counters().read_hits, 1u);
  EXPECT_EQ(c->counters().read_misses, 1u);
}

TEST_F(CacheFixture, LeastRecentlyUsedWayIsEvicted) {
  auto c = make(false);
  // Lines 0, 2, 4 map to set 0 of a 2-set, 2-way cache.
  send(*c, 0, 0, ReqKind::Read, 1);
  send(*c, 1, 2, ReqKind::Read, 2);
  e.run();
  send(*c, 300, 0, ReqKind::Read, 3);  // touch 0: line 2 becomes LRU
  send(*c, 301, 4, ReqKind::Read, 4);  // evicts 2
  e.run();
  EXPECT_TRUE(c->contains(0));
  EXPECT_TRUE(c->contains(4));
  EXPECT_FALSE(c->contains(2));
  EXPECT_EQ(c->counters().evictions, 1u);
}

TEST_F(CacheFixture, TheConfiguredReplacementPolicyChoosesTheVictim) {
  for (const char* policy : {"lru", "plru"}) {
    auto c = make(false, 4, 1, 4, policy);
    for (uint64_t line = 0; line < 4; ++line) send(*c, line * 200, line, ReqKind::Read, uint32_t(line));
    send(*c, 1000, 0, ReqKind::Read, 10);  // reuse line 0
    send(*c, 1100, 4, ReqKind::Read, 11);  // evicts line 1 (LRU) or line 2 (tree-PLRU)
    e.run();
    EXPECT_TRUE(c->contains(0)) << policy;
    EXPECT_EQ(c->contains(1), std::string(policy) != "lru") << policy;
    EXPECT_EQ(c->contains(2), std::string(policy) != "plru") << policy;
  }
}

TEST_F(CacheFixture, MissesToOneLineMergeInOneMshr) {
  auto c = make(false);
  send(*c, 0, 9, ReqKind::Read, 1);
  send(*c, 5, 9, ReqKind::Read, 2);
  send(*c, 6, 9, ReqKind::Read, 3);
  e.run();
  EXPECT_EQ(mem.log.size(), 1u);
  EXPECT_EQ(c->counters().mshr_merges, 2u);
  EXPECT_EQ(client.done[1], 110u);
  EXPECT_EQ(client.done[3], 110u + 2);  // responses serialise on the data port
}

TEST_F(CacheFixture, FullMshrsApplyBackPressure) {
  auto c = make(false, 1);
  send(*c, 0, 1, ReqKind::Read, 1);
  send(*c, 1, 3, ReqKind::Read, 2);  // waits for the only MSHR
  e.run();
  EXPECT_EQ(c->counters().mshr_full, 1u);
  EXPECT_EQ(client.done[1], 110u);
  EXPECT_EQ(client.done[2], 100u + 100 + 10);  // issued when the first fill freed the MSHR
}

TEST_F(CacheFixture, WriteBackCacheWritesDirtyVictimsBelow) {
  auto c = make(true);
  send(*c, 0, 0, ReqKind::Write, 1);  // write-allocate, no fetch
  e.run();
  EXPECT_TRUE(c->is_dirty(0));
  EXPECT_TRUE(mem.log.empty());
  EXPECT_EQ(client.done[1], 10u);
  send(*c, 100, 2, ReqKind::Read, 2);
  send(*c, 101, 4, ReqKind::Read, 3);  // set 0 now holds 2 and 4: dirty line 0 written back
  e.run();
  ASSERT_EQ(mem.log.size(), 3u);
  EXPECT_EQ(mem.log[2], std::make_pair(uint64_t(0), ReqKind::Write));
  EXPECT_EQ(c->counters().writebacks, 1u);
}

TEST_F(CacheFixture, WriteThroughCacheForwardsWritesWithoutAllocating) {
  auto c = make(false);
  send(*c, 0, 5, ReqKind::Write, 1);
  e.run();
  EXPECT_FALSE(c->contains(5));
  ASSERT_EQ(mem.log.size(), 1u);
  EXPECT_EQ(mem.log[0].second, ReqKind::Write);
  EXPECT_EQ(client.done[1], 100u);  // acknowledged by the level below
}

}  // namespace
}  // namespace strobe::timing
