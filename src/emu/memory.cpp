// Sparse, allocation-tracked device memory.
#include "emu/memory.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::emu {

namespace {
// A request this large is a host bug or a hostile input, not a workload (keeps the page table sane).
constexpr uint64_t kMaxAllocation = uint64_t{64} << 30;
}  // namespace

uint64_t GlobalMemory::allocate(uint64_t bytes, uint64_t align, std::string tag) {
  if (bytes == 0) bytes = 1;  // a zero-sized buffer still needs a distinct, valid address
  if (bytes > kMaxAllocation)
    throw InputError(fmt::format("device allocation of {} bytes ({}) exceeds the {} GiB limit", bytes, tag,
                                 kMaxAllocation >> 30));
  if (align == 0 || (align & (align - 1)) != 0)
    throw InputError(fmt::format("device allocation alignment {} is not a power of two", align));
  align = std::max<uint64_t>({align, 256, kPageSize});
  uint64_t start = (next_ + align - 1) & ~(align - 1);
  uint64_t end = start + bytes;
  next_ = (end + kPageSize - 1) & ~(kPageSize - 1);
  uint64_t pages = (next_ - kBase) >> kPageBits;
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
  return start;
}

void GlobalMemory::free(uint64_t addr) {
  auto it = allocs_.find(addr);
  if (it == allocs_.end()) throw InputError(fmt::format("free of 0x{:x}: not the start of a live allocation", addr));
  uint64_t end = addr + it->second.size;
  for (uint64_t a = addr; a < end; a = (a | (kPageSize - 1)) + 1) {
    uint64_t i = (a - kBase) >> kPageBits;
    table_[i] = PageEntry{};
    storage_[i].reset();
  }
  bytes_allocated_ -= it->second.size;
  allocs_.erase(it);
}

const GlobalMemory::Allocation* GlobalMemory::find(uint64_t addr) const {
  auto it = allocs_.upper_bound(addr);
  if (it == allocs_.begin()) return nullptr;
  --it;
  return addr - it->first < it->second.size ? &it->second : nullptr;
}

bool GlobalMemory::is_mapped(uint64_t addr, uint64_t bytes) const {
  auto it = allocs_.upper_bound(addr);
  if (it == allocs_.begin()) return false;
  --it;
  uint64_t off = addr - it->first;
  return off < it->second.size && bytes <= it->second.size - off;
}

uint8_t* GlobalMemory::page(uint64_t index) {
  // Pages are created on first touch so a huge, mostly unused buffer costs nothing.
  storage_[index].reset(new uint8_t[kPageSize]());
  table_[index].data = storage_[index].get();
  return table_[index].data;
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
  for (const auto& [start, a] : allocs_) {
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
  auto* d = static_cast<uint8_t*>(dst);
  while (bytes) {
    uint64_t n = std::min(bytes, kPageSize - (addr & (kPageSize - 1)));
    const PageEntry& e = table_[(addr - kBase) >> kPageBits];
    if (e.data) std::memcpy(d, e.data + (addr & (kPageSize - 1)), n);
    else std::memset(d, 0, n);  // untouched page: reads as zero without materialising it
    addr += n, d += n, bytes -= n;
  }
}

void GlobalMemory::fill(uint64_t addr, uint8_t value, uint64_t bytes) {
  if (!is_mapped(addr, bytes))
    throw InputError(fmt::format("host fill of {} bytes at 0x{:x}: not inside a live device allocation", bytes, addr));
  while (bytes) {
    uint64_t n = std::min(bytes, kPageSize - (addr & (kPageSize - 1)));
    std::memset(translate(addr, n), value, n);
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

void GlobalMemory::end_overlay() {
  overlay_ = false;
  overlay_pages_.clear();
}

}  // namespace strobe::emu
