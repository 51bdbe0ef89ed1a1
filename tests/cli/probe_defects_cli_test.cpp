// Regression tests for the defects an outside probe found (each named after its number in the
// probe's list): bad input and odd outputs get one clear error or the right behaviour.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.h"

namespace {

namespace fs = std::filesystem;
using strobe::clitest::CliResult;
using strobe::clitest::run_strobe;
using strobe::clitest::TempDir;
using ::testing::HasSubstr;

TEST(ProbeDefects, B01_ADeviceFifoOrSymlinkGivenAsJsonIsWrittenToNotReplaced) {
  TempDir t;
  const fs::path link = t.path / "link.json", target = t.path / "target.json";
  fs::create_symlink(target, link);
  const CliResult r = run_strobe("run vecadd --param n=1024 --json " + link.string());
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced by a regular file";
  EXPECT_GT(fs::file_size(target), 0u);
  const CliResult null = run_strobe("run vecadd --param n=1024 --json /dev/null");
  EXPECT_EQ(null.rc, 0) << null.err;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(ProbeDefects, B03_AWaveThatNeverEndsFaultsAfterItsInstructionBudget) {
  // A while (1) kernel ran forever in both modes, with no watchdog in functional mode and none
  // in timing mode either, since its instructions counted as progress.
  const std::string spin = "launch " + strobe::clitest::kernel("spin_forever") +
                           " --kernel spin_forever --grid 64 --arg zeros:4 --max-wave-instructions 100000";
  for (const char* mode : {"functional", "timing"}) {
    SCOPED_TRACE(mode);
    const CliResult r = run_strobe(spin + " --mode " + mode);
    EXPECT_EQ(r.rc, 1);
    EXPECT_THAT(r.err, HasSubstr("kernel spin_forever: work-group (0,0,0) wave 0"));
    EXPECT_THAT(r.err, HasSubstr("executed 100000 instructions without ending"));
  }
  // A budget below what a real kernel's waves execute faults it too.
  const CliResult var = run_strobe("launch " + strobe::clitest::kernel("vecadd") +
                                   " --kernel vecadd --grid 64 --arg zeros:256 --arg zeros:256 --arg zeros:256 "
                                   "--arg u32:64 --max-wave-instructions 3");
  EXPECT_EQ(var.rc, 1);
  EXPECT_THAT(var.err, HasSubstr("executed 3 instructions"));
}

TEST(ProbeDefects, B05_AHugeZeroFilledBufferCostsNoHostMemoryUntilWritten) {
  // zeros:60000000000 was backed in host RAM at once, about 200 MB/s until the OOM killer.
  // Under a 4 GiB address-space limit it must run, touching only the pages the kernel writes.
  const std::string launch = std::string(STROBE_BINARY) + " launch " + strobe::clitest::kernel("vecadd") +
                             " --kernel vecadd --grid 64 --arg zeros:60000000000 --arg zeros:256 --arg zeros:256"
                             " --arg u32:64";
  EXPECT_EQ(std::system(("sh -c 'ulimit -v 4000000; " + launch + "' >/dev/null 2>&1").c_str()), 0);
}

TEST(ProbeDefects, B05_DataThatWouldExhaustHostMemoryIsRefusedByNameBeforeTheOomKiller) {
  // spmv rows=16777216 degree=1024 built its host data until the OOM killer; bfs at 16 M vertices
  // said "out of host memory", naming nothing. A budget (here set small, as
  // STROBE_HOST_MEMORY_BYTES allows) refuses a benchmark's graph before it is built, and a kernel
  // that backs more device memory than the budget, naming the buffer.
  ::setenv("STROBE_HOST_MEMORY_BYTES", "100000000", 1);
  const CliResult graph = run_strobe("run spmv --param rows=1048576 --param degree=64");
  const CliResult buffer = run_strobe("launch " + strobe::clitest::kernel("vecadd") +
                                      " --kernel vecadd --grid 16777216 --arg zeros:67108864 --arg zeros:67108864"
                                      " --arg zeros:67108864 --arg u32:16777216");
  ::setenv("STROBE_HOST_MEMORY_BYTES", "0x10", 1);
  const CliResult malformed = run_strobe("run spmv --param rows=1024");
  ::unsetenv("STROBE_HOST_MEMORY_BYTES");
  EXPECT_EQ(graph.rc, 2);
  EXPECT_THAT(graph.err, HasSubstr("a graph of 1048576 rows with 64 edges each on average, with its device copy "
                                   "needs 532.0 MiB of host memory, more than the 95.4 MiB available"));
  EXPECT_EQ(buffer.rc, 2);
  EXPECT_THAT(buffer.err, HasSubstr("device memory: the buffer"));
  EXPECT_THAT(buffer.err, HasSubstr("past the 95.4 MiB budget (STROBE_HOST_MEMORY_BYTES)"));
  EXPECT_EQ(malformed.rc, 2);
  EXPECT_THAT(malformed.err, HasSubstr("STROBE_HOST_MEMORY_BYTES '0x10' is not a positive whole number of bytes"));
  // Within the budget the same launch runs.
  EXPECT_EQ(run_strobe("run spmv --param rows=1024").rc, 0);
}

TEST(ProbeDefects, B07_ADirectoryGivenAsArchIsRefusedNotReadAsTheDefaults) {
  TempDir t;
  const fs::path dir = t.path / "a.toml";
  fs::create_directory(dir);
  const CliResult r = run_strobe("run vecadd --param n=1024 --mode timing --arch " + dir.string());
  EXPECT_EQ(r.rc, 2);
  EXPECT_THAT(r.err, HasSubstr("it is a directory"));
}

TEST(ProbeDefects, B24_AnOutOfRangeValueInAnArchFileNamesTheFile) {
  TempDir t;
  const std::string toml = (t.path / "odd.toml").string();
  std::ofstream(toml) << "[gpu]\nnum_cus = 7\ncus_per_shader_array = 4\n";
  const CliResult r = run_strobe("run vecadd --param n=1024 --mode timing --arch " + toml);
  EXPECT_EQ(r.rc, 2);
  EXPECT_THAT(r.err, HasSubstr("GPU configuration " + toml));
  EXPECT_THAT(r.err, HasSubstr("gpu.cus_per_shader_array"));
}

TEST(ProbeDefects, B10_ASweepOfMoreThanItsTaskLimitIsRefusedAtOnce) {
  // A million-point grid was accepted, and even --dry-run ran for minutes.
  TempDir t;
  const std::string spec = (t.path / "big.toml").string();
  std::ofstream f(spec);
  f << "workloads = [\"vecadd --param n=1024\"]\n[grid]\n";
  for (const char* key : {"l2.size_kb", "gpu.num_cus", "dram.channels", "l1v.size_kb", "l2.ways", "l1v.ways"}) {
    f << "\"" << key << "\" = [";
    for (int v = 1; v <= 10; ++v) f << (v > 1 ? ", " : "") << (1 << v);
    f << "]\n";
  }
  f.close();
  const CliResult r = run_strobe("sweep " + spec + " --dry-run");
  EXPECT_EQ(r.rc, 2);
  EXPECT_THAT(r.err, HasSubstr("more than 100000 tasks"));
}

TEST(ProbeDefects, B22_SweepCollectAndDryRunSayWhatTheSweepsStateIs) {
  // --collect before any task ran said "cannot write 's.sweep/results.csv'", and --dry-run
  // listed "todo" for a task that had failed, with no word on what it had done.
  TempDir t;
  const std::string spec = (t.path / "s.toml").string();
  std::ofstream(spec) << "workloads = [\"vecadd --param n=1024\"]\nmethods = [\"photon\"]\n[grid]\n"
                         "\"gpu.num_cus\" = [8, 16]\n";
  const CliResult c = run_strobe("sweep " + spec + " --collect");
  EXPECT_EQ(c.rc, 2);
  EXPECT_THAT(c.err, HasSubstr("nothing to collect: " + (t.path / "s.sweep").string() +
                               " does not exist, so none of the 2 tasks"));
  // A task that failed (its stderr kept, no result) is "failed", the other still to run.
  const CliResult d0 = run_strobe("sweep " + spec + " --dry-run");
  ASSERT_EQ(d0.rc, 0) << d0.err;
  const std::string first_id = d0.out.substr(5, 16);
  fs::create_directories(t.path / "s.sweep" / "tasks");
  std::ofstream(t.path / "s.sweep" / "tasks" / (first_id + ".err")) << "strobe: error: it broke\n";
  const CliResult d = run_strobe("sweep " + spec + " --dry-run");
  EXPECT_EQ(d.rc, 0);
  EXPECT_EQ(std::count(d.out.begin(), d.out.end(), '\n'), 2) << "stdout stays a line a task";
  EXPECT_THAT(d.out, HasSubstr(first_id + " failed"));
  EXPECT_THAT(d.err, HasSubstr("2 tasks in " + (t.path / "s.sweep").string() +
                               ": 0 with a result, 1 failed, 1 to run; nothing was run"));
}

TEST(ProbeDefects, B11_DuplicateGridValuesOrWorkloadsAreRefusedNotRunTwiceUnderOneId) {
  TempDir t;
  const std::string values = (t.path / "values.toml").string(), runs = (t.path / "runs.toml").string();
  std::ofstream(values) << "workloads = [\"vecadd --param n=1024\"]\n[grid]\n\"l2.size_kb\" = [256, 256]\n";
  std::ofstream(runs) << "workloads = [\"vecadd --param n=1024\", \"vecadd --param n=1024\"]\n[grid]\n"
                         "\"l2.size_kb\" = [256, 512]\n";
  const CliResult a = run_strobe("sweep " + values + " --dry-run");
  EXPECT_EQ(a.rc, 2);
  EXPECT_THAT(a.err, HasSubstr("grid.l2.size_kb lists 256 twice"));
  const CliResult b = run_strobe("sweep " + runs + " --dry-run");
  EXPECT_EQ(b.rc, 2);
  EXPECT_THAT(b.err, HasSubstr("are the same run"));
}

TEST(ProbeDefects, B12_KillingASweepEndsItsRunningTasks) {
  // Killed, a sweep left its children running and writing results.
  TempDir t;
  const std::string spec = (t.path / "s.toml").string(), out = (t.path / "s.sweep").string();
  // Tasks of many seconds each, so that one outliving the sweep is seen.
  std::ofstream(spec) << "workloads = [\"mm --param m=768 --param n=768 --param k=768\"]\n[grid]\n"
                         "\"l2.size_kb\" = [256, 512]\n";
  const pid_t sweep = ::fork();
  if (sweep == 0) {
    ::setpgid(0, 0);  // the test's own process group is not signalled with it
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execl(STROBE_BINARY, STROBE_BINARY, "sweep", spec.c_str(), "-j", "2", "--out", out.c_str(), nullptr);
    ::_exit(127);
  }
  ASSERT_GT(sweep, 0);
  // Its tasks, once they run.
  std::vector<pid_t> tasks;
  for (int i = 0; i < 200 && tasks.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::istringstream in(strobe::clitest::shell("pgrep -P " + std::to_string(sweep)));
    for (pid_t p; in >> p;) tasks.push_back(p);
  }
  ASSERT_FALSE(tasks.empty()) << "no task started";
  ::kill(sweep, SIGKILL);
  ::waitpid(sweep, nullptr, 0);
  bool gone = false;
  for (int i = 0; i < 250 && !gone; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    gone = std::none_of(tasks.begin(), tasks.end(), [](pid_t p) {
      // A zombie has ended; whoever adopted it may not reap it at once.
      const std::string stat = strobe::clitest::slurp("/proc/" + std::to_string(p) + "/stat");
      const size_t paren = stat.rfind(')');
      return ::kill(p, 0) == 0 && paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
    });
  }
  EXPECT_TRUE(gone) << "a task outlived its sweep by 5 s";
}

TEST(ProbeDefects, B14_TheWatchdogsDocumentedMinimumLetsEveryLaunchRun) {
  // sim.watchdog_cycles = 1000 once failed every launch: the 1,000-cycle launch overhead, and
  // the cycles before the first instruction issues, counted as no progress.
  for (const char* bench : {"vecadd --param n=4096", "hotspot --param rows=64 --param cols=64 --param iterations=3"}) {
    SCOPED_TRACE(bench);
    const CliResult low =
        run_strobe(std::string("run ") + bench + " --mode timing --set sim.watchdog_cycles=1000 --json -");
    ASSERT_EQ(low.rc, 0) << low.err;
    const CliResult dflt = run_strobe(std::string("run ") + bench + " --mode timing --json -");
    ASSERT_EQ(dflt.rc, 0) << dflt.err;
    EXPECT_EQ(nlohmann::json::parse(low.out)["cycles"], nlohmann::json::parse(dflt.out)["cycles"])
        << "the watchdog changed the cycles";
  }
}

TEST(ProbeDefects, B16_ScalarKernelArgumentsOfAnotherTypeAreRefusedNamingTheArgument) {
  // f32:1.5 for a uint was passed as its bit pattern, silently.
  const std::string saxpy = strobe::clitest::kernel("saxpy") + " --kernel saxpy --grid 64 ";
  const CliResult f = run_strobe("launch " + saxpy + "--arg f32:2 --arg zeros:256 --arg zeros:256 --arg f32:1.5");
  EXPECT_EQ(f.rc, 2);
  EXPECT_THAT(f.err, HasSubstr("--arg 'f32:1.5': the kernel's argument 3 (uint"));
  EXPECT_THAT(f.err, HasSubstr("takes u32:V"));
  const CliResult i = run_strobe("launch " + saxpy + "--arg i32:2 --arg zeros:256 --arg zeros:256 --arg u32:64");
  EXPECT_EQ(i.rc, 2);
  EXPECT_THAT(i.err, HasSubstr("takes f32:V"));
  EXPECT_EQ(run_strobe("launch " + saxpy + "--arg f32:2 --arg zeros:256 --arg zeros:256 --arg u32:64").rc, 0);
}

TEST(ProbeDefects, B17_SmallCommandLineDefectsGetOneClearError) {
  // --timeline-interval without timing blamed --set.
  const CliResult timeline = run_strobe("run vecadd --param n=1024 --timeline-interval 100");
  EXPECT_EQ(timeline.rc, 2);
  EXPECT_THAT(timeline.err, HasSubstr("--timeline-interval times the timing model"));
  // An unknown command was not named.
  const CliResult unknown = run_strobe("frobnicate");
  EXPECT_EQ(unknown.rc, 2);
  EXPECT_THAT(unknown.err, HasSubstr("unknown command 'frobnicate' (commands: launch"));
  // --repeat had no cap.
  const CliResult repeat = run_strobe("compare vecadd --param n=1024 --sampling pka --repeat 100000");
  EXPECT_EQ(repeat.rc, 2);
  EXPECT_THAT(repeat.err, HasSubstr("--repeat 100000: must be 1 to 1000"));
  // A duplicate --param silently took the last.
  const CliResult param = run_strobe("run vecadd --param n=1024 --param n=2048");
  EXPECT_EQ(param.rc, 2);
  EXPECT_THAT(param.err, HasSubstr("n is given twice"));
  // --threads abc said "not in range".
  const CliResult threads = run_strobe("run vecadd --param n=1024 --threads abc");
  EXPECT_EQ(threads.rc, 2);
  EXPECT_THAT(threads.err, HasSubstr("'abc' is not a whole number"));
  // A 300-digit --task was echoed whole, as a clamped number.
  const CliResult task = run_strobe("sweep x.toml --task " + std::string(300, '9'));
  EXPECT_EQ(task.rc, 2);
  EXPECT_THAT(task.err, HasSubstr("'999999999999999999999999...' is too large"));
  EXPECT_LT(task.err.size(), 200u);
}

TEST(ProbeDefects, B18_DisasmRawShowsTrailingBytesInsteadOfDroppingThem) {
  TempDir t;
  const std::string raw = (t.path / "code.bin").string();
  std::ofstream(raw, std::ios::binary).write("\x01\x00\x00\xbf\x01\x02", 6);
  const CliResult r = run_strobe("disasm --raw " + raw);
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("s_cmp_eq_i32 s1, s0"));
  EXPECT_THAT(r.out, HasSubstr("2 trailing bytes (not a whole instruction word): 01 02"));
  EXPECT_THAT(r.err, HasSubstr("its last 2 bytes do not make a whole instruction word"));
}

TEST(ProbeDefects, B15_AnOutputPathThatCannotBeWrittenFailsBeforeAnyWork) {
  TempDir t;
  const std::string csv = (t.path / "missing_dir" / "x.csv").string();
  const CliResult r = run_strobe("compare vecadd --sampling pka --csv " + csv);
  EXPECT_EQ(r.rc, 2);
  EXPECT_THAT(r.err, HasSubstr("--csv"));
  EXPECT_THAT(r.err, HasSubstr("does not exist"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("vecadd"))) << "nothing ran";
  const CliResult cap = run_strobe("capture vecadd -o " + (t.path / "no" / "w.cap").string());
  EXPECT_EQ(cap.rc, 2);
  EXPECT_THAT(cap.err, HasSubstr("does not exist"));
}

}  // namespace
