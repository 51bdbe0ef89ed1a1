// The capture file's index (capture_file.h's CaptureIndex) packed as msgpack, and read back with
// every field checked. Internal to the capture module: the writer and the reader share it.
#include "capture/capture_index.h"

#include <cstring>

#include <fmt/format.h>
#include <msgpack.hpp>

#include "common/error.h"
#include "common/msgpack_reader.h"
#include "common/msgpack_writer.h"

namespace strobe::capture {

namespace {

using Packer = MsgpackPacker;
// One blob (a page, a history, a code object) beyond this is corrupt.
constexpr uint64_t kMaxBlobBytes = uint64_t{2} << 30;

void pack_id(Packer& pk, const ContentId& id) {
  pk.pack_array(2);
  pk.pack(id.lo);
  pk.pack(id.hi);
}

/// A checkpoint's pages as packed little-endian records: address, blob, flags.
struct PageBin {
  uint64_t addr;
  uint32_t blob;
  uint32_t flags;  // bit 0: written
};
static_assert(sizeof(PageBin) == 16);

/// Reads the decoded index, naming the file and the field in every error.
struct IndexReader : MsgpackReader {
  explicit IndexReader(const std::string& file) : MsgpackReader("capture " + file, "the index is ", "corrupt file") {}

  const msgpack::object_array& tuple(const msgpack::object& o, uint32_t n, const std::string& what) const {
    const auto& a = array(o, what);
    if (a.size != n) fail(fmt::format("{} has {} fields, not {} (corrupt file)", what, a.size, n));
    return a;
  }
  std::array<uint32_t, 3> dim3(const msgpack::object& o, const std::string& what) const {
    const auto& a = tuple(o, 3, what);
    return {u32(a.ptr[0], what), u32(a.ptr[1], what), u32(a.ptr[2], what)};
  }
  ContentId id(const msgpack::object& o, const std::string& what) const {
    const auto& a = tuple(o, 2, what);
    return ContentId{u64(a.ptr[0], what), u64(a.ptr[1], what)};
  }
  bool boolean(const msgpack::object& o, const std::string& what) const {
    if (o.type != msgpack::type::BOOLEAN) fail(what + " is not a boolean (corrupt file)");
    return o.via.boolean;
  }

  /// The index `doc`, read a root value or an array element at a time: a capture of 14,336
  /// launches has an index of millions of objects, and decoding it whole cost more than reading it.
  CaptureIndex index(std::string_view doc) const {
    const std::vector<std::pair<std::string_view, std::size_t>> entries = map_entries(doc, "the index");
    auto offset = [&](std::string_view key) {
      for (const auto& [k, at] : entries)
        if (k == key) return at;
      fail(fmt::format("the index has no '{}' (corrupt file)", key));
    };
    // Root value `key`, decoded alone.
    auto value = [&](std::string_view key) {
      std::size_t at = offset(key);
      return parse_at(doc, at);
    };
    // Calls fn(element, count) with each element of root array `key`, decoded one at a time.
    auto each = [&](std::string_view key, auto&& fn) {
      std::size_t at = offset(key);
      const uint32_t n = array_at(doc, at, key);
      for (uint32_t i = 0; i < n; ++i) fn(parse_at(doc, at).get(), n);
    };
    CaptureIndex x;
    const uint32_t version = u32(value("version").get(), "version");
    // Version 4 differs in keeping every checkpoint (no kept_for, no dropped pages), 4 and 5 in
    // having no sparse deltas, 4 to 6 in keeping one group of an instruction or scalar line.
    if (version < 4 || version > kFormatVersion)
      fail(fmt::format("format version {}, this strobe reads versions 4 to {}; capture the workload again", version,
                       kFormatVersion));
    x.version = version;
    x.kind = str(value("kind").get(), "kind");
    x.workload = str(value("workload").get(), "workload");
    each("params", [&](const msgpack::object& p, uint32_t) { x.params.push_back(str(p, "params")); });
    x.build = str(value("build").get(), "build");
    x.granule_bytes = u32(value("granule_bytes").get(), "granule_bytes");
    if (x.granule_bytes < 16 || x.granule_bytes > 1024 || (x.granule_bytes & (x.granule_bytes - 1)))
      fail(fmt::format("granule_bytes {} is not a power of two in [16, 1024] (corrupt file)", x.granule_bytes));
    x.history_bytes = u64(value("history_bytes").get(), "history_bytes");
    if (x.history_bytes < kMinHistoryBytes || x.history_bytes > kMaxHistoryBytes)
      fail(fmt::format("history_bytes {} is outside the [{} MiB, {} GiB] a capture bounds its history by (corrupt "
                       "file)",
                       x.history_bytes, kMinHistoryBytes >> 20, kMaxHistoryBytes >> 30));
    x.threads = u32(value("threads").get(), "threads");
    x.capture_seconds = f64(value("capture_seconds").get(), "capture_seconds");
    x.peak_device_bytes = u64(value("peak_device_bytes").get(), "peak_device_bytes");
    x.host_addresses = boolean(value("host_addresses").get(), "host_addresses");
    if (version >= 5) x.kept_for = str(value("kept_for").get(), "kept_for");
    // Blobs first: everything else refers to them by index.
    std::vector<uint8_t> depth;  // deltas under each blob: a chain longer than the writer makes is corrupt
    each("blobs", [&](const msgpack::object& b, uint32_t n) {
      x.blobs.reserve(n);
      // Version 6 adds whether a delta is sparse.
      const auto& t = tuple(b, version >= 6 ? 7 : 6, "a blob");
      BlobInfo bi{u64(t.ptr[0], "blob offset"), u64(t.ptr[1], "blob size"), u64(t.ptr[2], "blob bytes"),
                  id(t.ptr[3], "blob id"), BlobKind(u32(t.ptr[4], "blob kind")), u32(t.ptr[5], "blob base")};
      if (version >= 6) bi.sparse = boolean(t.ptr[6], "blob sparse");
      const size_t i = x.blobs.size();
      if (bi.sparse && (bi.base == kNoBlob || bi.bytes == 0 || bi.bytes % kSparseChunk != 0))
        fail(fmt::format("blob {} is a sparse delta of {} bytes on {} (corrupt file)", i, bi.bytes,
                         bi.base == kNoBlob ? std::string("no base") : fmt::format("blob {}", bi.base)));
      if (uint32_t(bi.kind) < uint32_t(BlobKind::Page) || uint32_t(bi.kind) > uint32_t(BlobKind::FrameCounts))
        fail(fmt::format("blob {} has unknown kind {} (corrupt file)", i, uint32_t(bi.kind)));
      if (bi.bytes > kMaxBlobBytes || bi.stored > kMaxBlobBytes)
        fail(fmt::format("blob {} claims {} bytes (corrupt file)", i, bi.bytes));
      uint8_t d = 0;
      if (bi.base != kNoBlob) {
        if (bi.base >= i || x.blobs[bi.base].kind != bi.kind || x.blobs[bi.base].bytes != bi.bytes)
          fail(fmt::format("blob {} is a delta on blob {}, which is not an earlier blob of its kind and size "
                           "(corrupt file)",
                           i, bi.base));
        d = uint8_t(depth[bi.base] + 1);
        const uint32_t most = bi.sparse ? kMaxSparseChain : kMaxDeltaChain;
        if (d > most)
          fail(fmt::format("blob {} stands on a chain of more than {} deltas (corrupt file)", i, most));
      }
      depth.push_back(d);
      x.blobs.push_back(bi);
    });
    auto blob_ref = [&](const msgpack::object& o, const std::string& what, BlobKind kind) {
      const uint32_t b = u32(o, what);
      if (b >= x.blobs.size() || x.blobs[b].kind != kind)
        fail(fmt::format("{} refers to blob {}, which is not a blob of its kind (corrupt file)", what, b));
      return b;
    };
    x.profile = u32(value("profile").get(), "profile");
    if (x.profile != kNoBlob) x.profile = blob_ref(value("profile").get(), "the profile", BlobKind::Profile);
    each("code_objects", [&](const msgpack::object& c, uint32_t) {
      const auto& t = tuple(c, 6, "a code object");
      x.code_objects.push_back(CodeObjectRecord{str(t.ptr[0], "code object name"), u64(t.ptr[1], "load base"),
                                                blob_ref(t.ptr[2], "a code object", BlobKind::CodeObject),
                                                id(t.ptr[3], "code object id"), boolean(t.ptr[4], "code object kind"),
                                                u64(t.ptr[5], "code object load bias")});
    });
    each("allocation_maps", [&](const msgpack::object& m, uint32_t) {
      std::vector<AllocationRecord>& map = x.allocation_maps.emplace_back();
      for (const auto& a : items(m, "an allocation map")) {
        const auto& t = tuple(a, 3, "an allocation");
        map.push_back(AllocationRecord{u64(t.ptr[0], "allocation address"), u64(t.ptr[1], "allocation size"),
                                       str(t.ptr[2], "allocation tag")});
      }
    });
    each("launches", [&](const msgpack::object& o, uint32_t n) {
      x.launches.reserve(n);
      const std::string what = fmt::format("launch {}", x.launches.size());
      const auto& t = tuple(o, 24, what);
      LaunchRecord l;
      emu::Dispatch& d = l.dispatch;
      d.kernel_name = str(t.ptr[0], what + " kernel");
      l.code_object = u32(t.ptr[1], what + " code object");
      if (l.code_object >= x.code_objects.size())
        fail(fmt::format("{} names code object {} of {} (corrupt file)", what, l.code_object, x.code_objects.size()));
      d.grid = dim3(t.ptr[2], what + " grid");
      d.local = dim3(t.ptr[3], what + " work-group size");
      for (int k = 0; k < 3; ++k)
        if (d.grid[k] == 0 || d.local[k] == 0) fail(fmt::format("{} has an empty grid or work-group (corrupt file)", what));
      d.packet_address = u64(t.ptr[4], what + " packet");
      d.kernarg_address = u64(t.ptr[5], what + " kernarg");
      d.queue_address = u64(t.ptr[6], what + " queue");
      d.lds_bytes = u32(t.ptr[7], what + " LDS");
      d.private_bytes_per_lane = u32(t.ptr[8], what + " private size");
      l.allocations = u32(t.ptr[9], what + " allocation map");
      if (l.allocations >= x.allocation_maps.size())
        fail(fmt::format("{} names allocation map {} of {} (corrupt file)", what, l.allocations,
                         x.allocation_maps.size()));
      l.next_address = u64(t.ptr[10], what + " next address");
      const std::string_view pages = bin(t.ptr[11], what + " pages");
      if (pages.size() % sizeof(PageBin)) fail(what + " pages are not whole records (corrupt file)");
      l.pages.reserve(pages.size() / sizeof(PageBin));
      for (size_t i = 0; i < pages.size(); i += sizeof(PageBin)) {
        PageBin b;
        std::memcpy(&b, pages.data() + i, sizeof b);
        // A dropped page only in a capture that keeps some checkpoints (kept_for says which).
        const bool dropped = b.blob == kDroppedPage && !x.kept_for.empty();
        if (b.blob != kZeroPage && !dropped &&
            (b.blob >= x.blobs.size() || x.blobs[b.blob].kind != BlobKind::Page || x.blobs[b.blob].bytes != kPageBytes))
          fail(fmt::format("{} page 0x{:x} refers to blob {}, which is not a page (corrupt file)", what, b.addr,
                           b.blob));
        if ((b.addr & (kPageBytes - 1)) || (b.flags & ~1u))
          fail(fmt::format("{} page 0x{:x} is malformed (corrupt file)", what, b.addr));
        l.pages.push_back(PageRef{b.addr, b.blob, (b.flags & 1) != 0});
      }
      l.written_digest = u64(t.ptr[12], what + " written digest");
      l.dependent_groups = boolean(t.ptr[13], what + " dependent groups");
      l.history = blob_ref(t.ptr[14], what + " history", BlobKind::History);
      l.history_entries = u64(t.ptr[15], what + " history entries");
      const auto& s = tuple(t.ptr[16], 7, what + " counters");
      l.stats.wave_instructions = u64(s.ptr[0], what + " counters");
      l.stats.thread_instructions = u64(s.ptr[1], what + " counters");
      l.stats.vector_memory_instructions = u64(s.ptr[2], what + " counters");
      l.stats.scalar_memory_instructions = u64(s.ptr[3], what + " counters");
      l.stats.lds_instructions = u64(s.ptr[4], what + " counters");
      l.stats.workgroups = u64(s.ptr[5], what + " counters");
      l.stats.wavefronts = u64(s.ptr[6], what + " counters");
      l.seconds = f64(t.ptr[17], what + " seconds");
      d.dispatch_id = u64(t.ptr[18], what + " dispatch id");
      l.code = blob_ref(t.ptr[19], what + " code lines", BlobKind::History);
      l.code_entries = u64(t.ptr[20], what + " code lines");
      d.entry_address = u64(t.ptr[21], what + " entry address");
      const auto& k = tuple(t.ptr[22], 8, what + " kernel descriptor");
      d.kd.group_segment_fixed_size = u32(k.ptr[0], what + " kernel descriptor");
      d.kd.private_segment_fixed_size = u32(k.ptr[1], what + " kernel descriptor");
      d.kd.kernarg_size = u32(k.ptr[2], what + " kernel descriptor");
      d.kd.kernel_code_entry_byte_offset = int64_t(u64(k.ptr[3], what + " kernel descriptor"));
      d.kd.compute_pgm_rsrc3 = u32(k.ptr[4], what + " kernel descriptor");
      d.kd.compute_pgm_rsrc1 = u32(k.ptr[5], what + " kernel descriptor");
      d.kd.compute_pgm_rsrc2 = u32(k.ptr[6], what + " kernel descriptor");
      const uint64_t props = u64(k.ptr[7], what + " kernel descriptor");
      if (props > 0xffff) fail(fmt::format("{} kernel descriptor is malformed (corrupt file)", what));
      d.kd.kernel_code_properties = uint16_t(props);
      l.calls_host = boolean(t.ptr[23], what + " host calls");
      x.launches.push_back(std::move(l));
    });
    x.tile_size = u32(value("tile_size").get(), "tile_size");
    x.bin_entry_bytes = u32(value("bin_entry_bytes").get(), "bin_entry_bytes");
    each("frames", [&](const msgpack::object& o, uint32_t) {
      const std::string what = fmt::format("frame record {}", x.frames.size());
      const auto& t = tuple(o, 7, what);
      FrameRecord f;
      f.frame = u64(t.ptr[0], what + " frame");
      if (!x.frames.empty() && f.frame <= x.frames.back().frame)
        fail(fmt::format("{} is frame {}, after frame {} (corrupt file)", what, f.frame, x.frames.back().frame));
      f.data = blob_ref(t.ptr[1], what + " data", BlobKind::Frame);
      f.counts = blob_ref(t.ptr[2], what + " counts", BlobKind::FrameCounts);
      f.history = blob_ref(t.ptr[3], what + " history", BlobKind::History);
      f.history_entries = u64(t.ptr[4], what + " history entries");
      f.wave_instructions = u64(t.ptr[5], what + " wave instructions");
      f.seconds = f64(t.ptr[6], what + " seconds");
      x.frames.push_back(f);
    });
    if ((x.kind != "frames" && x.kind != "benchmark" && x.kind != "program") || (x.kind == "frames") != !x.frames.empty())
      fail(fmt::format("a capture of kind '{}' with {} frames (corrupt file)", x.kind, x.frames.size()));
    if (x.kind == "frames" && (x.tile_size == 0 || x.tile_size > 4096))
      fail(fmt::format("tile size {} (corrupt file)", x.tile_size));
    return x;
  }

 private:
  /// The elements of an array, as a range.
  struct Range {
    const msgpack::object* b;
    const msgpack::object* e;
    const msgpack::object* begin() const { return b; }
    const msgpack::object* end() const { return e; }
  };
  Range items(const msgpack::object& o, const std::string& what) const {
    const auto& a = array(o, what);
    return Range{a.ptr, a.ptr + a.size};
  }
};

}  // namespace

std::string pack_index(const CaptureIndex& x) {
  msgpack::sbuffer buf;
  Packer pk(buf);
  pk.pack_map(20);
  pack_str(pk, "version");
  pk.pack(kFormatVersion);
  pack_str(pk, "kind");
  pack_str(pk, x.kind);
  pack_str(pk, "workload");
  pack_str(pk, x.workload);
  pack_str(pk, "params");
  pk.pack_array(uint32_t(x.params.size()));
  for (const auto& p : x.params) pack_str(pk, p);
  pack_str(pk, "build");
  pack_str(pk, x.build);
  pack_str(pk, "granule_bytes");
  pk.pack(x.granule_bytes);
  pack_str(pk, "history_bytes");
  pk.pack(x.history_bytes);
  pack_str(pk, "threads");
  pk.pack(x.threads);
  pack_str(pk, "capture_seconds");
  pk.pack(x.capture_seconds);
  pack_str(pk, "peak_device_bytes");
  pk.pack(x.peak_device_bytes);
  pack_str(pk, "host_addresses");
  pk.pack(x.host_addresses);
  pack_str(pk, "kept_for");
  pack_str(pk, x.kept_for);
  pack_str(pk, "profile");
  pk.pack(x.profile);
  pack_str(pk, "code_objects");
  pk.pack_array(uint32_t(x.code_objects.size()));
  for (const auto& c : x.code_objects) {
    pk.pack_array(6);
    pack_str(pk, c.name);
    pk.pack(c.load_base);
    pk.pack(c.blob);
    pack_id(pk, c.image_id);
    pk.pack(c.loaded);
    pk.pack(c.load_bias);
  }
  pack_str(pk, "allocation_maps");
  pk.pack_array(uint32_t(x.allocation_maps.size()));
  for (const auto& m : x.allocation_maps) {
    pk.pack_array(uint32_t(m.size()));
    for (const auto& a : m) {
      pk.pack_array(3);
      pk.pack(a.addr);
      pk.pack(a.bytes);
      pack_str(pk, a.tag);
    }
  }
  pack_str(pk, "launches");
  pk.pack_array(uint32_t(x.launches.size()));
  for (const auto& l : x.launches) {
    pk.pack_array(24);
    const emu::Dispatch& d = l.dispatch;
    pack_str(pk, d.kernel_name);
    pk.pack(l.code_object);
    pack_dim3(pk, d.grid);
    pack_dim3(pk, d.local);
    pk.pack(d.packet_address);
    pk.pack(d.kernarg_address);
    pk.pack(d.queue_address);
    pk.pack(d.lds_bytes);
    pk.pack(d.private_bytes_per_lane);
    pk.pack(l.allocations);
    pk.pack(l.next_address);
    std::string pages(l.pages.size() * sizeof(PageBin), '\0');
    for (size_t i = 0; i < l.pages.size(); ++i) {
      const PageBin b{l.pages[i].addr, l.pages[i].blob, l.pages[i].written ? 1u : 0u};
      std::memcpy(pages.data() + i * sizeof(PageBin), &b, sizeof b);
    }
    pack_bin(pk, pages);
    pk.pack(l.written_digest);
    pk.pack(l.dependent_groups);
    pk.pack(l.history);
    pk.pack(l.history_entries);
    const emu::DispatchStats& s = l.stats;
    pk.pack_array(7);
    for (uint64_t v : {s.wave_instructions, s.thread_instructions, s.vector_memory_instructions,
                       s.scalar_memory_instructions, s.lds_instructions, s.workgroups, s.wavefronts})
      pk.pack(v);
    pk.pack(l.seconds);
    pk.pack(d.dispatch_id);
    pk.pack(l.code);
    pk.pack(l.code_entries);
    pk.pack(d.entry_address);
    const loader::KernelDescriptor& kd = d.kd;
    pk.pack_array(8);
    for (uint64_t v : {uint64_t(kd.group_segment_fixed_size), uint64_t(kd.private_segment_fixed_size),
                       uint64_t(kd.kernarg_size), uint64_t(kd.kernel_code_entry_byte_offset),
                       uint64_t(kd.compute_pgm_rsrc3), uint64_t(kd.compute_pgm_rsrc1), uint64_t(kd.compute_pgm_rsrc2),
                       uint64_t(kd.kernel_code_properties)})
      pk.pack(v);
    pk.pack(l.calls_host);
  }
  pack_str(pk, "tile_size");
  pk.pack(x.tile_size);
  pack_str(pk, "bin_entry_bytes");
  pk.pack(x.bin_entry_bytes);
  pack_str(pk, "frames");
  pk.pack_array(uint32_t(x.frames.size()));
  for (const FrameRecord& f : x.frames) {
    pk.pack_array(7);
    pk.pack(f.frame);
    pk.pack(f.data);
    pk.pack(f.counts);
    pk.pack(f.history);
    pk.pack(f.history_entries);
    pk.pack(f.wave_instructions);
    pk.pack(f.seconds);
  }
  pack_str(pk, "blobs");
  pk.pack_array(uint32_t(x.blobs.size()));
  for (const auto& b : x.blobs) {
    pk.pack_array(7);
    pk.pack(b.offset);
    pk.pack(b.stored);
    pk.pack(b.bytes);
    pack_id(pk, b.id);
    pk.pack(uint32_t(b.kind));
    pk.pack(b.base);
    pk.pack(b.sparse);
  }
  return std::string(buf.data(), buf.size());
}

CaptureIndex read_index(const std::string& file, std::string_view doc) {
  return IndexReader(file).index(doc);
}

std::string read_kind(const std::string& file, std::string_view doc) {
  const IndexReader r(file);
  // The root map's header, then its first entries one msgpack object at a time: a capture of
  // 14,336 launches has an index of millions of objects, and a caller asking its kind needs two.
  if (doc.empty()) r.fail("the index is empty (corrupt file)");
  std::size_t off = 0;
  r.map_at(doc, off, "the index");
  // The value after key `key`, which must be the next one.
  auto value_of = [&](std::string_view key) {
    const msgpack::object_handle k = r.parse_at(doc, off);
    if (k.get().type != msgpack::type::STR || std::string_view(k.get().via.str.ptr, k.get().via.str.size) != key)
      r.fail(fmt::format("the index does not begin with '{}' (corrupt file)", key));
    return r.parse_at(doc, off);
  };
  value_of("version");
  return r.str(value_of("kind").get(), "the kind");
}

}  // namespace strobe::capture
