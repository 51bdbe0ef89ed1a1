// Sparse, allocation-tracked device memory.
#include "emu/memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "common/error.h"
#include "common/host_memory.h"

namespace strobe::emu {

namespace {

/// True if [addr, addr + bytes) overlaps a range of `ranges` (start -> something with `size`,
/// the ranges disjoint).
template <class Ranges>
bool overlaps(const Ranges& ranges, uint64_t addr, uint64_t bytes) {
  auto next = ranges.lower_bound(addr);
  return (next != ranges.end() && next->first < addr + bytes) ||
         (next != ranges.begin() && addr - std::prev(next)->first < std::prev(next)->second.size);
}

// A request this large is a host bug or a hostile input, not a workload (keeps the page table sane).
constexpr uint64_t kMaxAllocation = uint64_t{64} << 30;
// The device addresses the page table reaches above its base: 1 TiB, 16 Mi pages. Addresses are
// handed out in order, so a run reaches the end only by allocating that much over its life; a
// placed allocation (a capture's map) beyond it comes from a damaged file, and would otherwise
// grow the flat table without bound.
constexpr uint64_t kAddressSpan = uint64_t{1} << 40;

}  // namespace

uint64_t GlobalMemory::allocate(uint64_t bytes, uint64_t align, std::string tag) {
  if (bytes == 0) bytes = 1;  // a zero-sized buffer still needs a distinct, valid address
  if (bytes > kMaxAllocation)
    throw InputError(fmt::format("device allocation of {} bytes ({}) exceeds the {} GiB limit", bytes, tag,
                                 kMaxAllocation >> 30));
  if (align == 0 || (align & (align - 1)) != 0)
    throw InputError(fmt::format("device allocation alignment {} is not a power of two", align));
  if (host_) {
    // Identity mode: fresh zeroed pages of this process (page-aligned, which covers every
    // alignment the runtime and the executor ask for).
    if (align > kGpuPageSize)
      throw InputError(fmt::format("device allocation alignment {} exceeds the {}-byte page", align, kGpuPageSize));
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw InputError(fmt::format("device allocation of {} bytes ({}): out of memory", bytes, tag));
    const uint64_t a = reinterpret_cast<uint64_t>(p);
    host_regions_.emplace(a, HostRegion{bytes, true, std::move(tag), static_cast<uint8_t*>(p)});
    bytes_allocated_ += bytes;
    return a;
  }
  align = std::max<uint64_t>({align, 256, kPageSize});
  const uint64_t start = (next_ + align - 1) & ~(align - 1);
  map_pages(start, bytes, std::move(tag));
  return start;
}

void GlobalMemory::map_pages(uint64_t start, uint64_t bytes, std::string tag) {
  if (start < kBase || bytes > kAddressSpan || start - kBase > kAddressSpan - bytes)
    throw InputError(fmt::format("device allocation of {} bytes at 0x{:x} ({}): past the end of the device's "
                                 "address space (0x{:x})",
                                 bytes, start, tag, kBase + kAddressSpan));
  const uint64_t end = start + bytes, page_end = (end + kPageSize - 1) & ~(kPageSize - 1);
  const uint64_t pages = (page_end - kBase) >> kPageBits;
  if (table_.size() < pages) {
    table_.resize(pages);
    storage_.resize(pages);
  }
  for (uint64_t a = start; a < end; a = (a | (kPageSize - 1)) + 1) {
    PageEntry& e = table_[(a - kBase) >> kPageBits];
    e.lo = start;
    e.hi = end;
  }
  allocs_.emplace(start, Allocation{bytes, std::move(tag)});
  bytes_allocated_ += bytes;
  next_ = std::max(next_, page_end);
}

uint64_t GlobalMemory::allocate_32bit(uint64_t bytes, std::string tag) {
  if (host_) throw InputError(fmt::format("32-bit device allocation ({}): not available with host addresses", tag));
  if (bytes == 0) bytes = 1;
  const uint64_t start = low_next_;
  if (bytes > kBase - start)
    throw InputError(fmt::format("32-bit device allocation of {} bytes ({}): the window below 4 GiB is full", bytes, tag));
  low_next_ = (start + bytes + kPageSize - 1) & ~(kPageSize - 1);
  const uint64_t pages = (low_next_ - kLowBase) >> kPageBits;
  if (low_pages_.size() < pages) low_pages_.resize(pages);
  for (uint64_t a = start; a < low_next_; a += kPageSize) low_pages_[(a - kLowBase) >> kPageBits].reset(new uint8_t[kPageSize]());
  allocs_.emplace(start, Allocation{bytes, std::move(tag)});
  bytes_allocated_ += bytes;
  return start;
}

uint8_t* GlobalMemory::translate_low(uint64_t addr, uint64_t bytes) {
  if (addr < kLowBase || addr >= kBase || low_pages_.empty()) return nullptr;
  auto it = allocs_.upper_bound(addr);
  if (it == allocs_.begin()) return nullptr;
  --it;
  const uint64_t off = addr & (kPageSize - 1);
  if (addr + bytes > it->first + it->second.size || off + bytes > kPageSize) return nullptr;
  return low_pages_[(addr - kLowBase) >> kPageBits].get() + off;
}

void GlobalMemory::free(uint64_t addr) {
  if (host_) {
    auto it = host_regions_.find(addr);
    if (it == host_regions_.end() || !it->second.owned)
      throw InputError(fmt::format("free of 0x{:x}: not the start of a live allocation", addr));
    ::munmap(it->second.data - (addr & (kGpuPageSize - 1)), mapped_bytes(addr, it->second.size));
    bytes_allocated_ -= it->second.size;
    host_regions_.erase(it);
    hit_lo_ = hit_size_ = 0;
    return;
  }
  auto it = allocs_.find(addr);
  if (it == allocs_.end()) throw InputError(fmt::format("free of 0x{:x}: not the start of a live allocation", addr));
  uint64_t end = addr + it->second.size;
  if (addr < kBase) {  // the 32-bit window: its pages go, its addresses are not reused
    for (uint64_t a = addr; a < end; a = (a | (kPageSize - 1)) + 1) low_pages_[(a - kLowBase) >> kPageBits].reset();
    bytes_allocated_ -= it->second.size;
    allocs_.erase(it);
    return;
  }
  for (uint64_t a = addr; a < end; a = (a | (kPageSize - 1)) + 1) {
    uint64_t i = (a - kBase) >> kPageBits;
    table_[i] = PageEntry{};
    unback(i);
  }
  bytes_allocated_ -= it->second.size;
  allocs_.erase(it);
}

std::vector<GlobalMemory::LiveAllocation> GlobalMemory::allocations() const {
  std::vector<LiveAllocation> v;
  if (host_) {
    for (const auto& [start, r] : host_regions_) v.push_back(LiveAllocation{start, r.size, r.tag});
    return v;
  }
  for (auto it = allocs_.lower_bound(kBase); it != allocs_.end(); ++it)
    v.push_back(LiveAllocation{it->first, it->second.size, it->second.tag});
  return v;
}

void GlobalMemory::allocate_at(uint64_t addr, uint64_t bytes, std::string tag) {
  if (host_) {
    place_host(addr, bytes, std::move(tag));
    return;
  }
  if (bytes == 0 || bytes > kMaxAllocation || addr < kBase || (addr & (kPageSize - 1)) != 0 ||
      addr + bytes < addr)
    throw InputError(fmt::format("device allocation of {} bytes at 0x{:x} ({}): not a page-aligned range above 4 GiB "
                                 "of at most {} GiB",
                                 bytes, addr, tag, kMaxAllocation >> 30));
  if (overlaps(allocs_, addr, bytes))
    throw InputError(fmt::format("device allocation of {} bytes at 0x{:x} ({}) overlaps a live allocation", bytes,
                                 addr, tag));
  map_pages(addr, bytes, std::move(tag));
}

void GlobalMemory::set_next_address(uint64_t addr) {
  const uint64_t live_end = allocs_.empty() || std::prev(allocs_.end())->first < kBase
                                ? kBase
                                : std::prev(allocs_.end())->first + std::prev(allocs_.end())->second.size;
  if (host_ || addr < kBase || (addr & (kPageSize - 1)) != 0 || addr < live_end)
    throw InputError(fmt::format("device memory: the next allocation cannot start at 0x{:x} (page-aligned, above 4 "
                                 "GiB and past 0x{:x}, the end of the live allocations)",
                                 addr, live_end));
  next_ = addr;
}

const uint8_t* GlobalMemory::page_bytes(uint64_t addr) const {
  const uint64_t i = (addr - kBase) >> kPageBits;
  if (host_ || addr < kBase || i >= table_.size()) return nullptr;
  // A page with a source is fetched on its first look: loading it is logically const.
  if (!table_[i].data && source_ && table_[i].hi != 0) return const_cast<GlobalMemory*>(this)->page(i);
  return table_[i].data;
}

void GlobalMemory::write_page(uint64_t page_addr, const uint8_t* bytes) {
  const uint64_t i = (page_addr - kBase) >> kPageBits;
  if (host_ || page_addr < kBase || (page_addr & (kPageSize - 1)) != 0 || i >= table_.size() || table_[i].hi == 0)
    throw InputError(fmt::format("device memory: no live allocation holds the page at 0x{:x}", page_addr));
  uint8_t* d = table_[i].data ? table_[i].data : page(i);
  std::memcpy(d, bytes, kPageSize);
}

const GlobalMemory::Allocation* GlobalMemory::find(uint64_t addr) const {
  auto it = allocs_.upper_bound(addr);
  if (it == allocs_.begin()) return nullptr;
  --it;
  return addr - it->first < it->second.size ? &it->second : nullptr;
}

bool GlobalMemory::is_mapped(uint64_t addr, uint64_t bytes) const {
  if (host_) {
    const auto* r = host_region(addr);
    return r && bytes <= r->second.size - (addr - r->first);
  }
  auto it = allocs_.upper_bound(addr);
  if (it == allocs_.begin()) return false;
  --it;
  uint64_t off = addr - it->first;
  return off < it->second.size && bytes <= it->second.size - off;
}

uint8_t* GlobalMemory::page(uint64_t index) {
  // Pages are created on first touch so a huge, mostly unused buffer costs nothing. Every 16 MiB
  // backed, the host's memory is checked, so a kernel that fills more than the machine has is
  // stopped by name, not by the OOM killer.
  const uint64_t backed = std::atomic_ref<uint64_t>(backed_pages_).fetch_add(1, std::memory_order_relaxed) + 1;
  if (!host_backing_allowed(backed, kPageSize)) [[unlikely]] {
    std::atomic_ref<uint64_t>(backed_pages_).fetch_sub(1, std::memory_order_relaxed);
    const uint64_t lo = table_[index].lo;
    const auto it = allocs_.find(lo);
    const std::string tag = it != allocs_.end() && !it->second.tag.empty() ? " '" + it->second.tag + "'" : "";
    throw_host_backing(fmt::format("device memory: the buffer{} at 0x{:x} ({} bytes)", tag, lo,
                                   it != allocs_.end() ? it->second.size : 0),
                       backed * kPageSize);
  }
  storage_[index].reset(new uint8_t[kPageSize]());
  table_[index].data = storage_[index].get();
  if (source_) source_(kBase + (index << kPageBits), table_[index].data);  // false: it stays zero
  return table_[index].data;
}

void GlobalMemory::unback(uint64_t i) {
  // The count is kept with atomic_ref wherever it changes, so a release beside a first touch
  // on another thread (not a pattern the runtime makes today) cannot lose one.
  if (storage_[i]) std::atomic_ref<uint64_t>(backed_pages_).fetch_sub(1, std::memory_order_relaxed);
  storage_[i].reset();
}

void GlobalMemory::drop_page(uint64_t page_addr) {
  const uint64_t i = (page_addr - kBase) >> kPageBits;
  if (host_ || page_addr < kBase || i >= table_.size()) return;
  table_[i].data = nullptr;
  unback(i);
}

void GlobalMemory::begin_concurrent() {
  for (uint64_t i = 0; i < table_.size(); ++i)
    if (table_[i].hi != 0 && !table_[i].data) page(i);
  concurrent_ = true;
}

uint64_t GlobalMemory::digest() const {
  // Word-wise multiply-rotate mixing: fast enough to hash a DNN's weights in a fraction of a
  // second, and any changed byte changes the result with overwhelming probability.
  uint64_t h = 0x9e3779b97f4a7c15ull;
  auto mix = [&h](uint64_t w) {
    h ^= w * 0xbf58476d1ce4e5b9ull;
    h = ((h << 27) | (h >> 37)) * 0x94d049bb133111ebull;
  };
  uint64_t buf[kPageSize / 8];
  std::map<uint64_t, uint64_t> ranges;  // start -> size, of either mode
  for (const auto& [start, a] : allocs_) ranges.emplace(start, a.size);
  for (const auto& [start, r] : host_regions_) ranges.emplace(start, r.size);
  for (const auto& [start, size] : ranges) {
    const Allocation a{size, {}};
    mix(start);
    mix(a.size);
    for (uint64_t off = 0; off < a.size; off += kPageSize) {
      const uint64_t n = std::min(kPageSize, a.size - off);
      std::memset(buf, 0, sizeof buf);
      read(start + off, buf, n);
      for (uint64_t i = 0; i < (n + 7) / 8; ++i) mix(buf[i]);
    }
  }
  return h;
}

void GlobalMemory::write(uint64_t addr, const void* src, uint64_t bytes) {
  if (!is_mapped(addr, bytes))
    throw InputError(fmt::format("host write of {} bytes at 0x{:x}: not inside a live device allocation", bytes, addr));
  if (write_hook_) write_hook_(addr, bytes);
  if (host_) {
    std::memcpy(host_bytes(addr), src, bytes);
    return;
  }
  auto* s = static_cast<const uint8_t*>(src);
  while (bytes) {
    uint64_t n = std::min(bytes, kPageSize - (addr & (kPageSize - 1)));
    std::memcpy(translate(addr, n), s, n);
    addr += n, s += n, bytes -= n;
  }
}

void GlobalMemory::read(uint64_t addr, void* dst, uint64_t bytes) const {
  if (!is_mapped(addr, bytes))
    throw InputError(fmt::format("host read of {} bytes at 0x{:x}: not inside a live device allocation", bytes, addr));
  if (host_) {
    std::memcpy(dst, host_bytes(addr), bytes);
    return;
  }
  auto* d = static_cast<uint8_t*>(dst);
  while (bytes) {
    uint64_t n = std::min(bytes, kPageSize - (addr & (kPageSize - 1)));
    if (addr < kBase) {  // the 32-bit window's pages always exist
      std::memcpy(d, low_pages_[(addr - kLowBase) >> kPageBits].get() + (addr & (kPageSize - 1)), n);
      addr += n, d += n, bytes -= n;
      continue;
    }
    const uint64_t i = (addr - kBase) >> kPageBits;
    const PageEntry& e = table_[i];
    if (e.data) std::memcpy(d, e.data + (addr & (kPageSize - 1)), n);
    // A page with a source is fetched on its first read (logically const: the bytes it holds).
    else if (source_) std::memcpy(d, const_cast<GlobalMemory*>(this)->page(i) + (addr & (kPageSize - 1)), n);
    else std::memset(d, 0, n);  // untouched page: reads as zero without materialising it
    addr += n, d += n, bytes -= n;
  }
}

void GlobalMemory::fill(uint64_t addr, uint8_t value, uint64_t bytes) {
  if (!is_mapped(addr, bytes))
    throw InputError(fmt::format("host fill of {} bytes at 0x{:x}: not inside a live device allocation", bytes, addr));
  if (write_hook_) write_hook_(addr, bytes);
  if (host_) {
    std::memset(host_bytes(addr), value, bytes);
    return;
  }
  while (bytes) {
    uint64_t n = std::min(bytes, kPageSize - (addr & (kPageSize - 1)));
    // A page never touched reads as zero: zeroing it needs no bytes, so a huge zero-filled
    // buffer costs host memory only where kernels write it.
    const bool untouched = addr >= kBase && !source_ && !table_[(addr - kBase) >> kPageBits].data;
    if (!(value == 0 && untouched)) std::memset(translate(addr, n), value, n);
    addr += n, bytes -= n;
  }
}

MemoryCheck parse_memory_check(const std::string& name) {
  if (name == "page") return MemoryCheck::Page;
  if (name == "strict") return MemoryCheck::Strict;
  throw InputError(fmt::format("memory check '{}': expected 'page' (as the hardware) or 'strict'", name));
}

bool GlobalMemory::copy_kernel(uint64_t addr, void* buf, uint64_t bytes, bool store, bool past_end) {
  auto* b = static_cast<uint8_t*>(buf);
  // Check every part first so a failed store writes nothing.
  for (uint64_t a = addr, left = bytes; left;) {
    const uint64_t n = std::min(left, kPageSize - (a & (kPageSize - 1)));
    if (!translate(a, n) && !(past_end && translate_mapped(a, n))) return false;
    a += n, left -= n;
  }
  for (uint64_t a = addr, left = bytes; left;) {
    const uint64_t n = std::min(left, kPageSize - (a & (kPageSize - 1)));
    uint8_t* p = translate(a, n);
    if (!p) p = translate_mapped(a, n);
    if (store) std::memcpy(p, b, n);
    else std::memcpy(b, p, n);
    a += n, b += n, left -= n;
  }
  return true;
}

uint8_t* GlobalMemory::overlay_page(uint64_t index, const uint8_t* original) {
  auto [it, fresh] = overlay_pages_.try_emplace(index);
  if (fresh) {
    it->second = std::make_unique<uint8_t[]>(kPageSize);
    std::memcpy(it->second.get(), original, kPageSize);
  }
  return it->second.get();
}

void GlobalMemory::use_host_addresses() {
  if (!allocs_.empty() || next_ != kBase)
    throw InputError("device memory: host-identity addressing must be chosen before the first allocation");
  host_ = true;
}

void GlobalMemory::map_host(uint64_t addr, uint64_t bytes, std::string tag) {
  if (!host_) throw InputError("device memory: map_host needs host-identity addressing");
  if (bytes == 0 || addr + bytes < addr)
    throw InputError(fmt::format("device memory: cannot map {} bytes at 0x{:x} ({})", bytes, addr, tag));
  if (overlaps(host_regions_, addr, bytes))
    throw InputError(fmt::format("device memory: {} bytes at 0x{:x} ({}) overlap a range already mapped", bytes,
                                 addr, tag));
  host_regions_.emplace(addr, HostRegion{bytes, false, std::move(tag), reinterpret_cast<uint8_t*>(addr)});
  bytes_allocated_ += bytes;
}

void GlobalMemory::place_host(uint64_t addr, uint64_t bytes, std::string tag) {
  if (bytes == 0 || bytes > kMaxAllocation || addr + bytes < addr)
    throw InputError(fmt::format("device allocation of {} bytes at 0x{:x} ({}): not a range of at most {} GiB", bytes,
                                 addr, tag, kMaxAllocation >> 30));
  if (overlaps(host_regions_, addr, bytes))
    throw InputError(fmt::format("device allocation of {} bytes at 0x{:x} ({}) overlaps a live allocation", bytes,
                                 addr, tag));
  // The bytes keep addr's offset in its 4 KiB page, so the region's mapped tail (to the end of
  // its last 4 KiB page, which kernels may reach) is backed as it was where it was captured.
  void* p = ::mmap(nullptr, mapped_bytes(addr, bytes), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw InputError(fmt::format("device allocation of {} bytes ({}): out of memory", bytes, tag));
  host_regions_.emplace(addr,
                        HostRegion{bytes, true, std::move(tag), static_cast<uint8_t*>(p) + (addr & (kGpuPageSize - 1))});
  bytes_allocated_ += bytes;
}

uint64_t GlobalMemory::mapped_bytes(uint64_t addr, uint64_t bytes) {
  return ((addr & (kGpuPageSize - 1)) + bytes + kGpuPageSize - 1) & ~(kGpuPageSize - 1);
}

uint8_t* GlobalMemory::host_bytes(uint64_t addr) const {
  const auto* r = host_region(addr);
  return r ? r->second.data + (addr - r->first) : nullptr;
}

template <class Fn>
void GlobalMemory::for_each_host_part(uint64_t page_addr, Fn&& fn) const {
  // Every region's part of the page up to the end of its last 4 KiB page, which is mapped.
  const uint64_t page_hi = page_addr + kPageSize;
  auto r = host_regions_.upper_bound(page_addr);
  if (r != host_regions_.begin()) --r;
  for (; r != host_regions_.end() && r->first < page_hi; ++r) {
    const uint64_t end = (r->first + r->second.size + kGpuPageSize - 1) & ~(kGpuPageSize - 1);
    const uint64_t a = std::max(page_addr, r->first), b = std::min(page_hi, end);
    if (a < b) fn(a - page_addr, r->second.data + (a - r->first), b - a);
  }
}

bool GlobalMemory::copy_host_page(uint64_t page_addr, uint8_t* dst) const {
  std::memset(dst, 0, kPageSize);
  bool any = false;
  for_each_host_part(page_addr, [&](uint64_t offset, const uint8_t* bytes, uint64_t n) {
    std::memcpy(dst + offset, bytes, n);
    any = true;
  });
  return any;
}

void GlobalMemory::write_host_page(uint64_t page_addr, const uint8_t* bytes) {
  for_each_host_part(page_addr,
                     [&](uint64_t offset, uint8_t* part, uint64_t n) { std::memcpy(part, bytes + offset, n); });
}

void GlobalMemory::unmap_host(uint64_t addr) {
  auto it = host_regions_.find(addr);
  if (!host_ || it == host_regions_.end() || it->second.owned)
    throw InputError(fmt::format("device memory: 0x{:x} is not the start of a mapped host range", addr));
  bytes_allocated_ -= it->second.size;
  host_regions_.erase(it);
  hit_lo_ = hit_size_ = 0;
}

const std::pair<const uint64_t, GlobalMemory::HostRegion>* GlobalMemory::host_region(uint64_t addr) const {
  auto it = host_regions_.upper_bound(addr);
  if (it == host_regions_.begin()) return nullptr;
  --it;
  return addr - it->first < it->second.size ? &*it : nullptr;
}

uint8_t* GlobalMemory::translate_host_slow(uint64_t addr, uint64_t bytes, bool past_end) {
  auto it = host_regions_.upper_bound(addr);
  if (it == host_regions_.begin()) return nullptr;
  --it;
  const uint64_t lo = it->first, size = it->second.size;
  // Past the end: up to the end of the region's last 4 KiB page, which is mapped in this process.
  const uint64_t hi = past_end ? ((lo + size + kGpuPageSize - 1) & ~(kGpuPageSize - 1)) : lo + size;
  if (addr < lo || addr >= hi || bytes > hi - addr) return nullptr;
  if (!past_end && !concurrent_) hit_lo_ = lo, hit_size_ = size, hit_delta_ = it->second.data - reinterpret_cast<uint8_t*>(lo);
  return overlay_ ? overlay_host(addr, bytes) : it->second.data + (addr - lo);
}

uint8_t* GlobalMemory::overlay_host(uint64_t addr, uint64_t bytes) {
  // Overlay pages are whole 64 KiB host pages; only the parts inside mapped regions are copied
  // (the rest of the page may not be mapped in this process).
  if ((addr & (kPageSize - 1)) + bytes > kPageSize) return nullptr;  // straddles: copy_kernel splits it
  const uint64_t page_lo = addr & ~(kPageSize - 1), page_hi = page_lo + kPageSize;
  auto [it, fresh] = overlay_pages_.try_emplace(page_lo >> kPageBits);
  if (fresh) {
    it->second = std::make_unique<uint8_t[]>(kPageSize);
    copy_host_page(page_lo, it->second.get());
  }
  return it->second.get() + (addr - page_lo);
}

void GlobalMemory::end_overlay() {
  overlay_ = false;
  overlay_pages_.clear();
}

}  // namespace strobe::emu
