// The capture file: blobs stored once per content and read back checked, the index round trip,
// and one clear InputError for every way a file can be wrong.
#include "capture/capture_file.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "common/atomic_file.h"
#include "common/error.h"

namespace strobe::capture {
namespace {

namespace fs = std::filesystem;

class CaptureFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("strobe-capture-file-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  /// A small capture: two launches, three distinct pages (one shared), two histories.
  std::string write_small(const std::string& name) {
    CaptureWriter w(path(name));
    std::string page(kPageBytes, '\0');
    page[0] = 1;
    const uint32_t a = w.put(BlobKind::Page, page);
    page[1] = 2;
    const uint32_t b = w.put(BlobKind::Page, page);
    page[1] = 0;
    EXPECT_EQ(w.put(BlobKind::Page, page), a);  // same content, same blob
    const uint32_t h0 = w.put(BlobKind::History, "history zero");
    const uint32_t h1 = w.put(BlobKind::History, "history one");
    const uint32_t co = w.put(BlobKind::CodeObject, "not an elf");
    CaptureIndex x;
    x.workload = "vecadd";
    x.params = {"n=1024"};
    x.build = "test";
    x.granule_bytes = 64;
    x.history_bytes = 1 << 20;
    x.code_objects.push_back(CodeObjectRecord{"vecadd.hsaco", 0x100000000, co, content_id("not an elf")});
    x.allocation_maps.push_back({AllocationRecord{0x100000000, 4096, "code"}, AllocationRecord{0x100010000, 100, "buf"}});
    for (uint32_t i = 0; i < 2; ++i) {
      LaunchRecord l;
      l.dispatch.kernel_name = "vecadd";
      l.dispatch.grid = {1024, 1, 1};
      l.dispatch.local = {64, 1, 1};
      l.pages = {PageRef{0x100000000, a, false}, PageRef{0x100010000, i ? b : kZeroPage, true}};
      l.written_digest = 42 + i;
      l.history = i ? h1 : h0;
      l.history_entries = 3;
      l.code = h0;
      l.stats.wave_instructions = 100 + i;
      l.dispatch.dispatch_id = i;
      x.launches.push_back(l);
    }
    w.finish(x);
    return path(name);
  }

  fs::path dir_;
};

TEST_F(CaptureFileTest, ReadsBackTheIndexAndEveryBlobChecked) {
  const auto f = CaptureFile::open(write_small("a.cap"));
  const CaptureIndex& x = f->index();
  EXPECT_EQ(x.workload, "vecadd");
  EXPECT_EQ(x.params, std::vector<std::string>{"n=1024"});
  ASSERT_EQ(x.launches.size(), 2u);
  EXPECT_EQ(x.blobs.size(), 5u);  // two pages, two histories, one code object
  EXPECT_EQ(x.launches[1].pages[1].blob, x.launches[0].pages[0].blob + 1);
  EXPECT_EQ(x.launches[0].pages[1].blob, kZeroPage);
  EXPECT_TRUE(x.launches[0].pages[1].written);
  EXPECT_EQ(x.launches[1].stats.wave_instructions, 101u);
  EXPECT_EQ(x.launches[1].dispatch.dispatch_id, 1u);
  EXPECT_EQ(f->blob(x.launches[1].history, BlobKind::History), "history one");
  const std::string page = f->blob(x.launches[1].pages[1].blob, BlobKind::Page);
  ASSERT_EQ(page.size(), kPageBytes);
  EXPECT_EQ(page[0], 1);
  EXPECT_EQ(page[1], 2);
  EXPECT_THROW(f->blob(x.launches[1].history, BlobKind::Page), InputError);  // another kind
  EXPECT_THROW(f->launch(2), InputError);
}

TEST_F(CaptureFileTest, AnUnfinishedWriterLeavesNoFileBehind) {
  {
    CaptureWriter w(path("gone.cap"));
    w.put(BlobKind::History, "x");
  }
  EXPECT_TRUE(fs::is_empty(dir_));
}

/// The InputError `open` throws for `bytes` written as a file, or "" if it opens.
std::string open_error(const std::string& file, const std::string& bytes) {
  write_file_atomic(file, bytes);
  try {
    CaptureFile::open(file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_F(CaptureFileTest, EveryDamagedFileIsOneErrorNamingTheFileAndTheReason) {
  const std::string good = read_file(write_small("good.cap"));
  const std::string f = path("bad.cap");
  auto expect = [&](const std::string& bytes, const std::string& why) {
    const std::string e = open_error(f, bytes);
    EXPECT_NE(e.find(f), std::string::npos) << e;
    EXPECT_NE(e.find(why), std::string::npos) << "expected '" << why << "' in: " << e;
  };
  expect("", "not a strobe capture");
  expect("hello world, not a capture at all", "not a strobe capture");
  expect(good.substr(0, good.size() - 5), "truncated");
  expect(good.substr(0, good.size() / 2), "truncated");
  std::string v2 = good;
  v2[7] = '2';
  expect(v2, "capture format '2'");
  std::string index = good;
  index[index.size() - 40] ^= 0x5a;  // inside the index
  expect(index, "corrupt");
  // A damaged page is found when it is read.
  std::string page = good;
  page[10] ^= 0x5a;
  write_file_atomic(f, page);
  const auto c = CaptureFile::open(f);
  EXPECT_THROW(c->blob(0, BlobKind::Page), InputError);
  // A directory.
  fs::create_directories(path("dir.cap"));
  EXPECT_THROW(CaptureFile::open(path("dir.cap")), InputError);
  EXPECT_THROW(CaptureWriter(path("dir.cap")), InputError);
}

}  // namespace
}  // namespace strobe::capture
