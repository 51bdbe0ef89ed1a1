// Tests of GPUMech's entry point: the Table 8 levels end to end on constructed traces.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sampling/gpumech/predict.h"
#include "gpumech_trace_builder.h"

namespace strobe::sampling::gpumech {
namespace {

using testing::paper_units;
using testing::TraceBuilder;

constexpr double kTol = 1e-5;

/// `n` copies of one wave.
ModelInputs copies(const WaveTrace& w, int n) {
  ModelInputs in;
  in.waves.assign(static_cast<size_t>(n), w);
  return in;
}

/// [D Fig. 24]'s one interval [3 insts, 6 stall]: three instructions and a 6-cycle drain.
WaveTrace fig24_wave() {
  TraceBuilder t;
  t.compute(1);
  t.compute(1);
  t.compute(6);  // issued at 2, done at 8
  return t.trace();
}

/// [D Fig. 18]'s intervals [1, 10] and [4, 10].
WaveTrace fig18_wave() {
  TraceBuilder t;
  const uint32_t a = t.compute(10);
  t.compute(1, {a});  // issues at 11: 10 stall cycles
  t.compute(1);
  t.compute(1);
  t.compute(10);  // issued at 14, drains to 24
  return t.trace();
}

TEST(GpumechPredict, Fig24FromATrace) {
  ModelParams params = paper_units(4);
  params.include_drain = true;
  const ModelInputs in = copies(fig24_wave(), 4);
  params.policy = Policy::RoundRobin;
  EXPECT_NEAR(predict(in, params, Level::MT).cpi, 0.91667, kTol);
  EXPECT_NEAR(predict(in, params, Level::NaiveInterval).cpi, 0.75, kTol);
  params.policy = Policy::GreedyThenOldest;
  const Prediction p = predict(in, params, Level::MtMshrBand);
  EXPECT_NEAR(p.multithreading.total_nonoverlapped, 3, kTol);
  EXPECT_NEAR(p.cpi, 1.0, kTol);  // no memory: contention adds nothing
  EXPECT_DOUBLE_EQ(p.cpi_rc_slots, 0);
}

TEST(GpumechPredict, Fig18FromATrace) {
  ModelParams params = paper_units(3);
  params.include_drain = true;
  const ModelInputs in = copies(fig18_wave(), 3);
  const Prediction naive = predict(in, params, Level::NaiveInterval);
  ASSERT_EQ(naive.profile.intervals.size(), 2u);
  EXPECT_EQ(naive.profile.intervals[0].insts, 1u);
  EXPECT_DOUBLE_EQ(naive.profile.intervals[0].stall, 10);
  EXPECT_EQ(naive.profile.intervals[1].insts, 4u);
  EXPECT_DOUBLE_EQ(naive.profile.intervals[1].stall, 10);
  EXPECT_NEAR(naive.cpi, 1.66667, kTol);
  params.policy = Policy::RoundRobin;
  EXPECT_NEAR(predict(in, params, Level::MT).cpi, 1.74667, kTol);
  params.policy = Policy::GreedyThenOldest;
  EXPECT_NEAR(predict(in, params, Level::MT).cpi, 1.66667, kTol);
}

TEST(GpumechPredict, Fig25MshrDelayEntersAtMtMshr) {
  // 6 MSHRs, 4 waves, two compute instructions and a load of two L1-missing requests whose
  // miss latency is 200 cycles: MSHR_delay = 50 over the wave's 3 instructions.
  TraceBuilder t;
  t.compute(1);
  t.compute(1);
  t.vmem(MemAccess::Read, 200, 2, {0, 1, 0});
  ModelParams params = paper_units(4);
  params.mshrs_per_cu = 6;
  params.l2_latency = 200;
  const ModelInputs in = copies(t.trace(), 4);
  const Prediction mt = predict(in, params, Level::MT);
  const Prediction mshr = predict(in, params, Level::MtMshr);
  EXPECT_DOUBLE_EQ(mshr.miss_latency, 200);
  EXPECT_DOUBLE_EQ(mshr.contention.mshr_delay, 50);
  EXPECT_NEAR(mshr.cpi - mt.cpi, 50.0 / 3, 1e-12);
  EXPECT_NEAR(mshr.stack.mshr, 50.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(mt.stack.mshr, 0);
  // Every request hits L2, so none reaches DRAM: the bandwidth level adds nothing.
  EXPECT_DOUBLE_EQ(predict(in, params, Level::MtMshrBand).cpi, mshr.cpi);
}

/// A memory-bound wave: a loop of divergent loads whose results are used at once, plus stores.
WaveTrace memory_bound_wave(int iterations) {
  TraceBuilder t;
  const MissEvents miss{0.2, 0.3, 0.5};
  for (int i = 0; i < iterations; ++i) {
    const uint32_t addr = t.compute(0);
    const uint32_t load = t.vmem(MemAccess::Read, 0.2 * 25 + 0.3 * 120 + 0.5 * 420, 16, miss, {addr});
    t.waitcnt(0);
    const uint32_t use = t.compute(0, {load});
    t.vmem(MemAccess::Write, 420, 16, {0, 0, 1}, {use});
  }
  return t.trace();
}

TEST(GpumechPredict, AblationLevelsOnlyAddCycles) {
  ModelParams params;  // GCN3 slots, the paper's memory system
  params.waves_per_cu = 40;
  const ModelInputs in = copies(memory_bound_wave(12), 8);
  double previous = 0;
  for (const Level level : {Level::NaiveInterval, Level::MT, Level::MtMshr, Level::MtMshrBand}) {
    const Prediction p = predict(in, params, level);
    EXPECT_GT(p.cpi, previous) << static_cast<int>(level);
    EXPECT_NEAR(p.stack.total(), p.cpi, 1e-9 * p.cpi) << static_cast<int>(level);
    EXPECT_EQ(p.stack.mshr > 0, level >= Level::MtMshr);
    EXPECT_EQ(p.stack.queue > 0, level == Level::MtMshrBand);
    previous = p.cpi;
  }
}

TEST(GpumechPredict, OneRunGivesEveryAblationLevelsCpi) {
  // What a launch record's level_cpi reports: each level's CPI from one prediction equals the
  // CPI of predicting at that level, whichever level the run used.
  ModelParams params;
  params.waves_per_cu = 40;
  const ModelInputs in = copies(memory_bound_wave(12), 8);
  const Prediction naive = predict(in, params, Level::NaiveInterval);
  const Prediction full = predict(in, params, Level::MtMshrBand);
  for (const Level level : {Level::NaiveInterval, Level::MT, Level::MtMshr, Level::MtMshrBand}) {
    const double expected = predict(in, params, level).cpi;
    EXPECT_DOUBLE_EQ(level_cpi(full, level, params), expected) << static_cast<int>(level);
    EXPECT_DOUBLE_EQ(level_cpi(naive, level, params), expected) << static_cast<int>(level);
  }
}

TEST(GpumechPredict, TheTailIsTheSlowestWaveAloneAndLeavesTheBalancedEstimate) {
  // One long wave among short ones: tail_cycles is its Eq. 13 total in cycles, whichever wave
  // represents the launch, and the balanced cycle estimate does not change with it (the bound
  // is applied above the model, bounded_cycles()).
  ModelParams params;
  params.waves_per_cu = 8;
  ModelInputs in = copies(memory_bound_wave(2), 7);
  in.waves.push_back(memory_bound_wave(40));
  const Prediction p = predict(in, params, Level::MtMshrBand);
  const double longest = total_slots(interval_profile(in.waves.back(), params).intervals, params.issue_rate);
  EXPECT_DOUBLE_EQ(p.tail_cycles, longest * params.cycles_per_slot);
  EXPECT_GT(p.tail_cycles, 0);
  EXPECT_NE(p.representative.wave, 7u);
  EXPECT_DOUBLE_EQ(alone_slots(in, params, 7), longest);  // what a re-run from saved traces profiles
  WaveSurvey s = survey_waves(in, params);
  s.longest_wave_slots = 0;  // a survey that measured no wave
  EXPECT_EQ(predict(in, params, Level::MtMshrBand, s).tail_cycles, 0);
  EXPECT_DOUBLE_EQ(predict(in, params, Level::MtMshrBand, s).cycles, p.cycles);
}

TEST(GpumechPredict, SlotsConvertBackToCycles) {
  // The same wave in the paper's unit and on a GCN3 SIMD with every latency 4 times longer and
  // the same W per SIMD: the CPI in cycles is 4 times the paper-unit CPI.
  TraceBuilder fermi, gcn;
  const uint32_t a = fermi.compute(12);
  fermi.compute(1, {a});
  fermi.compute(3);
  const uint32_t b = gcn.compute(48);
  gcn.compute(4, {b});
  gcn.compute(12);
  ModelParams pf = paper_units(6), pg;
  pg.waves_per_cu = 6 * pg.simds_per_cu;
  for (const Policy policy : {Policy::RoundRobin, Policy::GreedyThenOldest}) {
    pf.policy = pg.policy = policy;
    const Prediction f = predict(copies(fermi.trace(), 2), pf, Level::MT);
    const Prediction g = predict(copies(gcn.trace(), 2), pg, Level::MT);
    EXPECT_NEAR(g.cpi_slots, f.cpi_slots, 1e-12);
    EXPECT_NEAR(g.cpi, 4 * f.cpi, 1e-12);
  }
}

TEST(GpumechPredict, CyclesSpreadEveryWavesInstructionsOverAllSimds) {
  ModelParams params;
  params.cus = 2;
  params.waves_per_cu = 8;
  const ModelInputs in = copies(memory_bound_wave(3), 10);
  const Prediction p = predict(in, params, Level::MtMshrBand);
  EXPECT_EQ(p.wave_insts, 10u * 15);
  EXPECT_NEAR(p.cycles, p.cpi * 150 / (2 * 4), 1e-9);
}

TEST(GpumechPredict, UsesTheRepresentativeNotAnOutlier) {
  // Seven short compute-bound waves and one long memory-bound outlier.
  TraceBuilder t;
  for (int i = 0; i < 6; ++i) t.compute(4);
  ModelInputs in = copies(t.trace(), 7);
  in.waves.push_back(memory_bound_wave(20));
  const Prediction p = predict(in, paper_units(8), Level::MT);
  EXPECT_LT(p.representative.wave, 7u);
  EXPECT_EQ(p.profile.intervals.size(), 1u);
  EXPECT_EQ(p.wave_insts, 7u * 6 + 100);
}

TEST(GpumechPredict, RejectsBadParametersAndEmptyInputs) {
  const ModelInputs in = copies(fig24_wave(), 2);
  ModelParams params;
  params.issue_rate = 0;
  EXPECT_THROW(predict(in, params, Level::MT), std::invalid_argument);
  params = {};
  params.dram_gb_per_s = 0;
  EXPECT_THROW(predict(in, params, Level::MT), std::invalid_argument);
  EXPECT_THROW(predict(ModelInputs{}, ModelParams{}, Level::MT), std::invalid_argument);
}

}  // namespace
}  // namespace strobe::sampling::gpumech
