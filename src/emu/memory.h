// Device (global) memory: sparse, page-granular, with allocation tracking so a kernel's stray
// pointer is reported as a fault instead of silently reading zeros or corrupting another buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strobe::emu {

/// How kernel-side accesses just past the end of an allocation are treated.
enum class MemoryCheck : uint8_t {
  /// As the hardware: device memory is mapped in 4 KiB pages, so an access past the end of an
  /// allocation but inside its last mapped page succeeds; it is counted and reported as a warning.
  Page,
  /// Every byte of an access must lie inside a live allocation (for debugging kernels).
  Strict,
};

/// Parses "page" or "strict"; throws InputError naming the value otherwise.
MemoryCheck parse_memory_check(const std::string& name);

/// Kernel accesses that fell outside every allocation but inside a mapped page.
struct OverrunLog {
  static constexpr size_t kShown = 5;  ///< how many are kept with their full detail
  uint64_t count = 0;                  ///< every such access (per instruction and lane)
  std::vector<std::string> shown;      ///< the first kShown, each with kernel, wave, PC and address

  /// Records one access; `detail` is called for the first kShown only, so the common case
  /// formats nothing.
  template <typename Detail>
  void note(Detail&& detail) {
    if (count++ < kShown) shown.push_back(detail());
  }
  /// Appends the accesses of `later`, which happened after every access already here: the
  /// result is the log one run in that order would have written.
  void append(const OverrunLog& later) {
    for (const auto& s : later.shown)
      if (shown.size() < kShown) shown.push_back(s);
    count += later.count;
  }
};

/// Sparse device memory. Addresses are 64-bit device virtual addresses.
/// Host-side reads and writes must fall inside a live allocation. Kernel-side accesses must too,
/// except that under MemoryCheck::Page (the default) the tail of an allocation's last mapped page
/// is accessible, as on hardware (see translate_mapped).
///
/// Two addressing modes, chosen once before the first allocation:
/// - managed (the default): strobe hands out addresses from 4 GiB up and backs them itself;
/// - host identity (use_host_addresses): a device address is an address of this process, so a
///   program, its GPU runtime and the simulator share one address space (the HIP path); a
///   replayed capture of such a program places its ranges at their captured addresses with
///   bytes elsewhere (allocate_at), so translation adds a per-range offset. Only
///   ranges made known with map_host() or allocate() are reachable; the managed page table stays
///   empty, so identity lookups run only where a managed lookup has already missed and the
///   managed mode's hot path is unchanged.
class GlobalMemory {
 public:
  static constexpr uint64_t kPageBits = 16;
  static constexpr uint64_t kPageSize = uint64_t{1} << kPageBits;

  /// Reserves `bytes` (aligned to `align`, at least 256) and returns its device address.
  uint64_t allocate(uint64_t bytes, uint64_t align = 256, std::string tag = {});
  /// Reserves `bytes` below 4 GiB, where a 32-bit pointer reaches: graphics shaders address
  /// their descriptor tables with 32-bit pointers whose high half is 0. Managed mode only; a
  /// full window is an InputError. Kernel-side accesses find these pages off the hot path.
  uint64_t allocate_32bit(uint64_t bytes, std::string tag = {});
  /// Releases an allocation made by allocate(); throws InputError for an unknown address.
  void free(uint64_t addr);
  /// True if [addr, addr+bytes) lies entirely inside one live allocation.
  bool is_mapped(uint64_t addr, uint64_t bytes) const;

  /// Host-side copies (runtime use); throw InputError when the range is not mapped.
  void write(uint64_t addr, const void* src, uint64_t bytes);
  void read(uint64_t addr, void* dst, uint64_t bytes) const;
  void fill(uint64_t addr, uint8_t value, uint64_t bytes);

  /// Kernel-side access used by the emulator: returns a host pointer to `bytes` at `addr`, or
  /// nullptr if the range is not inside a live allocation. Never crosses a page boundary
  /// unless the caller checks with is_mapped first
  /// (a straddling range returns nullptr; read()/write() handle it).
  uint8_t* translate(uint64_t addr, uint64_t bytes) {
    PageEntry* e = entry(addr);
    if (!e || addr < e->lo || addr + bytes > e->hi) [[unlikely]]
      return host_ ? translate_host(addr, bytes, false) : translate_low(addr, bytes);
    uint64_t off = addr & (kPageSize - 1);
    if (off + bytes > kPageSize) return nullptr;  // straddles a page: caller uses the slow path
    uint8_t* d = e->data ? e->data : page((addr - kBase) >> kPageBits);
    if (overlay_) [[unlikely]] d = overlay_page((addr - kBase) >> kPageBits, d);
    return d + off;
  }

  /// GPU page size: the granularity at which the hardware maps device memory.
  static constexpr uint64_t kGpuPageSize = 4096;

  /// Kernel-side access past the end of an allocation (the slow path after translate() failed):
  /// a host pointer to `bytes` at `addr` when the range lies inside the allocation's mapped
  /// pages and the check mode is Page; nullptr otherwise, or when the range straddles a page.
  uint8_t* translate_mapped(uint64_t addr, uint64_t bytes) {
    if (host_) return check_ == MemoryCheck::Page ? translate_host(addr, bytes, true) : nullptr;
    PageEntry* e = entry(addr);
    if (check_ != MemoryCheck::Page || !e || e->hi == 0 || addr < e->lo) return nullptr;
    const uint64_t mapped_hi = (e->hi + kGpuPageSize - 1) & ~(kGpuPageSize - 1);
    const uint64_t off = addr & (kPageSize - 1);
    if (addr + bytes > mapped_hi || off + bytes > kPageSize) return nullptr;
    uint8_t* d = e->data ? e->data : page((addr - kBase) >> kPageBits);
    if (overlay_) d = overlay_page((addr - kBase) >> kPageBits, d);
    return d + off;
  }
  /// Copies between `buf` and a kernel-side range that may straddle pages, each part through
  /// translate() (or, with `past_end`, translate_mapped()); overlay-aware, unlike read()/write().
  /// False, with nothing copied, if any part is unreachable.
  bool copy_kernel(uint64_t addr, void* buf, uint64_t bytes, bool store, bool past_end);

  /// Sets how kernel-side accesses past an allocation's end are treated (default Page).
  void set_check(MemoryCheck c) { check_ = c; }
  /// The current check mode.
  MemoryCheck check() const { return check_; }
  /// Records one access that succeeded only through translate_mapped(); `detail` is called for
  /// the first OverrunLog::kShown accesses only, so the common case formats nothing.
  template <typename Detail>
  void note_overrun(Detail&& detail) {
    overruns_.note(std::forward<Detail>(detail));
  }
  /// Adds the accesses of `later` (a log kept apart while work-groups ran on several threads)
  /// after those already recorded.
  void append_overruns(const OverrunLog& later) { overruns_.append(later); }
  /// The accesses recorded since the last call, which starts a new log.
  OverrunLog take_overruns() { return std::exchange(overruns_, OverrunLog{}); }

  /// Starts a scratch overlay: until end_overlay(), kernel-side accesses (translate) see private
  /// copies of the pages they touch, so work can be emulated for analysis without changing the
  /// image. Host-side copies bypass the overlay.
  void begin_overlay() { overlay_ = true; }
  /// Discards every overlay page: the image is as it was at begin_overlay().
  void end_overlay();

  /// True if several threads may run kernel-side accesses at once (Executor::run with
  /// threads), once begin_concurrent() has prepared for it: not under an overlay, whose lookups
  /// create pages.
  bool concurrent_kernels_allowed() const { return !overlay_; }
  /// Prepares for kernel-side accesses from several threads until end_concurrent(): every
  /// not-yet-touched page of every live allocation is created (zero-filled, as a first touch
  /// would), and host-identity lookups stop updating their last-region cache, so that the
  /// accesses only read shared state. No allocation or free may happen in between.
  void begin_concurrent();
  /// Ends what begin_concurrent() started.
  void end_concurrent() { concurrent_ = false; }

  /// Switches to host-identity addressing (see the class comment). Throws InputError once
  /// anything has been allocated in the managed mode.
  void use_host_addresses();
  /// True in host-identity addressing.
  bool host_addresses() const { return host_; }
  /// Host-identity mode: makes [addr, addr+bytes) of this process, which the caller owns and
  /// keeps mapped until unmap_host(), reachable as device memory. Throws InputError for an
  /// empty range, a range overlapping a known one, or in the managed mode.
  void map_host(uint64_t addr, uint64_t bytes, std::string tag);
  /// Forgets a range map_host() made known; throws InputError for an address it did not take.
  void unmap_host(uint64_t addr);

  /// Total bytes currently allocated.
  uint64_t bytes_allocated() const { return bytes_allocated_; }

  /// One live allocation of the managed mode, as allocations() lists it.
  struct LiveAllocation {
    uint64_t addr = 0, bytes = 0;
    std::string tag;
    bool operator==(const LiveAllocation&) const = default;
  };
  /// Every live allocation in address order (a capture's allocation map): of the managed mode,
  /// those above 4 GiB (the 32-bit window is not listed); in host addressing, every range.
  std::vector<LiveAllocation> allocations() const;
  /// Recreates an allocation at `addr` exactly (replaying a capture's allocation map); its pages
  /// read as zero. Managed mode: `addr` must start a page above 4 GiB. Host addressing: any
  /// address, backed by fresh pages of this process wherever they lie (a host program's capture
  /// replayed in another process). The range must overlap no live allocation. Throws InputError
  /// naming the range otherwise.
  void allocate_at(uint64_t addr, uint64_t bytes, std::string tag);
  /// Where the next allocate() places its allocation (page-aligned; managed mode).
  uint64_t next_address() const { return next_; }
  /// Moves where the next allocate() places its allocation, so that a replayed launch's scratch
  /// lands where it did when captured: page-aligned, above 4 GiB and at or past the end of every
  /// live allocation, else InputError.
  void set_next_address(uint64_t addr);
  /// The 64 KiB host page holding managed address `addr` (of a live allocation), or nullptr
  /// when that page was never touched (it reads as zero) or is not mapped.
  const uint8_t* page_bytes(uint64_t addr) const;
  /// Host addressing: copies the 64 KiB page at `page_addr` into `dst`, the parts no range maps
  /// as zero (a range's tail to the end of its last 4 KiB page included); false when no range
  /// maps any of it.
  bool copy_host_page(uint64_t page_addr, uint8_t* dst) const;
  /// Host addressing: writes the parts of the 64 KiB page at `page_addr` that ranges map from
  /// `bytes` (copy_host_page's inverse).
  void write_host_page(uint64_t page_addr, const uint8_t* bytes);
  /// Overwrites the whole 64 KiB page starting at `page_addr` (page-aligned, of a live managed
  /// allocation) with `bytes`, the tail past the allocation's end included (a checkpoint's page).
  /// Throws InputError otherwise.
  void write_page(uint64_t page_addr, const uint8_t* bytes);
  /// Called with every host-side write() and fill() range from now on (an empty function stops
  /// it): a capture learns which pages the host changed between launches.
  void set_host_write_hook(std::function<void(uint64_t addr, uint64_t bytes)> hook) { write_hook_ = std::move(hook); }
  /// Where a managed page gets its bytes when it is first touched, by a kernel or the host: the
  /// source fills all kPageSize bytes at `dst` (zeroed) and returns true, or leaves them and
  /// returns false for a page that reads as zero (as every page does without a source). A replayed capture fetches its
  /// checkpoint's pages this way, only those a launch reaches.
  void set_page_source(std::function<bool(uint64_t page_addr, uint8_t* dst)> source) { source_ = std::move(source); }
  /// Forgets the bytes of the page at `page_addr` (page-aligned, managed): its next touch asks the
  /// page source again, or reads zero.
  void drop_page(uint64_t page_addr);
  /// A 64-bit digest of every live allocation's address, size and contents, in address order:
  /// two runs that computed the same results in the same buffers have the same digest.
  uint64_t digest() const;

 private:
  // Every allocation starts on its own page, so a page belongs to at most one allocation and
  // the kernel-side check is one table index: no map lookup in the emulator's hot path.
  struct Allocation { uint64_t size; std::string tag; };
  struct PageEntry {
    uint8_t* data = nullptr;  // lazily created, zero-filled page bytes (nullptr: not touched yet)
    uint64_t lo = 0, hi = 0;  // live allocation owning this page: [lo, hi); hi == 0 when none
  };
  static constexpr uint64_t kBase = uint64_t{1} << 32;    // first device address handed out
  // The 32-bit window (allocate_32bit): from 1 MiB, so null and small integers stay unmapped.
  // Its pages are created at allocation and looked up through allocs_, off the hot path.
  static constexpr uint64_t kLowBase = uint64_t{1} << 20;
  std::vector<std::unique_ptr<uint8_t[]>> low_pages_;     // (addr - kLowBase) >> kPageBits -> page
  uint64_t low_next_ = kLowBase;
  uint8_t* translate_low(uint64_t addr, uint64_t bytes);
  std::map<uint64_t, Allocation> allocs_;                 // start -> allocation (host-side checks)
  std::vector<PageEntry> table_;                          // (addr - kBase) >> kPageBits -> page
  std::vector<std::unique_ptr<uint8_t[]>> storage_;       // owns table_[i].data
  uint64_t next_ = kBase;
  uint64_t bytes_allocated_ = 0;
  /// Releases the storage of page `i` of the table, if it has any, and counts it off.
  void unback(uint64_t i);
  uint64_t backed_pages_ = 0;  // storage_ pages backed, held to the host-memory budget (atomic_ref)
  bool overlay_ = false;
  MemoryCheck check_ = MemoryCheck::Page;
  OverrunLog overruns_;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> overlay_pages_;  // page index -> copy
  std::function<void(uint64_t, uint64_t)> write_hook_;  // set_host_write_hook
  std::function<bool(uint64_t, uint8_t*)> source_;       // set_page_source

  // Host-identity mode. A region is a range of this process that kernels may reach; owned
  // regions were mmap'd by allocate() and are unmapped by free().
  // Its bytes are at `data`: the address itself for the process's own ranges, elsewhere for a
  // range placed at a captured address (allocate_at).
  struct HostRegion { uint64_t size; bool owned; std::string tag; uint8_t* data; };
  bool host_ = false;
  bool concurrent_ = false;                      // begin_concurrent(): the caches below are read-only
  std::map<uint64_t, HostRegion> host_regions_;  // start -> region
  uint64_t hit_lo_ = 0, hit_size_ = 0;           // the region of the last lookup
  ptrdiff_t hit_delta_ = 0;                      // its bytes' host address minus its device address
  /// allocate_at() in host addressing: an owned region at device address `addr` whose bytes are
  /// fresh pages of this process wherever they lie.
  void place_host(uint64_t addr, uint64_t bytes, std::string tag);
  /// Bytes of the mapping that backs a placed region of `bytes` at `addr`.
  static uint64_t mapped_bytes(uint64_t addr, uint64_t bytes);
  /// The host bytes behind device address `addr` of a region (nullptr: none holds it).
  uint8_t* host_bytes(uint64_t addr) const;
  /// Calls fn(offset in the page, the part's host bytes, length) for each region's part of the
  /// 64 KiB page at `page_addr`, up to the end of the region's last 4 KiB page.
  template <class Fn>
  void for_each_host_part(uint64_t page_addr, Fn&& fn) const;
  const std::pair<const uint64_t, HostRegion>* host_region(uint64_t addr) const;
  uint8_t* translate_host_slow(uint64_t addr, uint64_t bytes, bool past_end);
  uint8_t* overlay_host(uint64_t addr, uint64_t bytes);
  /// Identity translation: `addr` itself when the range lies inside one region (with
  /// `past_end`, inside its mapped 4 KiB pages), else nullptr.
  uint8_t* translate_host(uint64_t addr, uint64_t bytes, bool past_end) {
    // The last region hit is checked inline: a kernel's accesses mostly stay in one buffer.
    if (!overlay_ && addr >= hit_lo_ && addr + bytes <= hit_lo_ + hit_size_ && addr + bytes > addr)
      return reinterpret_cast<uint8_t*>(addr) + hit_delta_;
    return translate_host_slow(addr, bytes, past_end);
  }
  uint8_t* overlay_page(uint64_t index, const uint8_t* original);
  const Allocation* find(uint64_t addr) const;
  /// Records a managed allocation of `bytes` at `start` (its first page its own) in the page
  /// table and the allocation map, and moves the next allocation past it.
  void map_pages(uint64_t start, uint64_t bytes, std::string tag);
  uint8_t* page(uint64_t index);
  PageEntry* entry(uint64_t addr) {
    uint64_t i = (addr - kBase) >> kPageBits;  // wraps to huge for addr < kBase
    return i < table_.size() ? &table_[i] : nullptr;
  }
};

/// GlobalMemory::begin_concurrent() for a scope: end_concurrent() when it ends, however it ends.
class ConcurrentScope {
 public:
  explicit ConcurrentScope(GlobalMemory& m) : m_(m) { m_.begin_concurrent(); }
  ~ConcurrentScope() { m_.end_concurrent(); }
  ConcurrentScope(const ConcurrentScope&) = delete;
  ConcurrentScope& operator=(const ConcurrentScope&) = delete;

 private:
  GlobalMemory& m_;
};

}  // namespace strobe::emu
