// Device (global) memory: sparse, page-granular, with allocation tracking so a kernel's stray
// pointer is reported as a fault instead of silently reading zeros or corrupting another buffer.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace strobe::emu {

/// Sparse device memory. Addresses are 64-bit device virtual addresses.
/// Reads and writes must fall inside a live allocation; anything else is a fault.
class GlobalMemory {
 public:
  static constexpr uint64_t kPageBits = 16;
  static constexpr uint64_t kPageSize = uint64_t{1} << kPageBits;

  /// Reserves `bytes` (aligned to `align`, at least 256) and returns its device address.
  uint64_t allocate(uint64_t bytes, uint64_t align = 256, std::string tag = {});
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
    if (!e || addr < e->lo || addr + bytes > e->hi) return nullptr;
    uint64_t off = addr & (kPageSize - 1);
    if (off + bytes > kPageSize) return nullptr;  // straddles a page: caller uses the slow path
    uint8_t* d = e->data ? e->data : page((addr - kBase) >> kPageBits);
    if (overlay_) [[unlikely]] d = overlay_page((addr - kBase) >> kPageBits, d);
    return d + off;
  }

  /// Starts a scratch overlay: until end_overlay(), kernel-side accesses (translate) see private
  /// copies of the pages they touch, so work can be emulated for analysis without changing the
  /// image. Host-side copies bypass the overlay.
  void begin_overlay() { overlay_ = true; }
  /// Discards every overlay page: the image is as it was at begin_overlay().
  void end_overlay();

  /// Total bytes currently allocated.
  uint64_t bytes_allocated() const { return bytes_allocated_; }

 private:
  // Every allocation starts on its own page, so a page belongs to at most one allocation and
  // the kernel-side check is one table index: no map lookup in the emulator's hot path.
  struct Allocation { uint64_t size; std::string tag; };
  struct PageEntry {
    uint8_t* data = nullptr;  // lazily created, zero-filled page bytes (nullptr: not touched yet)
    uint64_t lo = 0, hi = 0;  // live allocation owning this page: [lo, hi); hi == 0 when none
  };
  static constexpr uint64_t kBase = uint64_t{1} << 32;    // first device address handed out
  std::map<uint64_t, Allocation> allocs_;                 // start -> allocation (host-side checks)
  std::vector<PageEntry> table_;                          // (addr - kBase) >> kPageBits -> page
  std::vector<std::unique_ptr<uint8_t[]>> storage_;       // owns table_[i].data
  uint64_t next_ = kBase;
  uint64_t bytes_allocated_ = 0;
  bool overlay_ = false;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> overlay_pages_;  // page index -> copy
  uint8_t* overlay_page(uint64_t index, const uint8_t* original);
  const Allocation* find(uint64_t addr) const;
  uint8_t* page(uint64_t index);
  PageEntry* entry(uint64_t addr) {
    uint64_t i = (addr - kBase) >> kPageBits;  // wraps to huge for addr < kBase
    return i < table_.size() ? &table_[i] : nullptr;
  }
};

}  // namespace strobe::emu
