#include "capture/checkpoint.h"

#include <xxhash.h>

namespace strobe::capture {

uint64_t written_digest(const emu::GlobalMemory& mem, const std::vector<PageRef>& pages) {
  static const uint8_t kZeros[kPageBytes] = {};
  XXH3_state_t* s = XXH3_createState();
  XXH3_64bits_reset(s);
  std::vector<uint8_t> copy(mem.host_addresses() ? kPageBytes : 0);
  for (const PageRef& p : pages) {
    if (!p.written) continue;
    const uint8_t* bytes = nullptr;
    if (mem.host_addresses()) bytes = mem.copy_host_page(p.addr, copy.data()) ? copy.data() : nullptr;
    else bytes = mem.page_bytes(p.addr);
    XXH3_64bits_update(s, &p.addr, sizeof p.addr);
    XXH3_64bits_update(s, bytes ? bytes : kZeros, kPageBytes);
  }
  const uint64_t h = XXH3_64bits_digest(s);
  XXH3_freeState(s);
  return h;
}

}  // namespace strobe::capture
