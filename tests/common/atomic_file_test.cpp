// The one output-file rule (common/atomic_file.h): regular files replaced atomically, links kept
// and their targets replaced, FIFOs and devices written as they are, other kinds refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "common/atomic_file.h"
#include "common/error.h"

namespace strobe {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

/// A fresh temporary directory, removed at the end.
struct Dir {
  fs::path path;
  Dir() {
    char tmpl[] = "/tmp/strobe-atomic-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~Dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string text_of(const fs::path& p) { return read_file(p.string()); }

TEST(OutputFile, ARegularFileIsReplacedWithNothingLeftBeside) {
  Dir d;
  const fs::path f = d.path / "r.json";
  write_file_atomic(f.string(), "one");
  write_file_atomic(f.string(), "two");
  EXPECT_EQ(text_of(f), "two");
  EXPECT_EQ(std::distance(fs::directory_iterator(d.path), fs::directory_iterator{}), 1) << "no temporary file left";
}

TEST(OutputFile, ASymbolicLinkStaysALinkAndItsTargetIsReplaced) {
  Dir d;
  const fs::path target = d.path / "target.json", link = d.path / "link.json";
  fs::create_symlink("target.json", link);  // relative: resolved beside the link
  write_file_atomic(link.string(), "through the link");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(text_of(target), "through the link");
}

TEST(OutputFile, AFifoIsWrittenToNotReplaced) {
  Dir d;
  const fs::path fifo = d.path / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = text_of(fifo); });
  write_file_atomic(fifo.string(), "streamed");
  reader.join();
  EXPECT_EQ(got, "streamed");
  EXPECT_TRUE(fs::is_fifo(fifo)) << "the FIFO was replaced by a regular file";
}

TEST(OutputFile, DevNullStaysADevice) {
  write_file_atomic("/dev/null", "discarded");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  check_output_path("/dev/null");
}

TEST(OutputFile, ADirectoryOrAMissingDirectoryIsRefusedNamingThePath) {
  Dir d;
  try {
    write_file_atomic(d.path.string(), "x");
    FAIL() << "a directory was written";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("it is a directory"));
  }
  const std::string missing = (d.path / "no" / "x.csv").string();
  try {
    check_output_path(missing);
    FAIL() << "a file in a missing directory passed the check";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(missing));
    EXPECT_THAT(e.what(), HasSubstr("does not exist"));
  }
  EXPECT_THROW(replaced_file("/dev/null"), InputError) << "a capture must be a regular file";
  EXPECT_EQ(replaced_file((d.path / "new.cap").string()), (d.path / "new.cap").string());
}

TEST(OutputFile, B13_AWriteKilledBeforeItsRenameLeavesNothingForeverBehind) {
  // A journal rewrite killed by SIGKILL left J.jsonl.tmp.PID for good.
  Dir d;
  const fs::path journal = d.path / "runs.jsonl";
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);  // reaped: no process has its id now
  const fs::path dead = d.path / ("runs.jsonl.tmp." + std::to_string(child));
  const fs::path live = d.path / ("runs.jsonl.tmp." + std::to_string(::getpid()));
  const fs::path other = d.path / "other.jsonl.tmp.1";
  for (const fs::path& p : {dead, live, other}) std::ofstream(p) << "partial";
  remove_stale_temporaries(journal.string());
  EXPECT_FALSE(fs::exists(dead)) << "a dead writer's temporary stays";
  EXPECT_TRUE(fs::exists(live)) << "a live writer's temporary was removed";
  EXPECT_TRUE(fs::exists(other)) << "another file's temporary was removed";
}

}  // namespace
}  // namespace strobe
