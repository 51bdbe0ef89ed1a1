// Device (global) memory: sparse, page-granular, with allocation tracking so a kernel's stray
// pointer is reported as a fault instead of silently reading zeros or corrupting another buffer.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
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
  /// unless the caller checks with is_mapped first.
  uint8_t* translate(uint64_t addr, uint64_t bytes);

  /// Total bytes currently allocated.
  uint64_t bytes_allocated() const { return bytes_allocated_; }

 private:
  struct Allocation { uint64_t size; std::string tag; };
  std::map<uint64_t, Allocation> allocs_;                 // start -> allocation
  std::map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;  // page number -> bytes
  uint64_t next_ = uint64_t{1} << 32;                     // first device address handed out
  uint64_t bytes_allocated_ = 0;
  // A one-entry translation cache keeps the emulator's common case (same page) fast.
  mutable uint64_t cached_page_ = ~uint64_t{0};
  mutable uint8_t* cached_ptr_ = nullptr;
  const Allocation* find(uint64_t addr) const;
  uint8_t* page(uint64_t page_number);
};

}  // namespace strobe::emu
