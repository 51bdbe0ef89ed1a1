// The standing fuzz harness for every kind of file strobe reads: profiles, captures, frames,
// journals, sweep specs, set files, GPU configurations and result JSON. Each kind starts from a
// real file strobe wrote (or ships), mutated deterministically (bit flips, boundary bytes,
// truncations, deletions, duplications, insertions, and for text huge or negative numbers), and
// every mutant must be read or refused with InputError (or, for input strobe does not support
// yet, NotImplementedError): any other exception fails the test, with
// the mutant saved for replay, and a crash fails it by itself. The process runs under a 4 GiB
// address-space limit, so a size read from a damaged file cannot allocate without bound.
//
// The counts are the CI's short run; STROBE_FUZZ_SCALE=N multiplies them for the long run
// (scripts/fuzz-files, which also runs them under AddressSanitizer).
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "capture/capture_file.h"
#include "cli/cli_runner.h"
#include "common/error.h"
#include "experiment/journal.h"
#include "experiment/sweep.h"
#include "gfx/stream/frame_file.h"
#include "gfx/stream/frame_stream.h"
#include "loader/code_object.h"
#include "report/page.h"
#include "sampling/profile/profile_file.h"
#include "timing/config/gpu_config.h"
#include "workloads/bench_set.h"

namespace strobe::fuzz {
namespace {

namespace fs = std::filesystem;
using clitest::run_strobe;
using clitest::slurp;
using clitest::TempDir;

/// Mutants per kind in one run: the short run's count times STROBE_FUZZ_SCALE.
size_t mutants(size_t base) {
  const char* s = std::getenv("STROBE_FUZZ_SCALE");
  const long scale = s ? std::strtol(s, nullptr, 10) : 1;
  return base * size_t(scale > 0 ? scale : 1);
}

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

/// File descriptors this process holds.
size_t open_fds() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

/// Runs `read` on `count` mutants of `seed`: each must be read or refused with InputError (or
/// NotImplementedError), and none may leave a file descriptor open.
/// Returns how many were refused; fails naming the first other exception, its mutant saved.
size_t fuzz(const std::string& kind, const std::string& seed, bool text, size_t count,
            const std::function<void(const std::string&)>& read) {
  // A size from a damaged file must be refused, not allocated: 4 GiB of address space at most.
  rlimit old{};
  getrlimit(RLIMIT_AS, &old);
  rlimit cap = old;
  cap.rlim_cur = std::min<rlim_t>(old.rlim_cur, rlim_t{4} << 30);
  setrlimit(RLIMIT_AS, &cap);
  read(seed);  // the seed itself reads
  const size_t fds = open_fds();
  Mutator m(std::hash<std::string>{}(kind), text);
  size_t refused = 0;
  for (size_t i = 0; i < count; ++i) {
    const std::string mutant = m(seed);
    try {
      read(mutant);
    } catch (const InputError&) {
      ++refused;
    } catch (const NotImplementedError&) {
      ++refused;  // a well-formed input strobe does not support yet (a GL program without shaders), named as such
    } catch (const std::exception& e) {
      const std::string keep = (fs::temp_directory_path() / ("strobe-fuzz-" + kind + "-" + std::to_string(i))).string();
      std::ofstream(keep, std::ios::binary) << mutant;
      setrlimit(RLIMIT_AS, &old);
      ADD_FAILURE() << kind << " mutant " << i << " (saved as " << keep << "): not InputError but "
                    << typeid(e).name() << ": " << e.what();
      return refused;
    }
  }
  setrlimit(RLIMIT_AS, &old);
  EXPECT_LE(open_fds(), fds) << kind << ": reading " << count << " mutants left file descriptors open";
  ::testing::Test::RecordProperty(kind + "_mutants", int(count));
  ::testing::Test::RecordProperty(kind + "_refused", int(refused));
  std::fprintf(stderr, "FUZZ %s mutants=%zu refused=%zu read=%zu\n", kind.c_str(), count, refused, count - refused);
  return refused;
}

/// Writes `bytes` to `path` and returns the path.
std::string put(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

TEST(FileFuzz, ProfilesAreReadOrRefusedWithInputError) {
  TempDir t;
  ASSERT_EQ(run_strobe("profile hotspot --param rows=64 --param cols=64 --param iterations=2 -o " +
                       (t.path / "p.prof").string()).rc, 0);
  const std::string seed = slurp(t.path / "p.prof");
  const size_t refused = fuzz("profile", seed, false, mutants(2000),
                              [](const std::string& b) { (void)sampling::profile::decode(b, "p.prof"); });
  EXPECT_GT(refused, 0u) << "no mutant was refused: the mutator does not reach the reader";
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
  const size_t refused = fuzz("frame", seed, false, mutants(2000),
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
  EXPECT_GT(fuzz("set_result", slurp(set), true, mutants(1000), page), 0u);
  EXPECT_GT(fuzz("run_result", slurp(run), true, mutants(1000), page), 0u);
}

}  // namespace
}  // namespace strobe::fuzz
