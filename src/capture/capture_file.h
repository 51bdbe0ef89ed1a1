// A workload capture: every launch of one functional run, each with what it needs to run alone
// (its dispatch, its checkpoint of device pages, the allocation map) and the configuration-free
// history its warm state is rebuilt from (history.h), in one file. Pages and histories are
// content-addressed blobs, each compressed with zstd and checked by its XXH3-128 on reading, so a
// page written once and read by ten later launches is stored once. A new version of a page may
// be stored as its bytes XOR an earlier version's (a delta): a launch that rewrites a few lines
// of a page then costs those lines, not the page, and chains stay short (kMaxDeltaChain,
// kMaxSparseChain) so a replay reads little to rebuild one page. A delta that changes few of its
// 64-byte chunks keeps only those (a sparse delta), so neither writing nor reading one scans the
// page. The file is written to a temporary name and renamed when complete; a reader checks the
// footer, the index and every blob it reads, and names the file and the reason for anything wrong.
//
// Layout: "STRBCAP1" | blobs ... | index (zstd msgpack) | footer (index offset, size, XXH64,
// "STRBCEND"). The index is small; blobs are read on demand, so replaying one launch reads its
// pages only.
#pragma once

#include <array>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "emu/dispatch.h"

namespace strobe::capture {

/// The capture format's version; a file of another version is refused by name.
inline constexpr uint32_t kFormatVersion = 7;
/// Bytes of a checkpoint page: the device memory's host page (emu::GlobalMemory::kPageSize).
inline constexpr uint64_t kPageBytes = uint64_t{1} << 16;
/// The blob id of a page that reads as zero (never stored).
inline constexpr uint32_t kZeroPage = UINT32_MAX;
/// The blob id of a page whose content a capture that keeps only some checkpoints did not keep
/// (CaptureIndex::kept_for): the launch that reads it cannot run from this file.
inline constexpr uint32_t kDroppedPage = UINT32_MAX - 1;
/// The distinct bytes of history a capture may bound its replays' warm walks by
/// (CaptureIndex::history_bytes; `strobe capture --history-mib`): a value outside is corrupt.
inline constexpr uint64_t kMinHistoryBytes = uint64_t{1} << 20, kMaxHistoryBytes = uint64_t{64} << 30;
/// The bound a capture records unless told otherwise: twice the largest L2 of the presets.
inline constexpr uint64_t kDefaultHistoryBytes = uint64_t{32} << 20;
/// Deltas a blob's bytes may stand on, at most, down to a blob stored whole, where the blob is
/// a dense delta: reading one decompresses at most this many whole pages plus one.
inline constexpr uint32_t kMaxDeltaChain = 8;
/// The same bound for a sparse delta (BlobInfo::sparse), whose levels are its few chunks: a
/// page that launch after launch rewrites a few lines is stored whole once per this many
/// versions, not once per kMaxDeltaChain (whole versions were most of such a capture's
/// compression). A dense delta never stands deeper than kMaxDeltaChain.
inline constexpr uint32_t kMaxSparseChain = 64;

/// A 128-bit content hash (XXH3-128): blobs with equal ids are taken to be equal.
struct ContentId {
  uint64_t lo = 0, hi = 0;
  bool operator==(const ContentId&) const = default;
};
/// The content id of `bytes`.
ContentId content_id(std::string_view bytes);

/// What a blob holds (checked when a reader asks for one).
enum class BlobKind : uint8_t {
  Page = 1,
  History = 2,
  CodeObject = 3,
  Profile = 4,
  Frame = 5,         ///< a graphics frame (gfx::encode_frame), its contents in FrameContent blobs
  FrameContent = 6,  ///< a buffer's, index list's or texture level's bytes that frames read
  FrameCounts = 7,   ///< a frame's functional counts (gfx::FrameStats as msgpack)
};
/// No blob (an optional reference).
inline constexpr uint32_t kNoBlob = UINT32_MAX;

/// Where a blob lies in the file.
struct BlobInfo {
  uint64_t offset = 0;      ///< of its compressed bytes
  uint64_t stored = 0;      ///< compressed bytes
  uint64_t bytes = 0;       ///< uncompressed bytes
  ContentId id;             ///< of the uncompressed bytes (a delta's: of the bytes it rebuilds)
  BlobKind kind = BlobKind::Page;
  /// kNoBlob: stored whole; else stored as its bytes XOR this earlier blob's (of the same kind
  /// and size).
  uint32_t base = kNoBlob;
  /// A delta stored sparse: a bitmap of its kSparseChunk-byte chunks, bit i set where chunk i
  /// differs from the base's, then those chunks' XOR in order (compressed as one frame).
  bool sparse = false;
};

/// The chunk a sparse delta keeps or leaves out (BlobInfo::sparse).
inline constexpr uint64_t kSparseChunk = 64;

/// A code object the workload loaded, at the device address it was loaded to; or, for code a host
/// program's GPU runtime loaded itself (HIP), the code's bytes as they lay in device memory.
struct CodeObjectRecord {
  std::string name;        ///< the code object's file name (its identity in a benchmark's build)
  uint64_t load_base = 0;  ///< device address of its ELF address 0 (loaded: of its first byte)
  uint32_t blob = 0;       ///< its ELF image (loaded: the code bytes)
  ContentId image_id;      ///< of the image (the definition check compares it)
  /// The blob is code as loaded, not an ELF image: its launches keep their entry address and
  /// kernel descriptor in their dispatch.
  bool loaded = false;
  uint64_t load_bias = 0;  ///< loaded: the code's address minus its ELF address (isa::Program)
};

/// One live allocation of the map at a launch.
struct AllocationRecord {
  uint64_t addr = 0, bytes = 0;
  std::string tag;
  bool operator==(const AllocationRecord&) const = default;
};

/// One page of a launch's checkpoint: its content before the launch, and whether the launch
/// wrote it (a replay with verification digests the written pages).
struct PageRef {
  uint64_t addr = 0;  ///< page-aligned device address
  uint32_t blob = kZeroPage;
  bool written = false;
};

/// One launch: its dispatch, its checkpoint and its history.
struct LaunchRecord {
  /// The dispatch as the captured run made it: kernel name, geometry, packet, kernarg and queue
  /// addresses, LDS and private sizes, dispatch id, entry address and kernel descriptor. Its
  /// program is not kept here: a replay decodes it from the code object.
  emu::Dispatch dispatch;
  uint32_t code_object = 0;  ///< index into CaptureIndex::code_objects
  uint32_t allocations = 0;             ///< index into CaptureIndex::allocation_maps
  uint64_t next_address = 0;            ///< where the launch's own allocations (scratch) began
  std::vector<PageRef> pages;           ///< the checkpoint, by address
  /// XXH3-64 over the written pages' addresses and contents after the launch.
  uint64_t written_digest = 0;
  /// Its work-groups depend on each other's results (global atomics): every page of the
  /// allocations it touched is in the checkpoint, and its groups are always emulated.
  bool dependent_groups = false;
  /// It called the host while it ran (s_sendmsg MSG_INTERRUPT: ockl's hostcall, behind device
  /// printf and malloc) and waited for the answer, which a replay has no host program to give.
  bool calls_host = false;
  uint32_t history = 0;                 ///< blob of its access summary (history.h)
  uint64_t history_entries = 0;
  /// Blob of the instruction lines it fetched, in last-fetch order (its history's L1I entries
  /// alone, the same for every launch of a kernel that runs the same code: stored once). A
  /// replay reaches further back for code than for data, since code stays in the small
  /// instruction caches while data streams through the L2.
  uint32_t code = 0;
  uint64_t code_entries = 0;
  emu::DispatchStats stats;             ///< the functional run's counters
  double seconds = 0;                   ///< functional run and recording
};

/// One graphics frame of a frames capture: what renders it alone (the frame, with everything its
/// draws read), its functional counts, and its history (the lines its work touches, in the
/// tile-based pipeline's order: timing/gfx/frame_accesses.h).
struct FrameRecord {
  uint64_t frame = 0;              ///< the trace's frame number
  uint32_t data = 0;               ///< its Frame blob
  uint32_t counts = 0;             ///< its FrameCounts blob
  uint32_t history = 0;            ///< its History blob
  uint64_t history_entries = 0;
  uint64_t wave_instructions = 0;  ///< of its shader waves
  double seconds = 0;              ///< rendering, recording and walking it
};

/// What was captured and how.
struct CaptureIndex {
  std::string kind = "benchmark";     ///< "benchmark", "program" (a host program's) or "frames"
  /// The format version the file was written at (read: 4 to kFormatVersion). Before 7, an
  /// instruction or scalar line's history kept only the last group that touched it.
  uint32_t version = kFormatVersion;
  std::string workload;               ///< benchmark name
  std::vector<std::string> params;    ///< effective "K=V", defaults included, sorted
  std::string build;                  ///< the strobe commit that captured it
  uint32_t granule_bytes = 64;        ///< the history's line size: the smallest line a replay may use
  uint64_t history_bytes = kDefaultHistoryBytes;  ///< distinct bytes of history a replay warms from, at most
  uint32_t threads = 1;               ///< host threads of the capture run
  double capture_seconds = 0;         ///< the whole capture run, setup and writing included
  uint64_t peak_device_bytes = 0;     ///< the most device memory allocated at any launch
  /// The run's device memory was the program's own (a HIP program): its allocations lie at the
  /// program's addresses, which a replay places wherever its own pages are.
  bool host_addresses = false;
  /// Empty: every launch's checkpoint is kept. Else the capture keeps only the checkpoints of the
  /// launches a selection runs (capture/keep.h), and this says which selection ("tbpoint, pka on
  /// r9nano"); the other launches' pages are kDroppedPage, and only their history, profile and
  /// dispatch remain, which is all a method needs of a launch it predicts.
  std::string kept_for;
  /// The functional profile of every launch (sampling/profile/profile_file.h), collected in the
  /// same run at granule_bytes lines: what profile-driven sampling methods read (kNoBlob: none).
  uint32_t profile = kNoBlob;
  std::vector<CodeObjectRecord> code_objects;
  std::vector<std::vector<AllocationRecord>> allocation_maps;  ///< distinct maps, launches index them
  std::vector<LaunchRecord> launches;
  /// A frames capture: the tile size its frames were recorded at (a replay needs the same
  /// gfx.tile_size), and its frames in trace order.
  uint32_t tile_size = 0;
  uint32_t bin_entry_bytes = 0;  ///< gfx.bin_entry_bytes its histories' bin lists were laid out with
  std::vector<FrameRecord> frames;
  std::vector<BlobInfo> blobs;
};

/// Writes a capture: blobs as they come (deduplicated by content), then the index. Everything is
/// written to PATH.tmp.PID and renamed to PATH by finish(); a writer destroyed unfinished removes
/// its temporary file, so a killed or failed capture leaves no partial file under PATH.
class CaptureWriter {
 public:
  /// Opens the temporary file; throws InputError naming `path` if it cannot be created.
  explicit CaptureWriter(std::string path);
  ~CaptureWriter();
  CaptureWriter(const CaptureWriter&) = delete;
  CaptureWriter& operator=(const CaptureWriter&) = delete;

  /// Stores `bytes` unless a blob with the same content is already stored; returns its id.
  uint32_t put(BlobKind kind, std::string_view bytes);
  /// An earlier version of an item: its blob and its bytes (as long as the item's).
  struct Base {
    uint32_t blob = kNoBlob;  ///< none
    const char* bytes = nullptr;
  };
  /// put() of every one of `items`, in order, their hashing and compression spread over up to
  /// `threads` host threads (the file is the same as one put() after another would write);
  /// their ids. With `bases` (one per item), an item whose base is given is stored as a delta
  /// against it when that is smaller and the base's chain is short enough.
  std::vector<uint32_t> put_all(BlobKind kind, const std::vector<std::string_view>& items, uint32_t threads,
                                const std::vector<Base>& bases = {});
  /// Stores a blob as another capture stored it: `info` as its index says (its base replaced by
  /// `base`, this writer's id of the same base) and `stored`, its compressed bytes, copied
  /// without decompressing. Returns its id (an equal blob already stored is not stored again).
  uint32_t put_stored(const BlobInfo& info, std::string_view stored, uint32_t base);
  /// The blobs stored so far (the index's blob table).
  const std::vector<BlobInfo>& blobs() const { return blobs_; }
  /// Bytes written so far.
  uint64_t size() const { return offset_; }
  /// Writes `index` (its blob table replaced by this writer's), syncs and renames the file into
  /// place. Returns the file's size.
  uint64_t finish(CaptureIndex index);

 private:
  void append(std::string_view bytes);
  std::string path_, tmp_;
  int fd_ = -1;
  uint64_t offset_ = 0;
  std::vector<BlobInfo> blobs_;
  /// A stored blob's content and kind: equal content of another kind is another blob.
  struct Key {
    ContentId id;
    BlobKind kind;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return size_t(k.id.lo ^ (k.id.hi * 0x9e3779b97f4a7c15ull) ^ uint64_t(k.kind)); }
  };
  std::unordered_map<Key, uint32_t, KeyHash> by_id_;
  std::vector<uint8_t> depth_;  // per blob: deltas under it down to a whole blob
  std::string scratch_;  // compression buffer
};

/// A capture opened for reading: its index, and its blobs on demand (safe from several threads).
class CaptureFile {
 public:
  /// Opens `path` and reads its index. Throws InputError naming the file and the reason: not a
  /// capture, another format version, truncated, or corrupt.
  static std::unique_ptr<CaptureFile> open(const std::string& path);
  /// The kind of capture `path` holds (CaptureIndex::kind), checked as open() checks the file but
  /// without reading the rest of its index; InputError as open().
  static std::string kind_of(const std::string& path);
  ~CaptureFile();
  CaptureFile(const CaptureFile&) = delete;
  CaptureFile& operator=(const CaptureFile&) = delete;

  const std::string& path() const { return path_; }
  const CaptureIndex& index() const { return index_; }
  /// The file's size in bytes.
  uint64_t size() const { return size_; }
  /// Blob `id`'s bytes, decompressed and checked against its content id; InputError naming the
  /// file if `id` is out of range, of another kind than `kind`, or corrupt.
  std::string blob(uint32_t id, BlobKind kind) const;
  /// blob() without copying the bytes out of the reader's cache of delta bases.
  std::shared_ptr<const std::string> shared_blob(uint32_t id, BlobKind kind) const { return decoded(id, kind); }
  /// Blob `id`'s bytes as stored (compressed; a delta's against its base), unchecked: for
  /// copying into another capture (CaptureWriter::put_stored), whose reader checks them.
  std::string stored_blob(uint32_t id) const;
  /// Whether launch `i`'s checkpoint is in the file (it is unless kept_for dropped it).
  bool keeps_checkpoint(uint64_t i) const;
  /// The launch `i`; InputError naming the file and the count if out of range.
  const LaunchRecord& launch(uint64_t i) const;

 private:
  CaptureFile() = default;
  /// Blob `id` decoded and checked, from the cache when it is there; kept in the cache when a
  /// delta stands on it (an in-order replay then rebuilds each page's next version from it).
  std::shared_ptr<const std::string> decoded(uint32_t id, BlobKind kind) const;
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
  CaptureIndex index_;
  std::vector<bool> is_base_;  // per blob: a delta stands on it
  /// Decoded bases, least recently used first, up to kCacheBytes.
  static constexpr uint64_t kCacheBytes = uint64_t{128} << 20;
  mutable std::mutex cache_mutex_;
  mutable std::list<std::pair<uint32_t, std::shared_ptr<const std::string>>> cache_;
  mutable std::unordered_map<uint32_t, decltype(cache_)::iterator> cached_;
  mutable uint64_t cache_bytes_ = 0;
};

}  // namespace strobe::capture
