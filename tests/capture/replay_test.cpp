// Replaying captures. The checkpoint test: every launch replayed with nothing in device memory
// but its checkpoint takes the cycles it takes in the in-order replay, whose every launch takes
// the cycles of the same launch in a plain detailed run of the benchmark; and a functional
// replay writes what the captured run wrote.
#include "experiment/capture.h"

#include "experiment/profile.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "capture/capture_file.h"
#include "capture/recorder.h"
#include "capture/replay.h"
#include "common/error.h"
#include "workloads/verify.h"

namespace strobe::experiment {
namespace {

namespace fs = std::filesystem;

struct Case {
  const char* bench;
  std::vector<std::string> params;
};

/// Small sizes of: a single launch, LDS tiles, iterative launches that reuse earlier results,
/// host work between launches, global atomics (two kinds), and a DNN inference.
const Case kCases[] = {
    {"vecadd", {"n=20000"}},
    {"mm", {"m=64", "n=64", "k=64"}},
    {"hotspot", {"rows=64", "cols=64", "iterations=3"}},
    {"kmeans", {"points=2048", "iterations=2"}},
    {"histogram", {"n=16384", "groups=8"}},
    {"bfs", {"vertices=2048"}},
    {"resnet18", {"input=32", "width_div=16", "classes=10"}},
};

class CaptureReplay : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("strobe-replay-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Captures the case on two host threads (the recorder's threaded path where the kernel allows it).
  std::string capture_case(const Case& c) {
    CaptureSpec s;
    s.run.benchmark = c.bench;
    s.run.params = c.params;
    s.run.threads = 2;
    s.run.verify = true;
    s.output = (dir_ / (std::string(c.bench) + ".cap")).string();
    const CaptureResult r = capture(s);
    EXPECT_TRUE(r.verified);
    EXPECT_GT(r.launches, 0u);
    return s.output;
  }

  static RunSpec replay_spec(const std::string& file, const std::string& mode) {
    RunSpec s;
    s.workload = Workload::Capture;
    s.capture = file;
    s.mode = mode;
    s.threads = 1;
    return s;
  }

  static std::vector<uint64_t> cycles(const RunResult& r) {
    std::vector<uint64_t> c;
    for (const auto& l : r.outcome.launches) c.push_back(l.result.timing ? l.result.timing->cycles : 0);
    return c;
  }

  fs::path dir_;
};

TEST_P(CaptureReplay, EveryLaunchRunsAloneFromItsCheckpointInTheCyclesOfTheFullRun) {
  const Case& c = GetParam();
  const std::string file = capture_case(c);

  // A functional replay of every launch writes what the capture wrote.
  RunSpec fs = replay_spec(file, "functional");
  fs.verify = true;
  ValidatedRun fv = validate(fs);
  const RunResult functional = replay(fv);
  EXPECT_TRUE(functional.outcome.verified);
  // So does one with nothing in memory but each launch's checkpoint: it holds every page read.
  ValidatedRun fresh = validate(fs);
  EXPECT_TRUE(replay(fresh, {}, /*fresh_memory=*/true).outcome.verified);

  // The plain detailed run of the benchmark.
  RunSpec direct;
  direct.benchmark = c.bench;
  direct.params = c.params;
  direct.mode = "timing";
  direct.threads = 1;
  ValidatedRun dv = validate(direct);
  const std::vector<uint64_t> reference = cycles(run(dv));

  // Every launch in order from the capture, memory carried from launch to launch.
  ValidatedRun iv = validate(replay_spec(file, "timing"));
  const std::vector<uint64_t> in_order = cycles(replay(iv));
  // Every launch with nothing in memory but its checkpoint, the caches those of the same run.
  ValidatedRun ev = validate(replay_spec(file, "timing"));
  const std::vector<uint64_t> alone = cycles(replay(ev, {}, /*fresh_memory=*/true));

  ASSERT_EQ(in_order.size(), reference.size());
  ASSERT_EQ(alone.size(), reference.size());
  // Global atomics performed in another order can leave other values (a BFS frontier's order):
  // after such a launch, the plain run's memory is its own and its later launches may differ,
  // while a replay restores the captured values. Up to there, every cycle is the same.
  const auto cap = capture::CaptureFile::open(file);
  bool same_memory = true;
  for (size_t i = 0; i < reference.size(); ++i) {
    EXPECT_GT(reference[i], 0u) << c.bench << " launch " << i;
    if (same_memory) EXPECT_EQ(in_order[i], reference[i]) << c.bench << " launch " << i << " replayed in order";
    EXPECT_EQ(alone[i], in_order[i]) << c.bench << " launch " << i << " replayed from its checkpoint alone";
    same_memory = same_memory && !cap->launch(i).dependent_groups;
  }
}

INSTANTIATE_TEST_SUITE_P(Benchmarks, CaptureReplay, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.bench); });

class CaptureReplayErrors : public CaptureReplay {};

TEST_F(CaptureReplayErrors, AReplayWhoseWrittenPagesDifferFailsVerificationNamingTheLaunch) {
  // A capture whose second launch claims other written contents than its kernel writes.
  const std::string file = (dir_ / "tampered.cap").string();
  {
    capture::CaptureWriter writer(file);
    std::unique_ptr<capture::Recorder> rec;
    workloads::RunRequest req;
    req.benchmark = "hotspot";
    req.params = {"rows=64", "cols=64", "iterations=3"};
    req.prepare_device = [&](runtime::Device& dev) { rec = std::make_unique<capture::Recorder>(dev, writer); };
    workloads::RunOutcome out = workloads::run_benchmark(std::move(req));
    capture::CaptureIndex x = std::move(rec->index());
    rec.reset();
    x.workload = "hotspot";
    x.launches.at(1).written_digest ^= 1;
    writer.finish(std::move(x));
  }
  RunSpec s = replay_spec(file, "functional");
  s.verify = true;
  ValidatedRun v = validate(s);
  try {
    replay(v);
    FAIL() << "verification passed";
  } catch (const workloads::VerificationError& e) {
    EXPECT_NE(std::string(e.what()).find("launch 1 "), std::string::npos) << e.what();
  }
  // Without --verify the same replay runs.
  s.verify = false;
  ValidatedRun quiet = validate(s);
  EXPECT_EQ(replay(quiet).outcome.launches.size(), 3u);
}

TEST_F(CaptureReplayErrors, ALaunchListOutOfRangeOrMalformedIsRefusedNamingTheCount) {
  const std::string file = capture_case({"vecadd", {"n=1000"}});
  for (const char* bad : {"1", "0-3", "x", "2-1", "0,,1", "-1", "0-"}) {
    RunSpec s = replay_spec(file, "functional");
    s.launches = bad;
    ValidatedRun v = validate(s);
    try {
      replay(v);
      ADD_FAILURE() << "accepted --launches '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--launches"), std::string::npos) << e.what();
    }
  }
}

TEST_F(CaptureReplayErrors, ACaptureOfAnotherBuildsKernelsIsRefused) {
  const std::string file = capture_case({"vecadd", {"n=1000"}});
  const auto cap = capture::CaptureFile::open(file);
  const fs::path other = dir_ / "kernels";
  fs::create_directories(other);
  // This build's kernel directory passes; one whose vecadd kernel differs does not.
  EXPECT_NO_THROW(capture::check_definition(*cap, workloads::workload_kernel_dir()));
  const std::string name = fs::path(cap->index().code_objects.at(0).name).filename().string();
  fs::copy_file(fs::path(workloads::workload_kernel_dir()) / name, other / name);
  { std::ofstream(other / name, std::ios::app) << "changed"; }
  EXPECT_THROW(capture::check_definition(*cap, other.string()), InputError);
  fs::remove(other / name);
  EXPECT_THROW(capture::check_definition(*cap, other.string()), InputError);
}

}  // namespace
}  // namespace strobe::experiment

namespace strobe::experiment {
namespace {

TEST_F(CaptureReplayErrors, TheCapturesProfileIsWhatProfilingTheBenchmarkGivesAndPkasCountsMatchItsOwnPass) {
  const Case c{"kmeans", {"points=2048", "iterations=3"}};
  const std::string file = capture_case(c);
  const auto cap = capture::CaptureFile::open(file);
  const auto from_capture = capture::method_profile(*cap, 64, sampling::profile::ProfileDetail::units);
  ASSERT_NE(from_capture, nullptr);
  // The functional profile of the same benchmark, collected as strobe profile collects it.
  ProfileSpec ps;
  ps.run.benchmark = c.bench;
  ps.run.params = c.params;
  ps.run.threads = 1;
  ps.line_bytes = 64;
  const ProfileResult own = collect_profile(ps);
  ASSERT_EQ(from_capture->launches.size(), own.profile.launches.size());
  for (size_t i = 0; i < own.profile.launches.size(); ++i) {
    const auto& a = from_capture->launches[i];
    const auto& b = own.profile.launches[i];
    EXPECT_EQ(a.id, b.id) << "launch " << i;
    EXPECT_EQ(a.workgroups.u64, b.workgroups.u64) << "launch " << i;
    EXPECT_EQ(a.waves.u64, b.waves.u64) << "launch " << i;
    EXPECT_EQ(a.blocks.u64, b.blocks.u64) << "launch " << i;
  }
  // What a launch-level method is given: each table's rows and sums, the same as the columns'.
  const auto summed = capture::method_profile(*cap, 64, sampling::profile::ProfileDetail::sums);
  ASSERT_EQ(summed->launches.size(), own.profile.launches.size());
  for (size_t i = 0; i < own.profile.launches.size(); ++i) {
    const auto& a = summed->launches[i];
    const auto& b = own.profile.launches[i];
    EXPECT_EQ(a.id, b.id) << "launch " << i;
    EXPECT_EQ(a.blobs, from_capture->launches[i].blobs) << "launch " << i;
    for (const auto& [sa, sb] : {std::pair{&a.workgroups, &b.workgroups}, {&a.waves, &b.waves}, {&a.blocks, &b.blocks}}) {
      ASSERT_TRUE(sa->sums) << "launch " << i;
      EXPECT_TRUE(sa->u64.empty() && sa->f64.empty()) << "launch " << i;
      EXPECT_EQ(sa->rows, sb->rows) << "launch " << i;
      EXPECT_EQ(sa->sums->size(), sb->u64.size()) << "launch " << i;
      for (const auto& [name, col] : sb->u64) EXPECT_EQ(sa->sum(name), sb->sum(name)) << "launch " << i << " " << name;
    }
  }
  // PKA from the capture's counts clusters as PKA after its own profiling pass does. Its
  // representative among tied launches is a warm one when something warms the caches, as a
  // capture's history does; the run warms with its functional launches to choose alike.
  RunSpec bench;
  bench.benchmark = c.bench;
  bench.params = c.params;
  bench.sampling = "pka";
  bench.warming = "caches";
  ValidatedRun bv = validate(bench);
  const RunResult ran = run(bv);
  RunSpec replayed = replay_spec(file, "timing");
  replayed.sampling = "pka";
  ValidatedRun rv = validate(replayed);
  const RunResult from_cap = replay(rv);
  const auto& a = ran.report.sampling_summary["method_summary"];
  const auto& b = from_cap.report.sampling_summary["method_summary"];
  EXPECT_EQ(a["clusters"], b["clusters"]);
  EXPECT_EQ(a["pca_components"], b["pca_components"]);
  EXPECT_EQ(a["representatives"], b["representatives"]);
  EXPECT_EQ(ran.report.sampling_summary["passes"].size(), 2u);
  EXPECT_EQ(from_cap.report.sampling_summary["passes"].size(), 1u);
}

TEST_F(CaptureReplayErrors, MethodsRunFromACaptureWithoutRunningThePredictedLaunches) {
  const std::string file = capture_case({"hotspot", {"rows=64", "cols=64", "iterations=4"}});
  for (const char* m : {"photon", "pka", "tbpoint"}) {
    RunSpec s = replay_spec(file, "timing");
    s.sampling = m;
    s.verify = true;
    ValidatedRun v = validate(s);
    const RunResult r = replay(v);
    SCOPED_TRACE(m);
    ASSERT_EQ(r.outcome.launches.size(), 4u);
    uint64_t detailed = 0, predicted_not_run = 0;
    for (const auto& l : r.outcome.launches) {
      ASSERT_TRUE(l.result.sampling);
      ASSERT_TRUE(l.result.timing);
      EXPECT_GT(l.result.timing->cycles, 0u);
      EXPECT_GT(l.result.stats.wave_instructions, 0u);  // the captured counters where it did not run
      detailed += l.result.sampling->detailed_instructions > 0;
      predicted_not_run += l.result.sampling->detailed_instructions == 0 && !l.result.sampling->emulated;
    }
    EXPECT_GE(detailed, 1u);
    EXPECT_GE(predicted_not_run, 1u);  // some launch was neither simulated nor emulated
    EXPECT_TRUE(r.outcome.verified);
  }
}

}  // namespace
}  // namespace strobe::experiment

namespace strobe::experiment {
namespace {

TEST_F(CaptureReplayErrors, ALaunchAloneAfterItsPredecessorsInDetailTakesItsInOrderCycles) {
  const std::string file = capture_case({"hotspot", {"rows=64", "cols=64", "iterations=4"}});
  ValidatedRun iv = validate(replay_spec(file, "timing"));
  const std::vector<uint64_t> in_order = cycles(replay(iv));
  const uint64_t n = in_order.size();
  ASSERT_GE(n, 4u);

  // Cold, each launch alone differs from the in-order run (its predecessors' data is not in the
  // caches); with every predecessor simulated first, and nothing rebuilt from the history, each
  // launch on its fresh GPU is the in-order run's: detailed warming alone makes it so.
  RunSpec cold = replay_spec(file, "timing");
  cold.alone = true;
  cold.warm_state = "none";
  ValidatedRun cv = validate(cold);
  EXPECT_NE(cycles(replay(cv)), in_order);
  cold.warm_launches = uint32_t(n);
  ValidatedRun wv = validate(cold);
  const RunResult all = replay(wv);
  EXPECT_EQ(cycles(all), in_order);
  EXPECT_EQ(all.report.capture.at("warm_launches_run").get<uint64_t>(), n * (n - 1) / 2);
  // One predecessor, the history before it: launch 1's predecessor starts cold as in the
  // in-order run, so launch 1 is exact.
  RunSpec alone = replay_spec(file, "timing");
  alone.alone = true;
  alone.warm_launches = 1;
  ValidatedRun ov = validate(alone);
  const std::vector<uint64_t> one = cycles(replay(ov));
  EXPECT_EQ(one[1], in_order[1]);

  // A launch this GPU has run is not run again: with two launches of detailed warming, n-2 gets
  // n-4 and n-3 before it, and n-1, right after n-2, nothing more.
  RunSpec pair = replay_spec(file, "timing");
  pair.launches = fmt::format("{},{}", n - 2, n - 1);
  pair.warm_launches = 2;
  ValidatedRun pv = validate(pair);
  const RunResult two = replay(pv);
  EXPECT_EQ(two.report.capture.at("warm_launches_run").get<uint64_t>(), 2u);

  // Rules: timing only, no sampling method, a capture only.
  RunSpec functional = replay_spec(file, "functional");
  functional.warm_launches = 1;
  EXPECT_THROW(validate(functional), InputError);
  RunSpec sampled = replay_spec(file, "timing");
  sampled.warm_launches = 1;
  sampled.sampling = "photon";
  EXPECT_THROW(validate(sampled), NotImplementedError);
  RunSpec bench;
  bench.benchmark = "vecadd";
  bench.mode = "timing";
  bench.warm_launches = 1;
  EXPECT_THROW(validate(bench), InputError);
}

TEST_F(CaptureReplayErrors, CodeThatFewGroupsRanIsWarmOnlyInTheirShaderArraysWhenReplayedAlone) {
  // SSSP's first relaxations: every group runs the kernel, few of them its body (the frontier is
  // a handful of vertices), so the body's code is in few instruction caches, and a launch alone
  // misses where the in-order run misses.
  const std::string file = capture_case({"sssp", {"vertices=8192"}});
  RunSpec r = replay_spec(file, "timing");
  r.launches = "0-3";
  ValidatedRun iv = validate(r);
  const RunResult in_order = replay(iv);
  r.alone = true;
  ValidatedRun av = validate(r);
  const RunResult alone = replay(av);
  ASSERT_EQ(alone.outcome.launches.size(), 4u);
  for (size_t i = 1; i < 4; ++i) {
    const auto misses = [&](const RunResult& x) {
      return x.outcome.launches[i].result.timing->stats.sum("l1i.", ".read_misses");
    };
    EXPECT_GT(misses(in_order), 0u) << "launch " << i;
    EXPECT_EQ(misses(alone), misses(in_order)) << "launch " << i;
  }
}

TEST_F(CaptureReplayErrors, AKernelLastRunLongBeforeFindsItsCodeWarmWhenReplayedAlone) {
  // resnet18's pooling kernel runs early (max pool) and again at the end (global average pool),
  // with more data between the two than the history's data window holds (here 1 MiB).
  CaptureSpec s;
  s.run.benchmark = "resnet18";
  s.run.params = {"input=32", "width_div=16", "classes=10"};
  s.run.threads = 2;
  s.output = (dir_ / "r.cap").string();
  s.recorder.history_bytes = uint64_t{1} << 20;
  capture(s);
  const auto cap = capture::CaptureFile::open(s.output);
  std::vector<uint64_t> pools;
  for (uint64_t i = 0; i < cap->index().launches.size(); ++i)
    if (cap->launch(i).dispatch.kernel_name == "pool") pools.push_back(i);
  ASSERT_GE(pools.size(), 2u);
  RunSpec r = replay_spec(s.output, "timing");
  r.launches = std::to_string(pools.back());
  ValidatedRun v = validate(r);
  const RunResult alone = replay(v);
  ASSERT_EQ(alone.outcome.launches.size(), 1u);
  const auto& t = alone.outcome.launches[0].result.timing;
  ASSERT_TRUE(t);
  EXPECT_GT(t->stats.sum("l1i.", ".reads"), 0u);
  // As many instruction misses as in the run of every launch in order.
  ValidatedRun all = validate(replay_spec(s.output, "timing"));
  const RunResult in_order = replay(all);
  const uint64_t misses = in_order.outcome.launches[pools.back()].result.timing->stats.sum("l1i.", ".read_misses");
  EXPECT_EQ(t->stats.sum("l1i.", ".read_misses"), misses);
  // Without a history, its code is cold.
  r.warm_state = "none";
  ValidatedRun cold = validate(r);
  EXPECT_GT(replay(cold).outcome.launches[0].result.timing->stats.sum("l1i.", ".read_misses"), misses);
}

}  // namespace
}  // namespace strobe::experiment

namespace strobe::experiment {
namespace {

TEST_F(CaptureReplayErrors, SharedCodeOfAWindowCutInsideItsOldestLaunchIsWarmInEveryShaderArray) {
  // A window smaller than one launch keeps only the newest part of the launch before the
  // replayed one. Its code, which every group runs, must still reach every shader array that ran
  // it: decided on part of the history, a code line seemed to have few groups, and went to their
  // arrays only, so the launch alone missed in the others where the in-order run did not.
  // N-body's groups each read every body, so the newest part is the last groups' reads; small
  // data caches make the fitted window (four times what they hold: 96 KiB) smaller than those
  // (4,096 bodies), and one CU an array makes eight arrays.
  const std::string file = capture_case({"nbody", {"n=4096", "steps=2"}});
  const std::vector<std::string> sets = {"gpu.num_cus=8", "gpu.cus_per_shader_array=1", "l2.size_kb=8",
                                         "l1v.size_kb=1", "scache.size_kb=1"};
  RunSpec o = replay_spec(file, "timing");
  o.sets = sets;
  ValidatedRun all = validate(o);
  const RunResult in_order = replay(all);
  ASSERT_EQ(in_order.outcome.launches.size(), 2u);
  RunSpec r = replay_spec(file, "timing");
  r.sets = sets;
  r.launches = "1";
  r.alone = true;
  r.warm_state = "fitted";
  ValidatedRun v = validate(r);
  const RunResult alone = replay(v);
  const auto misses = [](const RunResult& x, size_t i) {
    return x.outcome.launches[i].result.timing->stats.sum("l1i.", ".read_misses");
  };
  EXPECT_EQ(misses(alone, 0), misses(in_order, 1));
}

TEST_F(CaptureReplayErrors, ACaptureOnOneOrThreeHostThreadsHoldsTheSameContent) {
  std::vector<std::unique_ptr<capture::CaptureFile>> caps;
  for (uint32_t threads : {1u, 3u}) {
    CaptureSpec s;
    s.run.benchmark = "hotspot";
    s.run.params = {"rows=64", "cols=96", "iterations=3"};
    s.run.threads = threads;
    s.output = (dir_ / ("t" + std::to_string(threads) + ".cap")).string();
    capture(s);
    caps.push_back(capture::CaptureFile::open(s.output));
  }
  const capture::CaptureIndex& a = caps[0]->index();
  const capture::CaptureIndex& b = caps[1]->index();
  ASSERT_EQ(a.launches.size(), b.launches.size());
  ASSERT_EQ(a.blobs.size(), b.blobs.size());
  // The profile records how long its run took; everything else is content.
  for (size_t i = 0; i < a.blobs.size(); ++i)
    if (a.blobs[i].kind != capture::BlobKind::Profile) EXPECT_EQ(a.blobs[i].id, b.blobs[i].id) << "blob " << i;
  for (size_t i = 0; i < a.launches.size(); ++i) {
    EXPECT_EQ(a.launches[i].written_digest, b.launches[i].written_digest);
    EXPECT_EQ(a.launches[i].history, b.launches[i].history);
    EXPECT_EQ(a.launches[i].pages.size(), b.launches[i].pages.size());
  }
  const auto pa = capture::method_profile(*caps[0], 64, sampling::profile::ProfileDetail::units),
             pb = capture::method_profile(*caps[1], 64, sampling::profile::ProfileDetail::units);
  ASSERT_EQ(pa->launches.size(), pb->launches.size());
  for (size_t i = 0; i < pa->launches.size(); ++i) {
    EXPECT_EQ(pa->launches[i].waves.u64, pb->launches[i].waves.u64);
    EXPECT_EQ(pa->launches[i].blobs, pb->launches[i].blobs);
  }
}

}  // namespace
}  // namespace strobe::experiment

namespace strobe::experiment {
namespace {

TEST_F(CaptureReplayErrors, GpumechFromACapturesTracesPredictsWhatItDoesFromAProfilesWithoutRunningALaunch) {
  const std::vector<std::string> params = {"points=2048", "iterations=3"};
  const std::vector<std::string> sets = {"cu.scheduler=gto"};
  CaptureSpec cs;
  cs.run.benchmark = "kmeans";
  cs.run.params = params;
  cs.run.sets = sets;
  cs.run.threads = 2;
  cs.recorder.gpumech = true;
  cs.output = (dir_ / "g.cap").string();
  capture(cs);
  ProfileSpec ps;
  ps.run.benchmark = "kmeans";
  ps.run.params = params;
  ps.run.sets = sets;
  ps.gpumech = true;
  ps.output = (dir_ / "g.prof").string();
  profile(ps);

  RunSpec from_profile;
  from_profile.benchmark = "kmeans";
  from_profile.params = params;
  from_profile.sets = sets;
  from_profile.sampling = "gpumech";
  from_profile.profile = ps.output;
  ValidatedRun pv = validate(from_profile);
  const RunResult a = run(pv);
  RunSpec from_capture = replay_spec(cs.output, "timing");
  from_capture.sets = sets;
  from_capture.sampling = "gpumech";
  ValidatedRun cv = validate(from_capture);
  const RunResult b = replay(cv);
  ASSERT_EQ(a.outcome.launches.size(), b.outcome.launches.size());
  for (size_t i = 0; i < a.outcome.launches.size(); ++i) {
    EXPECT_EQ(a.outcome.launches[i].result.timing->cycles, b.outcome.launches[i].result.timing->cycles) << i;
    EXPECT_FALSE(b.outcome.launches[i].result.sampling->emulated) << i;
  }
  // --set without --gpumech configures nothing a capture holds.
  CaptureSpec bad = cs;
  bad.recorder.gpumech = false;
  bad.output = (dir_ / "b.cap").string();
  EXPECT_THROW(capture(bad), InputError);
}

}  // namespace
}  // namespace strobe::experiment
