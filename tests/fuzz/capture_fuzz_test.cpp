// Fuzzing captures (fuzz_harness.h): the whole file's bytes, which stop at its checksums, then a
// capture's index (of launches, and of graphics frames) and a launch's history damaged and sealed
// again with valid checksums, so that every field reaches its reader and a replay in detail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "capture/capture_file.h"
#include "capture/capture_index.h"
#include "capture/history.h"
#include "capture/replay.h"
#include "cli/cli_runner.h"
#include "common/error.h"
#include "experiment/capture.h"
#include "experiment/frame_run.h"
#include "experiment/run.h"
#include "experiment/run_spec.h"
#include "fuzz_harness.h"
#include "workloads/verify.h"

namespace strobe::fuzz {
namespace {

using clitest::run_strobe;
using clitest::slurp;
using clitest::TempDir;

TEST(FileFuzz, CapturesAreOpenedAndTheirBlobsReadOrRefusedWithInputError) {
  TempDir t;
  ASSERT_EQ(run_strobe("capture hotspot --param rows=64 --param cols=64 --param iterations=2 -o " +
                       (t.path / "w.cap").string()).rc, 0);
  const std::string seed = slurp(t.path / "w.cap");
  const fs::path file = t.path / "m.cap";
  const size_t refused = fuzz("capture", seed, false, mutants(1000), [&](const std::string& b) {
    const auto c = capture::CaptureFile::open(put(file, b));
    for (uint32_t i = 0; i < c->index().blobs.size(); ++i) (void)c->blob(i, c->index().blobs[i].kind);
    for (uint64_t i = 0; i < c->index().launches.size(); ++i) (void)c->launch(i);
  });
  EXPECT_GT(refused, 0u);
}

/// The work-items of a capture's largest launch.
uint64_t largest_launch(const capture::CaptureIndex& x) {
  uint64_t most = 0;
  for (const capture::LaunchRecord& l : x.launches)
    most = std::max(most, uint64_t(l.dispatch.grid[0]) * l.dispatch.grid[1] * l.dispatch.grid[2]);
  return most;
}

/// A kernel fault as the emulator names it: the kernel, work-group, wave, PC and instruction.
const std::regex kWaveFault(R"(^kernel \S+: work-group \(\d+,\d+,\d+\) wave \d+ PC 0x[0-9a-f]+ \[)");

/// The warm states a replay may start from; the fuzzed replays take each in turn.
const char* const kWarmStates[] = {"fitted", "history", "none"};

/// Fuzzes the index of the capture `strobe capture ARGS` writes: each mutant is sealed again
/// with a valid checksum, opened, its blobs, histories and profile read, and (unless `skip` says
/// it is a longer workload than the seed's, not a damaged one) replayed by `replay`, which may
/// count the outcomes it accepts. Returns how many mutants were replayed.
size_t fuzz_capture_index(const std::string& kind, const std::string& args, size_t count,
                          const std::function<bool(const capture::CaptureIndex& seed, const capture::CaptureIndex& m)>& skip,
                          const std::function<void(const std::string& file)>& replay) {
  TempDir t;
  EXPECT_EQ(run_strobe("capture " + args + " -o " + (t.path / "w.cap").string()).rc, 0);
  const std::string bytes = slurp(t.path / "w.cap");
  const std::string blobs = bytes.substr(0, capture::index_offset("w.cap", bytes));
  const capture::CaptureIndex x = capture::CaptureFile::open((t.path / "w.cap").string())->index();
  const fs::path file = t.path / "m.cap";
  size_t replayed = 0;
  const size_t refused = fuzz(kind, capture::pack_index(x), msgpack_mutator(kind), count, [&](const std::string& doc) {
    const auto c = capture::CaptureFile::open(put(file, blobs + capture::seal_index("m.cap", doc, blobs.size())));
    const capture::CaptureIndex& m = c->index();
    for (uint32_t i = 0; i < m.blobs.size(); ++i) (void)c->blob(i, m.blobs[i].kind);
    for (uint64_t i = 0; i < m.launches.size(); ++i) {
      const capture::LaunchRecord& l = c->launch(i);
      (void)capture::decode_history(c->blob(l.history, capture::BlobKind::History), l.history_entries, "history");
      (void)capture::decode_history(c->blob(l.code, capture::BlobKind::History), l.code_entries, "code");
    }
    for (const capture::FrameRecord& f : m.frames)
      (void)capture::decode_history(c->blob(f.history, capture::BlobKind::History), f.history_entries, "frame history");
    (void)capture::method_profile(*c, 64, sampling::profile::ProfileDetail::units);
    (void)capture::method_profile(*c, 64, sampling::profile::ProfileDetail::sums);
    if (skip(x, m)) return;
    replay(file.string());
    ++replayed;
  });
  EXPECT_GT(refused, 0u);
  EXPECT_GT(replayed, 0u) << "no mutant reached a replay: the harness tests only the index reader";
  return replayed;
}

TEST(FileFuzz, CaptureIndexesPastTheirChecksumAreReadAndReplayedOrRefused) {
  // Random edits of a capture stop at its checksums (the test above). Here the index itself is
  // damaged and sealed again with a valid checksum, so every field reaches the index reader, the
  // blob and history decoders, the profile reader and a replay in detail with verification. A
  // mutant whose launches stay within four times the seed's largest is replayed; a grown grid
  // is a valid, longer workload, not a fault, and the wave budget (above) bounds a wave that a
  // damaged entry address sends into a loop.
  size_t faulted = 0, unverified = 0, n = 0;
  const size_t replayed = fuzz_capture_index(
      "capture_index", "hotspot --param rows=64 --param cols=64 --param iterations=2", mutants(1000),
      [](const capture::CaptureIndex& seed, const capture::CaptureIndex& m) {
        return largest_launch(m) > 4 * largest_launch(seed);
      },
      [&](const std::string& file) {
        experiment::RunSpec s;
        s.workload = experiment::Workload::Capture;
        s.capture = file;
        s.mode = "timing";
        s.verify = true;
        s.threads = 1;
        // In order, or each launch alone warmed by each kind of warm state in turn.
        s.alone = n % 4 != 0;
        s.warm_state = kWarmStates[n++ % 3];
        experiment::ValidatedRun v = experiment::validate(s);
        try {
          (void)experiment::replay(v);
        } catch (const FaultError& e) {
          // A damaged dispatch faults, named down to the wave and instruction; any other fault
          // (the timing model's watchdog, an internal check) is strobe's, not the input's.
          const std::string m = e.what();
          if (verbose()) std::fprintf(stderr, "FAULTED capture_index: %s\n", m.substr(0, m.find('\n')).c_str());
          EXPECT_TRUE(std::regex_search(m, kWaveFault)) << "a fault that names no wave: " << m;
          ++faulted;
        } catch (const workloads::VerificationError& e) {
          // A damaged digest or checkpoint map: the replay names the launch whose results differ.
          const std::string m = e.what();
          if (verbose()) std::fprintf(stderr, "UNVERIFIED capture_index: %s\n", m.substr(0, m.find('\n')).c_str());
          EXPECT_NE(m.find("launch"), std::string::npos) << "a failed verification that names no launch: " << m;
          ++unverified;
        }
      });
  std::fprintf(stderr, "FUZZ capture_index replayed=%zu faulted=%zu unverified=%zu\n", replayed, faulted, unverified);
}

TEST(FileFuzz, FrameCaptureIndexesPastTheirChecksumAreReadAndReplayedOrRefused) {
  // The same for a capture of graphics frames (three of the small glmark2 capture's), each
  // replayed frame by frame in detail, alone and warmed from the history before it. A frame
  // draws what its checkpoint holds: no fault of a shader is expected, and none is accepted.
  const fs::path trace = fs::path(STROBE_BUILD_DIR) / "gfx-traces" / "glmark2-small.trace";
  if (!fs::exists(trace)) GTEST_SKIP() << "no " << trace << " (scripts/capture-gfx glmark2-small)";
  const size_t replayed = fuzz_capture_index(
      "frame_capture_index", "gfx:" + trace.string() + " --frames 0-2", mutants(300),
      [](const capture::CaptureIndex&, const capture::CaptureIndex&) { return false; },
      [n = size_t{0}](const std::string& file) mutable {
        experiment::FrameRunSpec s;
        s.frames.workload = file;
        s.frames.warm_state = kWarmStates[n++ % 3];
        s.mode = "timing";
        s.alone = true;
        (void)experiment::run_frames(experiment::validate(s), [](const report::FrameRecord&) {});
      });
  std::fprintf(stderr, "FUZZ frame_capture_index replayed=%zu\n", replayed);
}

TEST(FileFuzz, CaptureHistoriesPastTheirChecksumAreReplayedOrRefused) {
  // A launch's history (the lines it touched) is what a launch replayed alone after it warms its
  // caches from. Here launch 0's history is damaged and stored again as a valid blob, its entry
  // count in the index matching, and every later launch is replayed alone in detail from it: the
  // decoder checks each entry, the warm walk then takes any line, work-group, path and step.
  // Half the mutants edit entries (a field made extreme or random, an entry dropped or
  // repeated), half the encoded bytes. A history changes what caches hold, never what a kernel
  // computes, so no fault is accepted; a failed verification is, since the written digest covers
  // the lines the history says the launch wrote (capture/checkpoint.h).
  TempDir t;
  ASSERT_EQ(run_strobe("capture hotspot --param rows=64 --param cols=64 --param iterations=3 -o " +
                       (t.path / "w.cap").string()).rc, 0);
  const auto seed = capture::CaptureFile::open((t.path / "w.cap").string());
  const capture::CaptureIndex& x = seed->index();
  ASSERT_GE(x.launches.size(), 2u);
  const uint32_t victim = x.launches[0].history;
  const std::vector<capture::HistoryEntry> entries =
      capture::decode_history(seed->blob(victim, capture::BlobKind::History), x.launches[0].history_entries, "h");
  ASSERT_FALSE(entries.empty());
  std::mt19937_64 rng(std::hash<std::string>{}("capture_history"));
  Mutator bytewise(std::hash<std::string>{}("capture_history"), false);
  uint64_t count = entries.size();  // the mutant's entries (the seed's first), which the index then says
  size_t n = 0;
  const auto mutate = [&](const std::string& bytes) {
    if (n++ % 2) {
      count = entries.size();
      return bytewise(bytes);
    }
    std::vector<capture::HistoryEntry> e = entries;
    for (int k = 0, edits = 1 + int(rng() % 4); k < edits && !e.empty(); ++k) {
      capture::HistoryEntry& h = e[rng() % e.size()];
      const uint64_t extreme = rng() % 2 ? rng() : ~uint64_t{0} >> (rng() % 64);
      switch (rng() % 7) {
        case 0: h.granule = extreme; break;
        case 1: h.group = uint32_t(extreme); break;
        case 2: h.path = uint8_t(rng() % 4); break;
        case 3: h.flags = uint8_t(1 + rng() % 7); break;
        case 4: h.step = uint32_t(extreme); break;
        case 5: e.erase(e.begin() + std::ptrdiff_t(&h - e.data())); break;
        default: e.push_back(h); break;
      }
    }
    count = e.size();
    return capture::encode_history(e);
  };
  const fs::path file = t.path / "m.cap";
  size_t replayed = 0, unverified = 0;
  const size_t refused = fuzz("capture_history", seed->blob(victim, capture::BlobKind::History), mutate, mutants(200),
                              [&](const std::string& history) {
    {
      capture::CaptureWriter w(file.string());
      for (uint32_t i = 0; i < x.blobs.size(); ++i) {
        const capture::BlobInfo& b = x.blobs[i];
        const uint32_t id = i == victim ? w.put(b.kind, history) : w.put_stored(b, seed->stored_blob(i), b.base);
        if (id != i) return;  // the mutant equals another blob: the ids would shift (rare)
      }
      capture::CaptureIndex y = x;
      y.launches[0].history_entries = count;
      w.finish(y);
    }
    experiment::RunSpec s;
    s.workload = experiment::Workload::Capture;
    s.capture = file.string();
    s.mode = "timing";
    s.alone = true;
    s.warm_state = "history";
    s.verify = true;
    s.threads = 1;
    experiment::ValidatedRun v = experiment::validate(s);
    try {
      (void)experiment::replay(v);
    } catch (const workloads::VerificationError&) {
      ++unverified;
    }
    ++replayed;
  });
  std::fprintf(stderr, "FUZZ capture_history replayed=%zu unverified=%zu\n", replayed, unverified);
  EXPECT_GT(refused, 0u);
  EXPECT_GT(replayed, 0u) << "no mutant reached a replay";
}

}  // namespace
}  // namespace strobe::fuzz
