// A functional dispatch on several host threads gives what one thread running the work-groups in
// order gives: memory, counters, the past-the-end log and the fault reported.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "emu_test_util.h"

namespace strobe::emu {
namespace {
using test::Arg;
using test::CompiledKernel;

/// What one run left: an output buffer, the counters, the past-the-end log, a fault's message.
struct Outcome {
  std::vector<uint32_t> out;
  DispatchStats stats;
  OverrunLog overruns;
  std::string fault;
};

bool same_stats(const DispatchStats& a, const DispatchStats& b) {
  return a.wave_instructions == b.wave_instructions && a.thread_instructions == b.thread_instructions &&
         a.vector_memory_instructions == b.vector_memory_instructions &&
         a.scalar_memory_instructions == b.scalar_memory_instructions && a.lds_instructions == b.lds_instructions &&
         a.workgroups == b.workgroups && a.wavefronts == b.wavefronts;
}

/// Runs grid_ids over a 1D grid of `items` in groups of `local`, writing into a buffer of
/// `out_bytes` (smaller than the grid: accesses past its end are logged or fault).
Outcome run_grid_ids(uint32_t threads, uint32_t items, uint32_t local, uint32_t out_bytes) {
  CompiledKernel k(test::kernel_path("emu/grid"), "grid_ids");
  GlobalMemory mem;
  const uint64_t out = mem.allocate(out_bytes);
  mem.fill(out, 0xFF, out_bytes);
  Outcome o;
  try {
    o.stats = run_dispatch(test::prepare_launch(mem, k, {items, 1, 1}, {local, 1, 1}, {{Arg::Pointer, out}}), mem,
                           threads);
  } catch (const FaultError& e) {
    o.fault = e.what();
  }
  o.out.resize(out_bytes / 4);
  mem.read(out, o.out.data(), out_bytes);
  o.overruns = mem.take_overruns();
  return o;
}

TEST(WorkgroupThreads, GridIdsAndCountsAreIdenticalOnOneTwoAndSevenThreads) {
  // 3D grid with partial work-groups at every edge: 7 x 5 x 3 groups of 4 x 4 x 2.
  CompiledKernel k(test::kernel_path("emu/grid"), "grid_ids");
  const uint32_t w = 26, h = 19, d = 5;
  std::vector<std::vector<uint32_t>> outs;
  std::vector<DispatchStats> stats;
  for (uint32_t threads : {1u, 2u, 7u}) {
    GlobalMemory mem;
    const uint64_t out = mem.allocate(w * h * d * 4);
    mem.fill(out, 0xFF, w * h * d * 4);
    stats.push_back(run_dispatch(test::prepare_launch(mem, k, {w, h, d}, {4, 4, 2}, {{Arg::Pointer, out}}), mem,
                                 threads));
    outs.emplace_back(w * h * d);
    mem.read(out, outs.back().data(), w * h * d * 4);
  }
  EXPECT_EQ(stats[0].workgroups, 7u * 5 * 3);
  for (uint32_t x : outs[0]) ASSERT_NE(x, 0xFFFFFFFFu) << "a work-item did not run";
  for (size_t i = 1; i < outs.size(); ++i) {
    EXPECT_EQ(outs[i], outs[0]) << "run " << i;
    EXPECT_TRUE(same_stats(stats[i], stats[0])) << "run " << i;
  }
}

TEST(WorkgroupThreads, HostIdentityMemoryGivesTheSameResultsOnFourThreads) {
  // The HIP path's addressing: device addresses are this process's; its lookup cache is shared
  // state the threads must leave alone.
  CompiledKernel k(test::kernel_path("emu/grid"), "grid_ids");
  const uint32_t n = 64 * 4096;
  std::vector<std::vector<uint32_t>> outs;
  for (uint32_t threads : {1u, 4u}) {
    GlobalMemory mem;
    mem.use_host_addresses();
    const uint64_t dout = mem.allocate(n * 4);
    mem.fill(dout, 0xFF, n * 4);
    run_dispatch(test::prepare_launch(mem, k, {n, 1, 1}, {64, 1, 1}, {{Arg::Pointer, dout}}), mem, threads);
    outs.emplace_back(n);
    mem.read(dout, outs.back().data(), n * 4);
  }
  EXPECT_EQ(outs[1], outs[0]);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(outs[1][i], (i / 64) << 24 | (i % 64)) << i;
}

TEST(WorkgroupThreads, RegressionAKernelWithScratchKeepsLaterAllocationsWhereOneThreadPutsThem) {
  // Scratch for one slot per thread moved every later allocation, so the memory digest and the
  // timing model's cache sets depended on the thread count. A kernel with scratch runs on one.
  CompiledKernel k(test::kernel_path("emu/scratch"), "private_array");
  const uint32_t n = 64 * 256;
  std::vector<uint32_t> idx(n);
  for (uint32_t i = 0; i < n; ++i) idx[i] = i * 13 + 5;
  std::vector<uint64_t> after;
  std::vector<uint64_t> digests;
  for (uint32_t threads : {1u, 4u}) {
    GlobalMemory mem;
    const uint64_t di = mem.allocate(n * 4), dout = mem.allocate(n * 4);
    mem.write(di, idx.data(), n * 4);
    // Groups of 4 waves: 40 KiB of scratch per slot, more than one 64 KiB page for 4 slots.
    run_dispatch(test::prepare_launch(mem, k, {n, 1, 1}, {256, 1, 1}, {{Arg::Pointer, di}, {Arg::Pointer, dout}}),
                 mem, threads);
    after.push_back(mem.allocate(256));
    digests.push_back(mem.digest());
    std::vector<uint32_t> out(n);
    mem.read(dout, out.data(), n * 4);
    for (uint32_t g = 0; g < n; ++g) {
      const uint32_t kk = idx[g] % 40;
      ASSERT_EQ(out[g], (g * 100 + kk + 5) + (g * 100 + (kk + 7) % 40) + ((kk + 7) % 40 == kk ? 5 : 0)) << g;
    }
  }
  EXPECT_EQ(after[1], after[0]);
  EXPECT_EQ(digests[1], digests[0]);
}

TEST(WorkgroupThreads, AKernelWithGlobalAtomicsHandsOutTicketsInWorkgroupOrder) {
  // atomic_inc's returned tickets depend on the order work-groups run in: on any thread count
  // they are those of one thread, 0..n-1 in work-group order.
  CompiledKernel k(test::kernel_path("emu/atomics"), "histogram");
  EXPECT_TRUE(has_global_atomics(k.program));
  EXPECT_FALSE(has_global_atomics(CompiledKernel(test::kernel_path("emu/grid"), "grid_ids").program));
  const uint32_t n = 64 * 4096;
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = i * 2654435761u;
  std::vector<std::vector<uint32_t>> tickets;
  for (uint32_t threads : {1u, 4u}) {
    GlobalMemory mem;
    const uint64_t din = mem.allocate(n * 4), bins = mem.allocate(64), counter = mem.allocate(4),
                   dt = mem.allocate(n * 4);
    mem.write(din, in.data(), n * 4);
    mem.fill(bins, 0, 64);
    mem.fill(counter, 0, 4);
    run_dispatch(test::prepare_launch(mem, k, {n, 1, 1}, {64, 1, 1},
                                      {{Arg::Pointer, din}, {Arg::Pointer, bins}, {Arg::Pointer, counter},
                                       {Arg::Pointer, dt}, {Arg::U32, n}}),
                 mem, threads);
    tickets.emplace_back(n);
    mem.read(dt, tickets.back().data(), n * 4);
  }
  EXPECT_EQ(tickets[1], tickets[0]);
}

TEST(WorkgroupThreads, TheFaultReportedIsTheFirstInWorkgroupOrderWhateverTheThreadCount) {
  // 256 groups of 64 write one word each into a 4 KiB buffer: groups 16 and later fault. Their
  // stray addresses stay below the next allocation (allocations start 64 KiB apart), so the
  // groups that ran after the first fault, as threads do, changed nothing earlier groups read.
  const Outcome one = run_grid_ids(1, 64 * 256, 64, 4096);
  ASSERT_NE(one.fault.find("group (16,"), std::string::npos) << one.fault;
  for (uint32_t threads : {2u, 4u, 8u}) {
    const Outcome many = run_grid_ids(threads, 64 * 256, 64, 4096);
    EXPECT_EQ(many.fault, one.fault) << threads << " threads";
    EXPECT_EQ(std::vector<uint32_t>(many.out.begin(), many.out.end()), one.out) << threads << " threads";
  }
}

TEST(WorkgroupThreads, PastTheEndAccessesAreLoggedAsOneThreadLogsThem) {
  // 4000 bytes mapped to 4096: the last 24 work-items, in six groups of 4, write past the end.
  const Outcome one = run_grid_ids(1, 1024, 4, 4000);
  ASSERT_TRUE(one.fault.empty()) << one.fault;
  ASSERT_EQ(one.overruns.count, 24u);
  ASSERT_EQ(one.overruns.shown.size(), OverrunLog::kShown);
  for (uint32_t threads : {2u, 5u}) {
    const Outcome many = run_grid_ids(threads, 1024, 4, 4000);
    EXPECT_EQ(many.overruns.count, one.overruns.count) << threads << " threads";
    EXPECT_EQ(many.overruns.shown, one.overruns.shown) << threads << " threads";
    EXPECT_TRUE(same_stats(many.stats, one.stats)) << threads << " threads";
  }
}

}  // namespace
}  // namespace strobe::emu
