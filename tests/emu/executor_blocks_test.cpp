// Executor::run_wave_blocks: the block stream it reports and the state it leaves must be those of
// stepping the same waves one instruction at a time.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "emu/executor.h"
#include "emu_test_util.h"

namespace strobe::emu {
namespace {

using test::AsmLaunch;
using test::KdSpec;

// A three-trip loop, a barrier and a tail: instructions 0..7, blocks ending at the branch (4),
// the barrier (5) and s_endpgm (7).
const char* const kLoop = test::kLoopBarrierAsm;

using Block = std::tuple<uint32_t, uint32_t, uint32_t>;  // wave, start pc, instructions

std::vector<uint8_t> loop_ends() {
  std::vector<uint8_t> ends(8, 0);
  ends[4] = ends[5] = ends[7] = 1;
  return ends;
}

TEST(RunWaveBlocks, ReportsEachCompletedBlockWithItsLength) {
  AsmLaunch l(kLoop, KdSpec{}, {128, 1, 1}, {128, 1, 1});
  Executor ex(l.d, l.mem);
  WorkGroup wg;
  ex.init_workgroup(wg, 0);
  const std::vector<uint8_t> ends = loop_ends();
  std::vector<Block> got;
  uint32_t wave = 0;
  auto sink = [](void* c, uint32_t start, uint32_t n) {
    auto* p = static_cast<std::pair<std::vector<Block>*, uint32_t*>*>(c);
    p->first->emplace_back(*p->second, start, n);
  };
  std::pair<std::vector<Block>*, uint32_t*> ctx{&got, &wave};
  DispatchStats stats;
  do {
    for (wave = 0; wave < wg.waves.size(); ++wave) ex.run_wave_blocks(wg.waves[wave], wg, stats, ends.data(), sink, &ctx);
  } while (Executor::try_release_barrier(wg));
  // Up to the barrier for both waves (the first trip includes s_mov), then the tails.
  const std::vector<Block> want = {{0, 0, 5}, {0, 1, 4}, {0, 1, 4}, {0, 5, 1}, {1, 0, 5}, {1, 1, 4},
                                   {1, 1, 4}, {1, 5, 1}, {0, 6, 2},  {1, 6, 2}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(stats.wave_instructions, 2u * (1 + 3 * 4 + 1 + 2));
}

TEST(RunWaveBlocks, LeavesTheSameStateAndCountersAsStepping) {
  AsmLaunch blocks(kLoop, KdSpec{}, {64, 1, 1}, {64, 1, 1});
  AsmLaunch stepped(kLoop, KdSpec{}, {64, 1, 1}, {64, 1, 1});
  Executor eb(blocks.d, blocks.mem), es(stepped.d, stepped.mem);
  WorkGroup gb, gs;
  eb.init_workgroup(gb, 0);
  es.init_workgroup(gs, 0);
  const std::vector<uint8_t> ends = loop_ends();
  DispatchStats sb, ss;
  auto ignore = [](void*, uint32_t, uint32_t) {};
  do {
    eb.run_wave_blocks(gb.waves[0], gb, sb, ends.data(), ignore, nullptr);
  } while (Executor::try_release_barrier(gb));
  do {
    while (!gs.waves[0].halted && !gs.waves[0].at_barrier) es.step(gs.waves[0], gs, ss);
  } while (Executor::try_release_barrier(gs));
  EXPECT_EQ(sb.wave_instructions, ss.wave_instructions);
  EXPECT_EQ(sb.thread_instructions, ss.thread_instructions);
  EXPECT_EQ(gb.waves[0].pc, gs.waves[0].pc);
  EXPECT_TRUE(gb.waves[0].halted);
  for (uint32_t lane = 0; lane < 64; ++lane) EXPECT_EQ(gb.waves[0].vrow(2)[lane], gs.waves[0].vrow(2)[lane]) << lane;
  EXPECT_EQ(gb.waves[0].vrow(2)[0], 3u);  // v1 starts at 0: three trips add 3
}

}  // namespace
}  // namespace strobe::emu
