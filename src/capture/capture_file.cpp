// The capture file (see capture_file.h).
#include "capture/capture_file.h"
#include "capture/capture_index.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <bit>
#include <filesystem>
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <xxhash.h>
#include <zstd.h>

#include "common/atomic_file.h"
#include "common/error.h"

namespace strobe::capture {

namespace {

constexpr char kMagic[8] = {'S', 'T', 'R', 'B', 'C', 'A', 'P', '1'};
constexpr char kEndMagic[8] = {'S', 'T', 'R', 'B', 'C', 'E', 'N', 'D'};
constexpr uint64_t kFooterBytes = 8 + 8 + 8 + 8;  // index offset, index bytes, index XXH64, end magic
// zstd level 1: pages are mostly zeros or numeric data, where higher levels gain little and the
// capture must stay within twice a functional run's time.
constexpr int kZstdLevel = 1;
// The index is read whole: a capture's index beyond this is corrupt, not a workload.
constexpr uint64_t kMaxIndexBytes = uint64_t{4} << 30;

/// out[i] ^= in[i] for n bytes (distinct buffers), a word at a time.
void xor_into(char* __restrict out, const char* __restrict in, size_t n) {
  size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    uint64_t a, b;
    std::memcpy(&a, out + k, 8);
    std::memcpy(&b, in + k, 8);
    a ^= b;
    std::memcpy(out + k, &a, 8);
  }
  for (; k < n; ++k) out[k] = char(out[k] ^ in[k]);
}

/// A zstd compression context and its buffers, made once and reused by one thread at a time:
/// ZSTD_compress makes and clears a new context per call, whose tables cost as much as
/// compressing a 64 KiB page at level 1. Owned by the call that uses it (never thread_local: a
/// host program's capture is finished at its exit, after its threads' locals are destroyed).
class Compressor {
 public:
  /// `in` compressed at `level` into `out`; false on a zstd error.
  bool operator()(std::string_view in, std::string& out, int level) {
    if (!ctx_) return false;
    // The frame's bound is over the input's size; zeroing it for every page cost a tenth of a
    // capture's time, so the buffer is kept and `out` takes what the frame holds.
    if (frame_.size() < ZSTD_compressBound(in.size())) frame_.resize(ZSTD_compressBound(in.size()));
    const size_t n = ZSTD_compressCCtx(ctx_.get(), frame_.data(), frame_.size(), in.data(), in.size(), level);
    if (ZSTD_isError(n)) return false;
    out.assign(frame_.data(), n);
    return true;
  }
  /// A buffer of at least `bytes` for a page's delta, every byte of which the caller writes.
  char* delta(size_t bytes) {
    if (delta_.size() < bytes) delta_.resize(bytes);
    return delta_.data();
  }
  /// Another such buffer, for the sparse form of the same delta.
  char* sparse(size_t bytes) {
    if (sparse_.size() < bytes) sparse_.resize(bytes);
    return sparse_.data();
  }

 private:
  std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> ctx_{ZSTD_createCCtx(), ZSTD_freeCCtx};
  std::vector<char> frame_, delta_, sparse_;
};

/// Applies a sparse delta (BlobInfo::sparse), compressed in `z`, to `out`, its base's bytes;
/// `fail(why)` makes the error for a frame that does not hold one for bytes of out's size.
template <class Fail>
void apply_sparse_delta(std::string& out, std::string_view z, Fail&& fail) {
  const size_t chunks = out.size() / kSparseChunk, map_bytes = (chunks + 7) / 8;
  const unsigned long long raw = ZSTD_getFrameContentSize(z.data(), z.size());
  if (raw == ZSTD_CONTENTSIZE_ERROR || raw == ZSTD_CONTENTSIZE_UNKNOWN || raw < map_bytes ||
      raw > map_bytes + out.size() || (raw - map_bytes) % kSparseChunk != 0)
    throw fail("corrupt sparse delta (its size)");
  std::string d(raw, '\0');
  const size_t got = ZSTD_decompress(d.data(), d.size(), z.data(), z.size());
  if (ZSTD_isError(got) || got != raw) throw fail("corrupt compressed data");
  size_t marked = 0;
  for (size_t k = 0; k < map_bytes; ++k) marked += size_t(std::popcount(uint8_t(d[k])));
  if (chunks % 8 && uint8_t(d[map_bytes - 1]) >> (chunks % 8)) throw fail("corrupt sparse delta (a chunk past its end)");
  if (marked != (raw - map_bytes) / kSparseChunk) throw fail("corrupt sparse delta (its chunks and its map disagree)");
  const char* from = d.data() + map_bytes;
  for (size_t c = 0; c < chunks; ++c)
    if (uint8_t(d[c / 8]) >> (c % 8) & 1) {
      xor_into(out.data() + c * kSparseChunk, from, kSparseChunk);
      from += kSparseChunk;
    }
}

/// Reads exactly `n` bytes at `offset` of `fd`; false if the file ends first.
bool read_at(int fd, uint64_t offset, void* dst, uint64_t n) {
  auto* d = static_cast<char*>(dst);
  while (n) {
    const ssize_t r = ::pread(fd, d, n, off_t(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    d += r, offset += uint64_t(r), n -= uint64_t(r);
  }
  return true;
}

}  // namespace

ContentId content_id(std::string_view bytes) {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return ContentId{h.low64, h.high64};
}

// ------------------------------------------------------------------------------------ writer

CaptureWriter::CaptureWriter(std::string path) : path_(replaced_file(path)) {
  remove_stale_temporaries(path_);  // a capture killed before its rename
  tmp_ = path_ + ".tmp." + std::to_string(::getpid());
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InputError(fmt::format("cannot write capture '{}': {}", path_, std::strerror(errno)));
  append(std::string_view(kMagic, sizeof kMagic));
}

CaptureWriter::~CaptureWriter() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(tmp_.c_str());
  }
}

void CaptureWriter::append(std::string_view bytes) {
  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(fmt::format("cannot write capture '{}': {}", path_, std::strerror(errno)));
    p += n, left -= size_t(n);
  }
  offset_ += bytes.size();
}

uint32_t CaptureWriter::put(BlobKind kind, std::string_view bytes) {
  const ContentId id = content_id(bytes);
  if (auto it = by_id_.find(Key{id, kind}); it != by_id_.end()) return it->second;
  if (!Compressor()(bytes, scratch_, kZstdLevel))
    throw InputError(fmt::format("capture '{}': compression failed", path_));
  const size_t n = scratch_.size();
  BlobInfo b{offset_, n, bytes.size(), id, kind};
  append(std::string_view(scratch_.data(), n));
  const uint32_t index = uint32_t(blobs_.size());
  blobs_.push_back(b);
  depth_.push_back(0);
  by_id_.emplace(Key{id, kind}, index);
  return index;
}

std::vector<uint32_t> CaptureWriter::put_all(BlobKind kind, const std::vector<std::string_view>& items,
                                             uint32_t threads, const std::vector<Base>& bases) {
  struct Packed {
    ContentId id;
    std::string z;
    uint32_t base = kNoBlob;  // the blob z is a delta on
    bool sparse = false;      // z holds the delta's changed chunks only
  };
  std::vector<Packed> packed(items.size());
  tbb::enumerable_thread_specific<Compressor> compressors;  // one per host thread of this call
  tbb::task_arena arena(int(std::max(threads, 1u)));
  arena.execute([&] { tbb::parallel_for(size_t(0), items.size(), [&](size_t i) {
    Packed& p = packed[i];
    Compressor& compress = compressors.local();
    p.id = content_id(items[i]);
    if (by_id_.contains(Key{p.id, kind})) return;  // read-only while the threads run
    const Base base = i < bases.size() ? bases[i] : Base{};
    // A delta on an earlier version of the same bytes is mostly zeros where the item changed
    // little, and compresses to the lines that changed; where most words changed, the item
    // whole compresses as well or better, and is stored whole. A delta whose changed chunks are
    // few keeps only those (BlobInfo::sparse): compressing the page's unchanged zeros was most
    // of an iterative workload's capture.
    std::string_view delta;
    const size_t n = items[i].size();
    if (base.blob != kNoBlob && base.blob < depth_.size() && depth_[base.blob] < kMaxSparseChain &&
        blobs_[base.blob].bytes == n && n % kSparseChunk == 0) {
      const size_t chunks = n / kSparseChunk, map_bytes = (chunks + 7) / 8;
      char* dense = compress.delta(n);
      char* sparse = compress.sparse(map_bytes + n);
      std::memset(sparse, 0, map_bytes);
      char* kept = sparse + map_bytes;
      size_t same = 0;
      for (size_t c = 0; c < chunks; ++c) {
        uint64_t any = 0;
        char* to = dense + c * kSparseChunk;
        for (size_t k = c * kSparseChunk; k < (c + 1) * kSparseChunk; k += 8) {
          uint64_t a, b;
          std::memcpy(&a, items[i].data() + k, 8);
          std::memcpy(&b, base.bytes + k, 8);
          a ^= b;
          same += a == 0;
          any |= a;
          std::memcpy(to + (k - c * kSparseChunk), &a, 8);
        }
        if (any) {
          sparse[c / 8] = char(sparse[c / 8] | (1 << (c % 8)));
          std::memcpy(kept, to, kSparseChunk);
          kept += kSparseChunk;
        }
      }
      // Stored as a delta when at least half the words are unchanged; sparse when that is shorter.
      // A dense one only on a chain short enough for it.
      if (same * 16 >= n) {
        p.sparse = size_t(kept - sparse) < n;
        if (p.sparse) delta = std::string_view(sparse, size_t(kept - sparse));
        else if (depth_[base.blob] < kMaxDeltaChain) delta = std::string_view(dense, n);
      }
    }
    if (!delta.empty()) p.base = base.blob;
    else p.sparse = false;
    if (!compress(delta.empty() ? items[i] : delta, p.z, kZstdLevel)) {
      p.z.clear();
      p.base = kNoBlob;
      p.sparse = false;
    }
  }); });
  std::vector<uint32_t> ids;
  ids.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    if (auto it = by_id_.find(Key{packed[i].id, kind}); it != by_id_.end()) {
      ids.push_back(it->second);
      continue;
    }
    if (packed[i].z.empty()) {  // compressed by no thread (a duplicate of an earlier item) or failed
      ids.push_back(put(kind, items[i]));
      continue;
    }
    const uint32_t base = packed[i].base;  // an earlier blob: depth_ holds it
    blobs_.push_back(BlobInfo{offset_, packed[i].z.size(), items[i].size(), packed[i].id, kind, base,
                              base != kNoBlob && packed[i].sparse});
    depth_.push_back(base == kNoBlob ? 0 : uint8_t(depth_[base] + 1));
    append(packed[i].z);
    by_id_.emplace(Key{packed[i].id, kind}, uint32_t(blobs_.size() - 1));
    ids.push_back(uint32_t(blobs_.size() - 1));
  }
  return ids;
}

uint32_t CaptureWriter::put_stored(const BlobInfo& info, std::string_view stored, uint32_t base) {
  if (auto it = by_id_.find(Key{info.id, info.kind}); it != by_id_.end()) return it->second;
  if (base != kNoBlob && (base >= blobs_.size() || blobs_[base].kind != info.kind || blobs_[base].bytes != info.bytes))
    throw InputError(fmt::format("capture '{}': a copied delta's base is not a stored blob of its kind and size", path_));
  blobs_.push_back(BlobInfo{offset_, stored.size(), info.bytes, info.id, info.kind, base, base != kNoBlob && info.sparse});
  depth_.push_back(base == kNoBlob ? 0 : uint8_t(depth_[base] + 1));
  append(stored);
  by_id_.emplace(Key{info.id, info.kind}, uint32_t(blobs_.size() - 1));
  return uint32_t(blobs_.size() - 1);
}

std::string seal_index(const std::string& file, std::string_view doc, uint64_t at) {
  std::string z;
  if (!Compressor()(doc, z, 3)) throw InputError(fmt::format("capture '{}': compression failed", file));
  const uint64_t footer[3] = {at, uint64_t(z.size()), XXH64(z.data(), z.size(), 0)};
  z.append(reinterpret_cast<const char*>(footer), sizeof footer);
  z.append(kEndMagic, sizeof kEndMagic);
  return z;
}

uint64_t index_offset(const std::string& file, std::string_view bytes) {
  uint64_t at = 0;
  if (bytes.size() < sizeof kMagic + kFooterBytes)
    throw InputError(fmt::format("capture {}: the file is truncated (no footer)", file));
  std::memcpy(&at, bytes.data() + bytes.size() - kFooterBytes, sizeof at);
  if (at < sizeof kMagic || at > bytes.size() - kFooterBytes)
    throw InputError(fmt::format("capture {}: the footer is corrupt (index out of the file)", file));
  return at;
}

uint64_t CaptureWriter::finish(CaptureIndex index) {
  index.blobs = blobs_;
  append(seal_index(path_, pack_index(index), offset_));
  if (::fsync(fd_) != 0 || ::close(fd_) != 0) {
    fd_ = -1;
    ::unlink(tmp_.c_str());
    throw InputError(fmt::format("cannot write capture '{}': {}", path_, std::strerror(errno)));
  }
  fd_ = -1;
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp_.c_str());
    throw InputError(fmt::format("cannot write capture '{}': {}", path_, std::strerror(err)));
  }
  return offset_;
}

// ------------------------------------------------------------------------------------ reader

namespace {

/// Capture `path`'s index document, decompressed and checked against its footer, from the file
/// open as `fd` of `size` bytes; `at` is set to where the index begins (the blob area's end).
/// With `prefix`, only about its first `prefix` bytes are decompressed (all, if it is shorter).
std::string index_document(const std::string& path, int fd, uint64_t size, uint64_t& at, size_t prefix = 0) {
  auto fail = [&](const std::string& why) { return InputError(fmt::format("capture {}: {}", path, why)); };
  char magic[8];
  if (size < sizeof magic || !read_at(fd, 0, magic, sizeof magic) || std::memcmp(magic, kMagic, 7) != 0)
    throw fail("not a strobe capture (no STRBCAP header)");
  if (magic[7] != kMagic[7])
    throw fail(fmt::format("capture format '{}', this strobe reads '{}'; capture the workload again", magic[7],
                           kMagic[7]));
  if (size < sizeof kMagic + kFooterBytes) throw fail("the file is truncated (no footer)");
  uint64_t footer[4];
  if (!read_at(fd, size - kFooterBytes, footer, sizeof footer)) throw fail("the file is truncated");
  if (std::memcmp(&footer[3], kEndMagic, 8) != 0) throw fail("the file is truncated or corrupt (no footer)");
  at = footer[0];
  const uint64_t n = footer[1];
  if (at < sizeof kMagic || n > kMaxIndexBytes || at > size - kFooterBytes || n != size - kFooterBytes - at)
    throw fail("the footer is corrupt (index out of the file)");
  std::string z(n, '\0');
  if (!read_at(fd, at, z.data(), n)) throw fail("the file is truncated");
  if (XXH64(z.data(), z.size(), 0) != footer[2]) throw fail("the index is corrupt (checksum mismatch)");
  const unsigned long long raw = ZSTD_getFrameContentSize(z.data(), z.size());
  if (raw == ZSTD_CONTENTSIZE_ERROR || raw == ZSTD_CONTENTSIZE_UNKNOWN || raw > kMaxIndexBytes)
    throw fail("the index is corrupt (bad compressed frame)");
  if (prefix > 0 && prefix < raw) {
    // A stream stopped once its output is full: the rest of the frame is never decompressed.
    std::string doc(prefix, '\0');
    std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
    if (!dctx) throw std::bad_alloc();
    ZSTD_inBuffer in{z.data(), z.size(), 0};
    ZSTD_outBuffer out{doc.data(), doc.size(), 0};
    while (out.pos < out.size) {
      const size_t r = ZSTD_decompressStream(dctx.get(), &out, &in);
      if (ZSTD_isError(r)) throw fail("the index is corrupt (bad compressed frame)");
      if (r == 0 || (in.pos == in.size && out.pos < out.size)) break;
    }
    doc.resize(out.pos);
    return doc;
  }
  std::string doc(raw, '\0');
  const size_t got = ZSTD_decompress(doc.data(), doc.size(), z.data(), z.size());
  if (ZSTD_isError(got) || got != raw) throw fail("the index is corrupt (bad compressed frame)");
  return doc;
}

/// `path` opened for reading, and its size; InputError naming it when it cannot be.
int open_capture(const std::string& path, uint64_t& size) {
  auto fail = [&](const std::string& why) { return InputError(fmt::format("capture {}: {}", path, why)); };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw fail("is a directory");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw fail(std::strerror(errno));
  const off_t end = ::lseek(fd, 0, SEEK_END);
  if (end < 0) {
    const int err = errno;
    ::close(fd);
    throw fail(std::strerror(err));
  }
  size = uint64_t(end);
  return fd;
}

}  // namespace

std::unique_ptr<CaptureFile> CaptureFile::open(const std::string& path) {
  std::unique_ptr<CaptureFile> f(new CaptureFile);
  f->path_ = path;
  f->fd_ = open_capture(path, f->size_);
  uint64_t at = 0;
  const std::string doc = index_document(path, f->fd_, f->size_, at);
  f->index_ = read_index(path, doc);
  f->is_base_.assign(f->index_.blobs.size(), false);
  for (const BlobInfo& b : f->index_.blobs) {
    if (b.offset < sizeof kMagic || b.offset > at || b.stored > at - b.offset)
      throw InputError(fmt::format("capture {}: a blob lies outside the file's blob area (corrupt file)", path));
    if (b.base != kNoBlob) f->is_base_[b.base] = true;
  }
  return f;
}

std::string CaptureFile::kind_of(const std::string& path) {
  uint64_t size = 0;
  const int fd = open_capture(path, size);
  struct Close {
    int fd;
    ~Close() { ::close(fd); }
  } close_fd{fd};
  uint64_t at = 0;
  // The kind is the index's second key: its first kilobytes hold it.
  return read_kind(path, index_document(path, fd, size, at, 64 << 10));
}

CaptureFile::~CaptureFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::string CaptureFile::blob(uint32_t id, BlobKind kind) const { return *decoded(id, kind); }

std::shared_ptr<const std::string> CaptureFile::decoded(uint32_t id, BlobKind kind) const {
  auto fail = [&](const std::string& why) { return InputError(fmt::format("capture {}: blob {}: {}", path_, id, why)); };
  if (id >= index_.blobs.size() || index_.blobs[id].kind != kind) throw fail("no such blob of its kind (corrupt file)");
  const BlobInfo& b = index_.blobs[id];
  if (is_base_[id]) {
    std::lock_guard lock(cache_mutex_);
    if (auto it = cached_.find(id); it != cached_.end()) {
      cache_.splice(cache_.end(), cache_, it->second);
      return it->second->second;
    }
  }
  std::string z(b.stored, '\0');
  if (!read_at(fd_, b.offset, z.data(), b.stored)) throw fail("the file is truncated");
  std::shared_ptr<std::string> out;
  if (b.sparse) {
    out = std::make_shared<std::string>(*decoded(b.base, kind));
    apply_sparse_delta(*out, z, fail);
  } else {
    out = std::make_shared<std::string>(b.bytes, '\0');
    const size_t got = ZSTD_decompress(out->data(), out->size(), z.data(), z.size());
    if (ZSTD_isError(got) || got != b.bytes) throw fail("corrupt compressed data");
  }
  if (b.base != kNoBlob) {  // a delta: the index checked that its chain is short and ends whole
    if (!b.sparse) xor_into(out->data(), decoded(b.base, kind)->data(), out->size());
    // The base is mostly a page's previous version, which a replay in order has read for the
    // last time: the cache keeps the newest version of each page, about the workload's memory.
    std::lock_guard lock(cache_mutex_);
    if (auto it = cached_.find(b.base); it != cached_.end()) {
      cache_bytes_ -= it->second->second->size();
      cache_.erase(it->second);
      cached_.erase(it);
    }
  }
  if (!(content_id(*out) == b.id)) throw fail("content does not match its checksum (corrupt file)");
  if (is_base_[id] && b.bytes <= kCacheBytes) {
    std::lock_guard lock(cache_mutex_);
    if (!cached_.contains(id)) {
      cached_.emplace(id, cache_.emplace(cache_.end(), id, out));
      cache_bytes_ += b.bytes;
      while (cache_bytes_ > kCacheBytes) {
        cache_bytes_ -= cache_.front().second->size();
        cached_.erase(cache_.front().first);
        cache_.pop_front();
      }
    }
  }
  return out;
}

std::string CaptureFile::stored_blob(uint32_t id) const {
  if (id >= index_.blobs.size())
    throw InputError(fmt::format("capture {}: blob {}: no such blob (corrupt file)", path_, id));
  const BlobInfo& b = index_.blobs[id];
  std::string z(b.stored, '\0');
  if (!read_at(fd_, b.offset, z.data(), b.stored))
    throw InputError(fmt::format("capture {}: blob {}: the file is truncated", path_, id));
  return z;
}

bool CaptureFile::keeps_checkpoint(uint64_t i) const {
  for (const PageRef& p : launch(i).pages)
    if (p.blob == kDroppedPage) return false;
  return true;
}

const LaunchRecord& CaptureFile::launch(uint64_t i) const {
  if (i >= index_.launches.size())
    throw InputError(fmt::format("capture {}: launch {} is out of range: it holds {} launch{} (0 to {})", path_, i,
                                 index_.launches.size(), index_.launches.size() == 1 ? "" : "es",
                                 index_.launches.size() - 1));
  return index_.launches[i];
}

}  // namespace strobe::capture
