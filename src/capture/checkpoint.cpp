#include "capture/checkpoint.h"

#include <algorithm>
#include <bit>

#include <xxhash.h>

namespace strobe::capture {

uint64_t written_digest(const emu::GlobalMemory& mem, const std::vector<PageRef>& pages,
                        const std::vector<uint64_t>& written, uint32_t granule_bytes) {
  static const uint8_t kZeros[kPageBytes] = {};
  XXH3_state_t* s = XXH3_createState();
  XXH3_64bits_reset(s);
  std::vector<uint8_t> copy(mem.host_addresses() ? kPageBytes : 0);
  const uint32_t shift = uint32_t(std::countr_zero(granule_bytes));
  auto line = written.begin();
  for (const PageRef& p : pages) {
    // Lines of pages before this one (pages the map did not hold: the launch's own scratch).
    while (line != written.end() && (*line << shift) < p.addr) ++line;
    if (!p.written) continue;
    const uint8_t* bytes = nullptr;
    if (mem.host_addresses()) bytes = mem.copy_host_page(p.addr, copy.data()) ? copy.data() : nullptr;
    else bytes = mem.page_bytes(p.addr);
    if (!bytes) bytes = kZeros;
    for (; line != written.end() && (*line << shift) < p.addr + kPageBytes; ++line) {
      const uint64_t addr = *line << shift;
      XXH3_64bits_update(s, &addr, sizeof addr);
      XXH3_64bits_update(s, bytes + (addr - p.addr), granule_bytes);
    }
  }
  const uint64_t h = XXH3_64bits_digest(s);
  XXH3_freeState(s);
  return h;
}

std::vector<uint64_t> written_granules(const std::vector<HistoryEntry>& entries) {
  std::vector<uint64_t> out;
  for (const HistoryEntry& e : entries)
    if (e.flags & (kWrite | kAtomic)) out.push_back(e.granule);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace strobe::capture
