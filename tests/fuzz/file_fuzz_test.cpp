// The standing fuzz harness for every kind of file strobe reads: profiles, captures, frames,
// journals, sweep specs, set files, GPU configurations and result JSON. Each kind starts from a
// real file strobe wrote (or ships), mutated deterministically (bit flips, boundary bytes,
// truncations, deletions, duplications, insertions, and for text huge or negative numbers), and
// every mutant must be read or refused with InputError (or, for input strobe does not support
// yet, NotImplementedError): any other exception fails the test, with
// the mutant saved for replay, and a crash fails it by itself. The process runs under a 4 GiB
// address-space limit, so a size read from a damaged file cannot allocate without bound.
//
// Damage a reader refuses at its first check teaches little, so the harness also reaches past
// each container's checks: msgpack documents (profiles, frames, a capture's index) are also
// mutated field by field (TreeMutator) and packed again; a capture's index (of launches or of
// graphics frames) and a launch's history are damaged and sealed again with valid checksums,
// then replayed in detail; and a profile that reads is given to every method that reads one.
//
// The counts are the CI's short run; STROBE_FUZZ_SCALE=N multiplies them for the long run
// (scripts/fuzz-files, which also runs them under AddressSanitizer). STROBE_FUZZ_VERBOSE=1 prints
// every refusal's message, to see which checks the mutants reach, and keeps the mutant being
// read in /tmp/strobe-fuzz-KIND-current, for a crash.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "capture/capture_file.h"
#include "capture/capture_index.h"
#include "capture/history.h"
#include "capture/replay.h"
#include "cli/cli_runner.h"
#include "common/error.h"
#include "experiment/capture.h"
#include "experiment/frame_run.h"
#include "experiment/frame_runs.h"
#include "experiment/journal.h"
#include "experiment/run.h"
#include "experiment/run_spec.h"
#include "experiment/sweep.h"
#include "gfx/pipeline/image_compare.h"
#include "gfx/stream/frame_file.h"
#include "gfx/stream/frame_stream.h"
#include "loader/code_object.h"
#include "report/page.h"
#include "sampling/method.h"
#include "sampling/pka/pass_state.h"
#include "sampling/profile/profile_file.h"
#include "sampling/simprof/training.h"
#include "timing/config/gpu_config.h"
#include "workloads/bench_set.h"
#include "workloads/verify.h"

namespace strobe::fuzz {
namespace {

namespace fs = std::filesystem;
using clitest::run_strobe;
using clitest::slurp;
using clitest::TempDir;

// A damaged entry address or descriptor can send a replayed wave into a loop, which the emulator
// ends after its wave budget (emu::max_wave_instructions). The process reads the budget once:
// set it before main, far above any wave of the seeds and far below the default 2^30.
[[maybe_unused]] const bool kWaveBudget = ::setenv("STROBE_MAX_WAVE_INSTRUCTIONS", "1000000", 0) == 0;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;  // GCC's -fsanitize=address
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;  // Clang's
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

/// Mutants per kind in one run: the short run's count times STROBE_FUZZ_SCALE.
size_t mutants(size_t base) {
  const char* s = std::getenv("STROBE_FUZZ_SCALE");
  const long scale = s ? std::strtol(s, nullptr, 10) : 1;
  return base * size_t(scale > 0 ? scale : 1);
}

/// Whether STROBE_FUZZ_VERBOSE asks for every refusal's and fault's message: how deep mutants reach.
bool verbose() { return std::getenv("STROBE_FUZZ_VERBOSE") != nullptr; }

/// A deterministic mutator: 1 to 4 edits of the kinds that break a reader's assumptions.
class Mutator {
 public:
  Mutator(uint64_t seed, bool text) : rng_(seed), text_(text) {}
  std::string operator()(const std::string& in) {
    std::string s = in;
    const int edits = 1 + int(rng_() % 4);
    for (int e = 0; e < edits && !s.empty(); ++e) edit(s);
    return s;
  }

 private:
  size_t at(const std::string& s) { return size_t(rng_() % s.size()); }
  void edit(std::string& s) {
    static const char boundary[] = {'\0', '\x7f', '\x80', '\xff', '\x01', '\xfe'};
    static const char* numbers[] = {"1e62", "-1", "99999999999999999999", "4294967296", "-0", "nan", "1.5"};
    switch (rng_() % (text_ ? 8 : 7)) {
      case 0: s[at(s)] ^= char(1 << (rng_() % 8)); break;                  // a bit flipped
      case 1: s[at(s)] = boundary[rng_() % std::size(boundary)]; break;    // a boundary byte
      case 2: s.resize(at(s)); break;                                      // truncated
      case 3: {                                                            // a span deleted
        const size_t p = at(s);
        s.erase(p, 1 + rng_() % std::min<size_t>(64, s.size() - p));
        break;
      }
      case 4: {                                                            // a span duplicated
        const size_t p = at(s), n = 1 + rng_() % std::min<size_t>(64, s.size() - p);
        s.insert(p, s.substr(p, n));
        break;
      }
      case 5: {                                                            // random bytes inserted
        std::string r(1 + rng_() % 8, '\0');
        for (char& c : r) c = char(rng_());
        s.insert(at(s), r);
        break;
      }
      case 6: {                                                            // a 4-byte word set to an extreme
        if (s.size() < 4) break;
        const size_t p = at(s) & ~size_t{3};
        const uint32_t v = rng_() % 2 ? 0xffffffffu : 0x7fffffffu;
        for (size_t i = 0; i < 4 && p + i < s.size(); ++i) s[p + i] = char(v >> (8 * i));
        break;
      }
      default: {                                                           // a number made extreme (text)
        size_t p = at(s);
        while (p < s.size() && !std::isdigit(static_cast<unsigned char>(s[p]))) ++p;
        if (p == s.size()) break;
        size_t q = p;
        while (q < s.size() && (std::isdigit(static_cast<unsigned char>(s[q])) || s[q] == '.')) ++q;
        s.replace(p, q - p, numbers[rng_() % std::size(numbers)]);
      }
    }
  }
  std::mt19937_64 rng_;
  bool text_;
};

/// A structure-aware mutator of msgpack documents: 1 to 3 edits of nodes of the decoded tree (a
/// number made extreme or nudged, a string or binary's bytes changed, an array element dropped,
/// duplicated or swapped, a map's key removed, a value of another type), packed again. Byte edits
/// mostly break the encoding, which the reader refuses before any field; these keep a document
/// that parses, with fields wrong, so every field's check is reached.
class TreeMutator {
 public:
  explicit TreeMutator(uint64_t seed) : rng_(seed) {}
  std::string operator()(const std::string& msgpack) {
    nlohmann::json j = nlohmann::json::from_msgpack(msgpack);
    const int edits = 1 + int(rng_() % 3);
    for (int e = 0; e < edits; ++e) edit(pick(j));
    const std::vector<uint8_t> out = nlohmann::json::to_msgpack(j);
    return std::string(out.begin(), out.end());
  }

 private:
  /// A node: down from the root, stopping at each level with probability 1/8, or at a leaf.
  nlohmann::json& pick(nlohmann::json& j) {
    nlohmann::json* n = &j;
    while ((n->is_array() || n->is_object()) && !n->empty() && rng_() % 8 != 0) {
      auto it = n->begin();
      std::advance(it, rng_() % n->size());
      n = &*it;
    }
    return *n;
  }
  void edit(nlohmann::json& n) {
    static const nlohmann::json other[] = {nullptr, "x", -7, 1.5, nlohmann::json::array(), nlohmann::json::object(), true};
    if (rng_() % 8 == 0) {  // a value of another type
      n = other[rng_() % std::size(other)];
      return;
    }
    if (n.is_number_integer()) {
      const uint64_t v = n.is_number_unsigned() ? n.get<uint64_t>() : uint64_t(n.get<int64_t>());
      switch (rng_() % 8) {
        case 0: n = 0; break;
        case 1: n = -1; break;
        case 2: n = v + 1; break;
        case 3: n = v - 1; break;
        case 4: n = v * 2; break;
        case 5: n = v ^ (uint64_t{1} << (rng_() % 64)); break;
        case 6: n = uint64_t{UINT32_MAX} + (rng_() % 3) - 1; break;
        default: n = UINT64_MAX - rng_() % 2; break;
      }
    } else if (n.is_number_float()) {
      static const double extreme[] = {0.0, -1.0, 1e300, std::numeric_limits<double>::quiet_NaN(),
                                       std::numeric_limits<double>::infinity()};
      n = extreme[rng_() % std::size(extreme)];
    } else if (n.is_string()) {
      std::string t = n.get<std::string>();
      if (!t.empty() && rng_() % 2) t.resize(rng_() % t.size());
      else t += char(rng_());
      n = t;
    } else if (n.is_binary()) {
      auto& b = n.get_binary();
      if (b.empty() || rng_() % 4 == 0) b.resize(b.empty() ? 1 : rng_() % b.size());
      else if (rng_() % 2) b[rng_() % b.size()] ^= uint8_t(1 << (rng_() % 8));
      else for (size_t k = rng_() % b.size() & ~size_t{3}, e = std::min(k + 4, b.size()); k < e; ++k) b[k] = 0xff;
    } else if (n.is_boolean()) {
      n = !n.get<bool>();
    } else if (n.is_array() && !n.empty()) {
      const size_t i = rng_() % n.size(), k = rng_() % n.size();
      switch (rng_() % 3) {
        case 0: n.erase(i); break;
        case 1: n.insert(n.begin() + std::ptrdiff_t(i), n[i]); break;
        default: std::swap(n[i], n[k]); break;
      }
    } else if (n.is_object() && !n.empty()) {
      auto it = n.begin();
      std::advance(it, rng_() % n.size());
      n.erase(it);
    } else {
      n = 0;
    }
  }
  std::mt19937_64 rng_;
};

/// File descriptors this process holds.
size_t open_fds() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

/// Runs `read` on `count` mutants of `seed`: each must be read or refused with InputError (or
/// NotImplementedError), and none may leave a file descriptor open.
/// Returns how many were refused; fails naming the first other exception, its mutant saved.
size_t fuzz(const std::string& kind, const std::string& seed, const std::function<std::string(const std::string&)>& mutate,
            size_t count, const std::function<void(const std::string&)>& read) {
  // A size from a damaged file must be refused, not allocated: 4 GiB of address space at most.
  // AddressSanitizer reserves terabytes of shadow, so under it the bound is its own on one
  // allocation (scripts/fuzz-files --asan sets max_allocation_size_mb), which aborts the run.
  rlimit old{};
  getrlimit(RLIMIT_AS, &old);
  rlimit cap = old;
  cap.rlim_cur = std::min<rlim_t>(old.rlim_cur, rlim_t{4} << 30);
  if (!kSanitized) setrlimit(RLIMIT_AS, &cap);
  read(seed);  // the seed itself reads
  const size_t fds = open_fds();
  size_t refused = 0;
  for (size_t i = 0; i < count; ++i) {
    const std::string mutant = mutate(seed);
    // A crash saves nothing: verbose runs keep the mutant being read where the crash leaves it.
    if (verbose()) std::ofstream(fs::temp_directory_path() / ("strobe-fuzz-" + kind + "-current"), std::ios::binary) << mutant;
    try {
      read(mutant);
    } catch (const InputError& e) {
      if (verbose()) std::fprintf(stderr, "REFUSED %s: %s\n", kind.c_str(), e.what());
      ++refused;
    } catch (const NotImplementedError&) {
      ++refused;  // a well-formed input strobe does not support yet (a GL program without shaders), named as such
    } catch (const std::exception& e) {
      const std::string keep = (fs::temp_directory_path() / ("strobe-fuzz-" + kind + "-" + std::to_string(i))).string();
      std::ofstream(keep, std::ios::binary) << mutant;
      if (!kSanitized) setrlimit(RLIMIT_AS, &old);
      ADD_FAILURE() << kind << " mutant " << i << " (saved as " << keep << "): not InputError but "
                    << typeid(e).name() << ": " << e.what();
      return refused;
    }
  }
  if (!kSanitized) setrlimit(RLIMIT_AS, &old);
  EXPECT_LE(open_fds(), fds) << kind << ": reading " << count << " mutants left file descriptors open";
  ::testing::Test::RecordProperty(kind + "_mutants", int(count));
  ::testing::Test::RecordProperty(kind + "_refused", int(refused));
  std::fprintf(stderr, "FUZZ %s mutants=%zu refused=%zu read=%zu\n", kind.c_str(), count, refused, count - refused);
  return refused;
}

/// fuzz() with the byte mutator, seeded by the kind's name.
size_t fuzz(const std::string& kind, const std::string& seed, bool text, size_t count,
            const std::function<void(const std::string&)>& read) {
  Mutator m(std::hash<std::string>{}(kind), text);
  return fuzz(kind, seed, std::ref(m), count, read);
}

/// A mutator for msgpack documents: byte edits (Mutator) and tree edits (TreeMutator) in turn,
/// seeded by the kind's name.
std::function<std::string(const std::string&)> msgpack_mutator(const std::string& kind) {
  auto bytewise = std::make_shared<Mutator>(std::hash<std::string>{}(kind), false);
  auto treewise = std::make_shared<TreeMutator>(std::hash<std::string>{}(kind));
  auto n = std::make_shared<size_t>(0);
  return [=](const std::string& doc) { return (*n)++ % 2 ? (*bytewise)(doc) : (*treewise)(doc); };
}

/// The same for JSON documents: text edits (Mutator) and tree edits in turn, the tree edited
/// through its msgpack form and written back as JSON text.
std::function<std::string(const std::string&)> json_mutator(const std::string& kind) {
  auto textwise = std::make_shared<Mutator>(std::hash<std::string>{}(kind), true);
  auto treewise = std::make_shared<TreeMutator>(std::hash<std::string>{}(kind));
  auto n = std::make_shared<size_t>(0);
  return [=](const std::string& doc) {
    if ((*n)++ % 2) return (*textwise)(doc);
    const std::vector<uint8_t> packed = nlohmann::json::to_msgpack(nlohmann::json::parse(doc));
    const std::string edited = (*treewise)(std::string(packed.begin(), packed.end()));
    return nlohmann::json::from_msgpack(edited).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
}

/// Writes `bytes` to `path` and returns the path.
std::string put(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

TEST(FileFuzz, ProfilesAreReadOrRefusedWithInputError) {
  TempDir t;
  ASSERT_EQ(run_strobe("profile hotspot --param rows=64 --param cols=64 --param iterations=2 --gpumech -o " +
                       (t.path / "p.prof").string()).rc, 0);
  const std::string seed = slurp(t.path / "p.prof");
  // The profile is one msgpack document: half the mutants edit its bytes, half its fields. One
  // that reads is given to every method that reads profiles, on the workload it profiled: the
  // reader checks each field alone, the methods then trust the profile as a whole.
  std::vector<std::string> readers;
  for (const auto& [name, info] : sampling::methods())
    if (info.reads_profile) readers.push_back(name);
  ASSERT_FALSE(readers.empty());
  const fs::path file = t.path / "m.prof";
  // A profile changes what a method selects and predicts, never what the kernels compute: a
  // fault or a verification failure here is the method's, so neither is accepted.
  size_t runs = 0;
  const size_t refused = fuzz("profile", seed, msgpack_mutator("profile"), mutants(2000), [&](const std::string& b) {
    (void)sampling::profile::decode(b, "p.prof");
    put(file, b);
    for (const std::string& m : readers) {
      experiment::RunSpec s;
      s.benchmark = "hotspot";
      s.params = {"rows=64", "cols=64", "iterations=2"};
      s.sampling = m;
      s.sets = {"cu.scheduler=gto"};  // a policy every method models (GPUMech: rr and gto only)
      s.profile = file.string();
      s.verify = true;
      s.threads = 1;
      experiment::ValidatedRun v = experiment::validate(s);
      (void)experiment::run(v);
      ++runs;
    }
  });
  std::fprintf(stderr, "FUZZ profile sampled_runs=%zu (%zu methods)\n", runs, readers.size());
  EXPECT_GT(refused, 0u) << "no mutant was refused: the mutator does not reach the reader";
  EXPECT_GT(runs, 0u) << "no mutant reached a method";
}

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
    (void)capture::method_profile(*c, 64);
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
        } catch (const FaultError&) {
          ++faulted;  // a damaged dispatch faults, named down to the wave and instruction
        } catch (const workloads::VerificationError&) {
          ++unverified;  // a damaged digest or checkpoint map: the replay says its results differ
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

TEST(FileFuzz, MethodStatesFrameRunsAndReferenceImagesAreReadOrRefusedWithInputError) {
  TempDir t;
  // A SimProf training (training=), saved by a run and read by another on the same workload;
  // one that reads is applied by such a run, which must then finish or refuse it by name.
  const std::string bench = "hotspot --param rows=64 --param cols=64 --param iterations=4";
  const std::string training = (t.path / "t.json").string();
  ASSERT_EQ(run_strobe("run " + bench + " --sampling simprof --sampling-set proxy=gpumech --sampling-set save_training=" +
                       training + " --set cu.scheduler=gto")
                .rc,
            0);
  const fs::path trained = t.path / "m.json";
  size_t applied = 0;
  EXPECT_GT(fuzz("simprof_training", slurp(training), json_mutator("simprof_training"), mutants(300),
                 [&](const std::string& b) {
                   (void)sampling::simprof::decode_training(b, "t.json");
                   experiment::RunSpec s;
                   s.benchmark = "hotspot";
                   s.params = {"rows=64", "cols=64", "iterations=4"};
                   s.sampling = "simprof";
                   s.sampling_sets = {"proxy=gpumech", "training=" + put(trained, b)};
                   s.sets = {"cu.scheduler=gto"};
                   s.threads = 1;
                   experiment::ValidatedRun v = experiment::validate(s);
                   (void)experiment::run(v);
                   ++applied;
                 }),
            0u);
  EXPECT_GT(applied, 0u) << "no training reached a run";
  // A PKA pass state (a host program's run carries it from one pass's process to the next).
  sampling::pka::PassState st;
  st.workload = {"program", "/opt/app", {"--size", "64"}};
  sampling::pka::ProfiledLaunch l;
  l.id = {"step", 0xfedcba9876543210ull, {4096, 1, 1}, {64, 1, 1}, 0x0123456789abcdefull};
  l.profile.kernel = "step";
  for (int f = 0; f < sampling::kPkaFeatures; ++f) l.profile.features[size_t(f)] = 1.0 / (f + 3);
  l.profile.stats.wave_instructions = 1664;
  st.launches = {l, l};
  EXPECT_GT(fuzz("pka_pass_state", sampling::pka::encode(st), json_mutator("pka_pass_state"), mutants(1000),
                 [](const std::string& b) { (void)sampling::pka::decode(b, "state.json"); }),
            0u);
  // Graphics run files that stand in for a comparison's reference or profile
  // (--reference-runs, --profile-runs), and the reference renderer's images (--reference).
  const fs::path trace = fs::path(STROBE_BUILD_DIR) / "gfx-traces" / "glmark2-small.trace";
  if (!fs::exists(trace)) GTEST_SKIP() << "no " << trace << " (scripts/capture-gfx glmark2-small)";
  const std::string timed = (t.path / "r.json").string(), counted = (t.path / "p.json").string();
  ASSERT_EQ(run_strobe("run gfx:" + trace.string() + " --frames 0-1 --mode timing --json " + timed).rc, 0);
  ASSERT_EQ(run_strobe("run gfx:" + trace.string() + " --frames 0-1 --json " + counted).rc, 0);
  experiment::FrameSpec fs;
  fs.workload = "gfx:" + trace.string();
  fs.frames = "0-1";
  const experiment::FrameTarget target = experiment::resolve(fs);
  const fs::path run_file = t.path / "m.run.json";
  EXPECT_GT(fuzz("frame_timing_run", slurp(timed), json_mutator("frame_timing_run"), mutants(1000),
                 [&](const std::string& b) {
                   nlohmann::json sources;
                   (void)experiment::reference_from_runs({put(run_file, b)}, target, sources);
                 }),
            0u);
  EXPECT_GT(fuzz("frame_functional_run", slurp(counted), json_mutator("frame_functional_run"), mutants(1000),
                 [&](const std::string& b) {
                   nlohmann::json sources;
                   (void)experiment::profile_from_runs({put(run_file, b)}, target, sources);
                 }),
            0u);
  // The reference renderer's stream of binary PPM images, one per frame.
  const std::string images = slurp(trace.parent_path() / "glmark2-small.ref.pnm");
  ASSERT_FALSE(images.empty());
  const fs::path pnm = t.path / "m.pnm";
  EXPECT_GT(fuzz("reference_images", images, false, mutants(1000),
                 [&](const std::string& b) { (void)gfx::read_pnm_stream(put(pnm, b)); }),
            0u);
}

TEST(FileFuzz, FramesAreDecodedOrRefusedWithInputError) {
  std::vector<std::vector<uint8_t>> store;
  const gfx::PutContent keep = [&](const std::vector<uint8_t>& b) {
    store.push_back(b);
    return uint64_t(store.size() - 1);
  };
  gfx::GlFrame frame;
  gfx::GlClear clear;
  clear.fixed.target.width = 400;
  clear.fixed.target.height = 300;
  frame.ops.push_back(clear);
  frame.ops.push_back(clear);
  const std::string seed = gfx::encode_frame(frame, 7, keep);
  const gfx::GetContent get = [&](uint64_t i) {
    if (i >= store.size()) throw InputError("no content " + std::to_string(i));
    return std::make_shared<const std::vector<uint8_t>>(store[i]);
  };
  // A frame is one msgpack document: half the mutants edit its bytes, half its fields.
  const size_t refused = fuzz("frame", seed, msgpack_mutator("frame"), mutants(2000),
                              [&](const std::string& b) { (void)gfx::decode_frame(b, get, "frame 7"); });
  EXPECT_GT(refused, 0u);
}

TEST(FileFuzz, CodeObjectsAreParsedOrRefusedWithInputError) {
  // The loader's own robustness test mutates every code object's headers and tables; this is the
  // same reader under the harness's mutations, counted with the other kinds.
  const std::string seed = slurp(clitest::kernel("vecadd"));
  ASSERT_FALSE(seed.empty());
  EXPECT_GT(fuzz("code_object", seed, false, mutants(2000),
                 [](const std::string& b) {
                   (void)loader::CodeObject::parse(std::vector<uint8_t>(b.begin(), b.end()), "k.hsaco");
                 }),
            0u);
}

TEST(FileFuzz, ApitraceTracesAreReplayedOrRefusedWithInputError) {
  // Each mutant is a whole trace read frame by frame through the state tracker (the small
  // glmark2 capture scripts/setup makes); most end early, in its compressed container.
  const fs::path trace = fs::path(STROBE_BUILD_DIR) / "gfx-traces" / "glmark2-small.trace";
  if (!fs::exists(trace)) GTEST_SKIP() << "no " << trace << " (scripts/capture-gfx glmark2-small)";
  TempDir t;
  const fs::path file = t.path / "m.trace";
  EXPECT_GT(fuzz("trace", slurp(trace), false, mutants(1000),
                 [&](const std::string& b) {
                   gfx::FrameStream stream(put(file, b), {{0, UINT64_MAX}});
                   gfx::GlFrame f;
                   uint64_t index = 0;
                   while (stream.next(f, index)) {
                   }
                 }),
            0u);
}

TEST(FileFuzz, SweepSpecsSetFilesAndGpuConfigurationsAreParsedOrRefusedWithInputError) {
  TempDir t;
  const std::string spec = "workloads = [\"vecadd --param n=1024\", \"hotspot --param rows=64\"]\n"
                           "methods = [\"photon\", \"tbpoint\"]\nrepeat = 1\n[grid]\n\"gpu.num_cus\" = [8, 16]\n"
                           "\"l2.size_kb\" = [512, 1024]\n";
  EXPECT_GT(fuzz("sweep_spec", spec, true, mutants(2000),
                 [](const std::string& b) { (void)experiment::expand(experiment::parse_sweep(b, "s.toml")); }),
            0u);
  const std::string set = slurp(fs::path(STROBE_SOURCE_DIR) / "configs/sets/smoke.toml");
  const fs::path set_file = t.path / "s.toml";
  EXPECT_GT(fuzz("set_file", set, true, mutants(1000),
                 [&](const std::string& b) { (void)workloads::load_set_file(put(set_file, b), "eval"); }),
            0u);
  const std::string arch = slurp(fs::path(STROBE_SOURCE_DIR) / "configs/r9nano.toml");
  const fs::path arch_file = t.path / "a.toml";
  EXPECT_GT(fuzz("gpu_config", arch, true, mutants(1000),
                 [&](const std::string& b) { (void)timing::load_config(put(arch_file, b)); }),
            0u);
}

TEST(FileFuzz, JournalsAndResultFilesAreReadOrRefusedWithInputError) {
  TempDir t;
  const std::string journal = (t.path / "j.jsonl").string(), set = (t.path / "set.json").string(),
                    run = (t.path / "run.json").string();
  ASSERT_EQ(run_strobe("compare --set smoke --size ci --sampling photon --repeat 1 --journal " + journal +
                       " --json " + set).rc, 0);
  ASSERT_EQ(run_strobe("run vecadd --param n=4096 --mode timing --json " + run).rc, 0);
  const fs::path file = t.path / "m.jsonl";
  EXPECT_GT(fuzz("journal", slurp(journal), true, mutants(1000),
                 [&](const std::string& b) { experiment::RunJournal j(put(file, b)); }),
            0u);
  const auto page = [](const std::string& b) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(b);
    } catch (const nlohmann::json::exception& e) {
      throw InputError(std::string("not JSON: ") + e.what());  // strobe report's own first check
    }
    (void)report::report_page({{"r.json", j}});
  };
  EXPECT_GT(fuzz("set_result", slurp(set), json_mutator("set_result"), mutants(1000), page), 0u);
  EXPECT_GT(fuzz("run_result", slurp(run), json_mutator("run_result"), mutants(1000), page), 0u);
}

}  // namespace
}  // namespace strobe::fuzz
