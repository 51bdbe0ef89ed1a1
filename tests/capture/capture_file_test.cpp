// The capture file: blobs stored once per content and read back checked, the index round trip,
// and one clear InputError for every way a file can be wrong.
#include "capture/capture_file.h"
#include "capture/capture_index.h"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include <gtest/gtest.h>
#include <msgpack.hpp>
#include <xxhash.h>
#include <zstd.h>

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

TEST_F(CaptureFileTest, ItsKindIsReadWithoutTheRestOfItsIndex) {
  // `strobe run` asks what a capture holds before replaying it: from the index's first fields,
  // with the file checked as open() checks it.
  const std::string good = write_small("k.cap");
  EXPECT_EQ(CaptureFile::kind_of(good), CaptureFile::open(good)->index().kind);
  EXPECT_EQ(CaptureFile::kind_of(good), "benchmark");
  const std::string bytes = read_file(good);
  const std::string f = path("bad.cap");
  write_file_atomic(f, bytes.substr(0, bytes.size() / 2));
  EXPECT_THROW(CaptureFile::kind_of(f), InputError);
  // An index whose first field is not the version, sealed past its checksum.
  msgpack::sbuffer doc;
  msgpack::packer<msgpack::sbuffer> pk(doc);
  pk.pack_map(1);
  pk.pack(std::string("kind"));
  pk.pack(std::string("frames"));
  const uint64_t at = index_offset(f, bytes);
  write_file_atomic(f, bytes.substr(0, at) + seal_index(f, std::string_view(doc.data(), doc.size()), at));
  try {
    CaptureFile::kind_of(f);
    ADD_FAILURE() << "an index without its version was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("does not begin with 'version'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(CaptureFile::kind_of(path("none.cap")), InputError);
}

/// `n` successive versions of one page of random bytes, each changing one byte of the one before,
/// or with `dense`, one byte in every kSparseChunk-byte chunk (a delta that keeps every chunk).
std::vector<std::string> page_versions(size_t n, bool dense = false) {
  std::vector<std::string> v;
  std::string page(kPageBytes, '\0');
  uint64_t x = 88172645463325252ull;  // xorshift: bytes that do not compress, as numeric data mostly do not
  for (size_t i = 0; i < kPageBytes; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    page[i] = char(x);
  }
  for (size_t k = 0; k < n; ++k) {
    if (dense)
      for (size_t c = 0; c < kPageBytes; c += kSparseChunk) page[c + k % kSparseChunk] ^= char(0x80 | k);
    else
      page[(k * 64 * 13) % kPageBytes] ^= char(0x80 | k);
    v.push_back(page);
  }
  return v;
}

/// Stores each of `versions` with put_all(), the one before as its base; their blob ids.
std::vector<uint32_t> put_versions(CaptureWriter& w, const std::vector<std::string>& versions) {
  std::vector<uint32_t> ids;
  for (size_t k = 0; k < versions.size(); ++k) {
    std::vector<CaptureWriter::Base> base(1);
    if (k) base[0] = CaptureWriter::Base{ids.back(), versions[k - 1].data()};
    ids.push_back(w.put_all(BlobKind::Page, {versions[k]}, 2, base)[0]);
  }
  return ids;
}

TEST_F(CaptureFileTest, AChangedPageIsStoredAsADeltaOnItsLastVersionAndReadBackWhole) {
  // A version that changed a few chunks is a sparse delta, one that changed a byte in every chunk
  // a dense one; each kind's chain has its own bound.
  for (const bool dense : {false, true}) {
    SCOPED_TRACE(dense ? "dense" : "sparse");
    const uint32_t chain = dense ? kMaxDeltaChain : kMaxSparseChain;
    const std::vector<std::string> v = page_versions(chain + 3, dense);
    CaptureWriter w(path(dense ? "dense.cap" : "sparse.cap"));
    const std::vector<uint32_t> ids = put_versions(w, v);
    // A page whose words mostly changed is stored whole, though its base is given.
    std::string other(kPageBytes, '\0');
    for (size_t i = 0; i < kPageBytes; ++i) other[i] = char(v[0][i] + 1 + i % 3);
    const uint32_t whole = w.put_all(BlobKind::Page, {other}, 1, {CaptureWriter::Base{ids.back(), v.back().data()}})[0];
    w.finish(CaptureIndex{});
    const auto f = CaptureFile::open(path(dense ? "dense.cap" : "sparse.cap"));
    const std::vector<BlobInfo>& b = f->index().blobs;
    EXPECT_EQ(b[ids[0]].base, kNoBlob);
    for (uint32_t k = 1; k <= chain; ++k) {
      EXPECT_EQ(b[ids[k]].base, ids[k - 1]) << k;
      EXPECT_EQ(b[ids[k]].sparse, !dense) << k;
      // A byte changed per chunk, or one chunk: far smaller than the page.
      EXPECT_LT(b[ids[k]].stored, b[ids[0]].stored / (dense ? 4 : 20)) << k;
    }
    // The chain stops at its bound: the next version is whole again, and starts a new one.
    EXPECT_EQ(b[ids[chain + 1]].base, kNoBlob);
    EXPECT_EQ(b[ids[chain + 2]].base, ids[chain + 1]);
    EXPECT_EQ(b[whole].base, kNoBlob);
    EXPECT_FALSE(b[whole].sparse);
    // Every version reads back whole, in any order (from the last, then the first: no cache helps).
    for (size_t k = v.size(); k-- > 0;) EXPECT_EQ(f->blob(ids[k], BlobKind::Page), v[k]) << k;
    for (size_t k = 0; k < v.size(); ++k) EXPECT_EQ(*f->shared_blob(ids[k], BlobKind::Page), v[k]) << k;
    EXPECT_EQ(f->blob(whole, BlobKind::Page), other);
  }
}

TEST_F(CaptureFileTest, ADroppedPageIsReadOnlyInACaptureThatSaysWhatItKeeps) {
  // write_small's capture again, its second launch's written page dropped.
  auto write = [&](const std::string& name, const std::string& kept_for) {
    const std::string src = write_small("src-" + name);
    const std::unique_ptr<CaptureFile> in = CaptureFile::open(src);
    CaptureWriter w(path(name));
    for (uint32_t b = 0; b < in->index().blobs.size(); ++b) {
      const BlobInfo& info = in->index().blobs[b];
      EXPECT_EQ(w.put_stored(info, in->stored_blob(b), info.base), b);
    }
    CaptureIndex x = in->index();
    x.kept_for = kept_for;
    x.launches[1].pages[1].blob = kDroppedPage;
    w.finish(x);
    return path(name);
  };
  const std::unique_ptr<CaptureFile> f = CaptureFile::open(write("kept.cap", "tbpoint on r9nano"));
  EXPECT_EQ(f->index().kept_for, "tbpoint on r9nano");
  EXPECT_TRUE(f->keeps_checkpoint(0));
  EXPECT_FALSE(f->keeps_checkpoint(1));
  EXPECT_EQ(f->blob(f->launch(0).pages[0].blob, BlobKind::Page)[0], 1);  // blobs copied as stored read back
  // The same page in a capture that claims to keep every checkpoint is a corrupt file.
  try {
    CaptureFile::open(write("claims-all.cap", ""));
    FAIL() << "opened";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("launch 1 page 0x100010000 refers to blob 4294967294, which is not a page"),
              std::string::npos)
        << e.what();
  }
}

/// `bytes` (a capture) with its index rewritten by `edit`, which is handed every blob's record
/// (offset, stored, bytes, id, kind, base, sparse) and may change its base and whether it is
/// sparse; index and checksum renewed.
std::string with_blob_bases(const std::string& bytes, const std::function<void(size_t, uint32_t&, bool&)>& edit) {
  uint64_t footer[4];
  std::memcpy(footer, bytes.data() + bytes.size() - sizeof footer, sizeof footer);
  const std::string z = bytes.substr(footer[0], footer[1]);
  std::string doc(ZSTD_getFrameContentSize(z.data(), z.size()), '\0');
  doc.resize(ZSTD_decompress(doc.data(), doc.size(), z.data(), z.size()));
  msgpack::object_handle h = msgpack::unpack(doc.data(), doc.size());
  const msgpack::object& root = h.get();
  msgpack::sbuffer out;
  msgpack::packer<msgpack::sbuffer> pk(out);
  pk.pack_map(root.via.map.size);
  for (uint32_t i = 0; i < root.via.map.size; ++i) {
    const msgpack::object_kv& kv = root.via.map.ptr[i];
    pk.pack(kv.key);
    if (kv.key.as<std::string>() != "blobs") {
      pk.pack(kv.val);
      continue;
    }
    pk.pack_array(kv.val.via.array.size);
    for (uint32_t k = 0; k < kv.val.via.array.size; ++k) {
      const msgpack::object_array& t = kv.val.via.array.ptr[k].via.array;
      uint32_t base = t.ptr[5].as<uint32_t>();
      bool sparse = t.ptr[6].as<bool>();
      edit(k, base, sparse);
      pk.pack_array(7);
      for (uint32_t j = 0; j < 5; ++j) pk.pack(t.ptr[j]);
      pk.pack(base);
      pk.pack(sparse);
    }
  }
  std::string nz(ZSTD_compressBound(out.size()), '\0');
  nz.resize(ZSTD_compress(nz.data(), nz.size(), out.data(), out.size(), 1));
  std::string result = bytes.substr(0, footer[0]) + nz;
  const uint64_t nf[3] = {footer[0], nz.size(), XXH64(nz.data(), nz.size(), 0)};
  result.append(reinterpret_cast<const char*>(nf), sizeof nf);
  result.append(bytes, bytes.size() - 8, 8);
  return result;
}

TEST_F(CaptureFileTest, AHistoryBoundNoCaptureRecordsIsACorruptFile) {
  // A damaged bound sized the replay's warm walk: 2^62 bytes asked for memory no host has (found
  // by fuzzing the index past its checksum). A capture records [1 MiB, 64 GiB] (--history-mib).
  for (const uint64_t bytes : {uint64_t{1} << 62, kMaxHistoryBytes + 1, kMinHistoryBytes - 1, uint64_t{0}}) {
    SCOPED_TRACE(bytes);
    {
      CaptureWriter w(path("h.cap"));
      CaptureIndex x;
      x.history_bytes = bytes;
      w.finish(x);
    }
    std::string e;
    try {
      CaptureFile::open(path("h.cap"));
    } catch (const InputError& err) {
      e = err.what();
    }
    EXPECT_NE(e.find(path("h.cap")), std::string::npos) << e;
    EXPECT_NE(e.find("history_bytes " + std::to_string(bytes)), std::string::npos) << e;
  }
  {
    CaptureWriter w(path("h.cap"));
    CaptureIndex x;
    x.history_bytes = kMaxHistoryBytes;
    w.finish(x);
  }
  EXPECT_EQ(CaptureFile::open(path("h.cap"))->index().history_bytes, kMaxHistoryBytes);
}

TEST_F(CaptureFileTest, ADeltaOnALaterBlobOrAChainTooLongIsACorruptFile) {
  {
    CaptureWriter w(path("chain.cap"));
    put_versions(w, page_versions(kMaxDeltaChain + 2, true));  // blobs 0-8 one dense chain, 9 whole
    w.put(BlobKind::History, "h");                         // blob 10
    w.finish(CaptureIndex{});
  }
  const std::string good = read_file(path("chain.cap"));
  const std::string f = path("bad.cap");
  // The rewriting itself keeps a good file good.
  EXPECT_EQ(open_error(f, with_blob_bases(good, [](size_t, uint32_t&, bool&) {})), "");
  auto expect = [&](const std::function<void(size_t, uint32_t&, bool&)>& edit, const std::string& why) {
    const std::string e = open_error(f, with_blob_bases(good, edit));
    EXPECT_NE(e.find(f), std::string::npos) << e;
    EXPECT_NE(e.find(why), std::string::npos) << "expected '" << why << "' in: " << e;
  };
  expect([](size_t k, uint32_t& base, bool&) { if (k == 3) base = 3; }, "blob 3 is a delta on blob 3, which is not an earlier");
  expect([](size_t k, uint32_t& base, bool&) { if (k == 3) base = 7; }, "blob 3 is a delta on blob 7, which is not an earlier");
  expect([](size_t k, uint32_t& base, bool&) { if (k == 10) base = 9; }, "not an earlier blob of its kind and size");
  expect([](size_t k, uint32_t& base, bool&) { if (k == 9) base = 8; }, "blob 9 stands on a chain of more than 8 deltas");
  expect([](size_t k, uint32_t&, bool& sparse) { if (k == 0) sparse = true; }, "blob 0 is a sparse delta of 65536 bytes on no base");
  expect([](size_t k, uint32_t&, bool& sparse) { if (k == 10) sparse = true; }, "blob 10 is a sparse delta of 1 bytes");
}

TEST_F(CaptureFileTest, ASparseDeltaWhoseMapAndChunksDisagreeIsACorruptBlob) {
  // A 128-byte blob (two chunks) and deltas on it stored as given: a map byte, then chunks.
  auto stored = [](const std::string& raw) {
    std::string z(ZSTD_compressBound(raw.size()), '\0');
    z.resize(ZSTD_compress(z.data(), z.size(), raw.data(), raw.size(), 1));
    return z;
  };
  const std::string base(2 * kSparseChunk, 'a');
  std::string second = base;
  second[kSparseChunk + 3] = 'b';
  const std::string chunk = std::string(3, '\0') + char('a' ^ 'b') + std::string(kSparseChunk - 4, '\0');
  CaptureWriter w(path("sparse.cap"));
  const uint32_t b0 = w.put(BlobKind::Page, base);
  auto put = [&](const std::string& raw, const std::string& rebuilds) {
    return w.put_stored(BlobInfo{0, 0, base.size(), content_id(rebuilds), BlobKind::Page, b0, true}, stored(raw), b0);
  };
  const uint32_t good = put(std::string(1, '\x02') + chunk, second);
  const uint32_t two_marked = put(std::string(1, '\x03') + chunk, second + "1");
  const uint32_t past_end = put(std::string(1, '\x06') + chunk + chunk, second + "2");
  const uint32_t short_frame = put(std::string(1, '\x02') + chunk.substr(0, 10), second + "3");
  w.finish(CaptureIndex{});
  const auto f = CaptureFile::open(path("sparse.cap"));
  EXPECT_TRUE(f->index().blobs[good].sparse);
  EXPECT_EQ(f->blob(good, BlobKind::Page), second);
  auto error_of = [&](uint32_t id) {
    try {
      f->blob(id, BlobKind::Page);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("read");
  };
  EXPECT_NE(error_of(two_marked).find("its chunks and its map disagree"), std::string::npos) << error_of(two_marked);
  EXPECT_NE(error_of(past_end).find("a chunk past its end"), std::string::npos) << error_of(past_end);
  EXPECT_NE(error_of(short_frame).find("corrupt sparse delta (its size)"), std::string::npos) << error_of(short_frame);
}

}  // namespace
}  // namespace strobe::capture
