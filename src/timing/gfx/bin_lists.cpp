#include "timing/gfx/bin_lists.h"

#include <algorithm>

#include "timing/gfx/tbr_addresses.h"

namespace strobe::timing {

using namespace tbr;

void BinLists::reset(size_t tiles) {
  fill_.assign(tiles, 0);
  chunks_.assign(tiles, {});
  heap_next_ = kBinBase;
}

uint32_t BinLists::append(uint32_t t, uint64_t bytes, uint32_t tag, Cycle now) {
  std::vector<uint64_t>& chunks = chunks_[t];
  uint32_t lines = 0;
  while (bytes) {
    const uint64_t at = fill_[t] % kBinChunkBytes;
    if (at == 0) {
      chunks.push_back(heap_next_);
      heap_next_ += kBinChunkBytes;
    }
    const uint64_t n = std::min(bytes, kBinChunkBytes - at);
    lines += port_.send(now, chunks.back() + at, n, ReqKind::Write, tag);
    fill_[t] += n;
    bytes -= n;
  }
  return lines;
}

uint32_t BinLists::read(uint32_t t, uint32_t tag, Cycle now) {
  const std::vector<uint64_t>& chunks = chunks_[t];
  uint32_t lines = 0;
  for (size_t i = 0; i < chunks.size(); ++i)
    lines += port_.send(now, chunks[i], std::min(kBinChunkBytes, fill_[t] - i * kBinChunkBytes), ReqKind::Read, tag);
  return lines;
}

}  // namespace strobe::timing
