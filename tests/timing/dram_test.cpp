#include <gtest/gtest.h>

#include <map>

#include "timing/mem/dram.h"

namespace strobe::timing {
namespace {

/// The requester: records when each tagged request was answered.
struct Client : Component {
  Client() : Component("client") {}
  void handle(Cycle now, uint32_t kind, uint32_t tag) override {
    EXPECT_TRUE(is_response(kind));
    done[tag] = now.value();
  }
  std::map<uint32_t, uint64_t> done;
};

/// One channel of two banks of 1 KiB rows, 256-byte interleave, tCL 10, tRCD 20, tRP 30, a
/// burst of 4 cycles and no controller latency: the latencies the tests add up by hand.
DramParams two_bank_params() {
  DramParams p;
  p.channels = 1;
  p.banks = 2;
  p.row_bytes = 1024;
  p.interleave_bytes = 256;
  p.tcl = 10, p.trcd = 20, p.trp = 30, p.tccd = 2;
  p.controller_latency = 0;
  p.burst_fp = 4 << 8;
  return p;
}

TEST(Dram, RowHitIsFasterThanRowMissAndConflict) {
  Engine e;
  RequestPool pool;
  StatsRegistry stats;
  const DramParams p = two_bank_params();
  Dram d("dram", p, e, pool, stats);
  Client client;
  auto send = [&](uint64_t at, uint64_t line, uint32_t tag) {
    uint32_t r = pool.alloc();
    pool[r].line = line;
    pool[r].reply_to = &client;
    pool[r].tag = tag;
    e.schedule(Cycle(at), &d, kMemRequest, r);
  };
  // Lines of 64 B: lines 0..15 are row 0 of bank 0; lines 32..47 row 1 of bank 0.
  ASSERT_EQ(d.locate(0).row, d.locate(15).row);
  ASSERT_EQ(d.locate(0).bank, d.locate(32).bank);
  ASSERT_NE(d.locate(0).row, d.locate(32).row);
  send(0, 0, 1);     // empty bank: tRCD + tCL + burst
  e.run();
  send(100, 1, 2);   // same row: tCL + burst
  e.run();
  send(200, 32, 3);  // other row, same bank: tRP + tRCD + tCL + burst
  e.run();
  EXPECT_EQ(client.done[1], 0u + 20 + 10 + 4);
  EXPECT_EQ(client.done[2], 100u + 10 + 4);
  EXPECT_EQ(client.done[3], 200u + 30 + 20 + 10 + 4);
  EXPECT_EQ(d.counters().row_hits, 1u);
  EXPECT_EQ(d.counters().row_misses, 1u);
  EXPECT_EQ(d.counters().row_conflicts, 1u);
}

TEST(Dram, WarmingOpensALinesRowWithoutTimeOrCounters) {
  Engine e;
  RequestPool pool;
  StatsRegistry stats;
  const DramParams p = two_bank_params();
  Dram d("dram", p, e, pool, stats);
  Client client;
  d.warm(32);  // row 1 of bank 0 open, as if a line of it had been read
  EXPECT_EQ(d.counters().reads + d.counters().row_hits + d.counters().row_misses, 0u);
  EXPECT_TRUE(e.empty());
  auto send = [&](uint64_t at, uint64_t line, uint32_t tag) {
    uint32_t r = pool.alloc();
    pool[r].line = line;
    pool[r].reply_to = &client;
    pool[r].tag = tag;
    e.schedule(Cycle(at), &d, kMemRequest, r);
  };
  send(0, 33, 1);  // the warmed row: a hit
  e.run();
  send(100, 0, 2);  // another row of the same bank: a conflict
  e.run();
  EXPECT_EQ(client.done[1], 0u + 10 + 4);
  EXPECT_EQ(client.done[2], 100u + 30 + 20 + 10 + 4);
  EXPECT_EQ(d.counters().row_hits, 1u);
  EXPECT_EQ(d.counters().row_conflicts, 1u);
}

TEST(Dram, ChannelBusLimitsBandwidth) {
  Engine e;
  RequestPool pool;
  StatsRegistry stats;
  DramParams p;
  p.channels = 1;
  p.banks = 4;
  p.controller_latency = 0;
  p.burst_fp = 4 << 8;  // 16 B per cycle
  Dram d("dram", p, e, pool, stats);
  Client client;
  for (uint32_t i = 0; i < 64; ++i) {  // one open row's worth of lines, all at once
    uint32_t r = pool.alloc();
    pool[r].line = i % 32;
    pool[r].reply_to = &client;
    pool[r].tag = i;
    e.schedule(Cycle(0), &d, kMemRequest, r);
  }
  e.run();
  // 64 lines x 4 cycles of bus each: the last finishes about 256 cycles in.
  EXPECT_GE(client.done[63], 256u);
  EXPECT_LE(client.done[63], 256u + 40);
}

TEST(Dram, AddressMappingInterleavesChannelsThenRowsThenBanks) {
  for (uint32_t channels : {32u, 3u}) {  // the shift path and the division path
    Engine e;
    RequestPool pool;
    StatsRegistry stats;
    DramParams p;
    p.channels = channels;
    p.banks = 8;
    p.row_bytes = 2048;
    p.interleave_bytes = 256;
    Dram d("dram", p, e, pool, stats);
    for (uint64_t line = 0; line < 100000; line += 37) {
      const uint64_t addr = line * 64, chunk = addr / 256;
      const uint64_t local = chunk / channels * 256 + addr % 256;
      const Dram::Location loc = d.locate(line);
      ASSERT_EQ(loc.channel, chunk % channels) << line;
      ASSERT_EQ(loc.bank, local / 2048 % 8) << line;
      ASSERT_EQ(loc.row, local / 2048 / 8) << line;
    }
  }
}

/// One channel, one bank, 64-byte lines, 1 KiB rows: lines 0..15 are row 0, 16..31 row 1.
struct OneBank : ::testing::Test {
  Engine e;
  RequestPool pool;
  StatsRegistry stats;
  Client client;
  std::unique_ptr<Dram> d;
  void make(const char* scheduler, uint32_t cap = 16, uint32_t banks = 1, uint32_t turnaround = 0) {
    DramParams p;
    p.channels = 1;
    p.banks = banks;
    p.row_bytes = 1024;
    p.interleave_bytes = 256;
    p.tcl = 10, p.trcd = 20, p.trp = 30, p.tccd = 2;
    p.controller_latency = 0;
    p.burst_fp = 4 << 8;
    p.turnaround = turnaround;
    p.scheduler = scheduler;
    p.sched.bypass_cap = cap;
    d = std::make_unique<Dram>("dram", p, e, pool, stats);
  }
  void send(uint64_t at, uint64_t line, uint32_t tag, ReqKind kind = ReqKind::Read) {
    uint32_t r = pool.alloc();
    pool[r].line = line;
    pool[r].kind = kind;
    pool[r].reply_to = &client;
    pool[r].tag = tag;
    e.schedule(Cycle(at), d.get(), kMemRequest, r);
  }
  /// Opens row 0 at cycle 0, then queues, while the bank is busy, a request to row 1 (tag 100)
  /// followed by `hits` younger requests to row 0 (tags 1..hits).
  void older_miss_then_row_hits(uint32_t hits) {
    send(0, 0, 0);
    send(1, 16, 100);
    for (uint32_t i = 1; i <= hits; ++i) send(1 + i, i, i);
    e.run();
  }
};

TEST_F(OneBank, FrFcfsServesRowHitsBeforeAnOlderRowMiss) {
  make("frfcfs");
  older_miss_then_row_hits(3);
  for (uint32_t i = 1; i <= 3; ++i) EXPECT_LT(client.done[i], client.done[100]) << i;
  EXPECT_EQ(d->counters().row_hits, 3u);
  EXPECT_EQ(d->counters().row_conflicts, 1u);
  EXPECT_EQ(d->counters().bypasses, 3u);
}

TEST_F(OneBank, FcfsServesTheOlderRowMissFirst) {
  make("fcfs");
  older_miss_then_row_hits(3);
  for (uint32_t i = 1; i <= 3; ++i) EXPECT_GT(client.done[i], client.done[100]) << i;
  EXPECT_EQ(d->counters().row_hits, 2u);  // row 1 closes row 0: the first younger request conflicts
  EXPECT_EQ(d->counters().row_conflicts, 2u);
  EXPECT_EQ(d->counters().bypasses, 0u);
}

TEST_F(OneBank, FrFcfsCapBoundsHowManyRowHitsBypassAnOlderRequest) {
  make("frfcfs", 2);
  older_miss_then_row_hits(4);
  EXPECT_LT(client.done[1], client.done[100]);
  EXPECT_LT(client.done[2], client.done[100]);
  EXPECT_LT(client.done[100], client.done[3]);  // bypassed twice: it goes next
  EXPECT_LT(client.done[100], client.done[4]);
  EXPECT_EQ(d->counters().bypasses, 2u);
}

TEST_F(OneBank, ReadWriteTurnaroundDelaysABurstInTheOtherDirection) {
  // A read to bank 0 and a write to bank 1 (line 16: row 0 of bank 1) issue together; the
  // write's burst follows the read's on the data bus, after the turnaround if there is one.
  for (uint32_t turnaround : {0u, 12u}) {
    make("frfcfs", 16, 2, turnaround);
    const uint64_t t0 = e.now().value() + 100;
    send(t0, 0, 1);
    send(t0, 16, 2, ReqKind::Write);
    e.run();
    EXPECT_EQ(client.done[1], t0 + 20 + 10 + 4);
    EXPECT_EQ(client.done[2], t0 + 20 + 10 + 4 + 4 + turnaround) << turnaround;
  }
}

}  // namespace
}  // namespace strobe::timing
