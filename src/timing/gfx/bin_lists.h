// The tiler's per-tile bin lists in memory: each list grows in chunks taken from one heap in the
// order the tiler needs them (tbr_addresses.h), is appended to by the geometry phase and read
// back whole by the tile unit that renders the tile.
#pragma once

#include <cstdint>
#include <vector>

#include "timing/gfx/line_port.h"

namespace strobe::timing {

/// A render pass's bin lists (see the file comment).
class BinLists {
 public:
  explicit BinLists(LinePort& port) : port_(port) {}
  /// Empty lists for a pass of `tiles` tiles, the heap starting over.
  void reset(size_t tiles);
  /// Appends `bytes` to tile `t`'s list (tiler writes tagged `tag`); returns the lines written.
  uint32_t append(uint32_t t, uint64_t bytes, uint32_t tag, Cycle now);
  /// Reads tile `t`'s whole list (tagged `tag`); returns the lines requested.
  uint32_t read(uint32_t t, uint32_t tag, Cycle now);
  /// Bytes in tile `t`'s list.
  uint64_t bytes(uint32_t t) const { return fill_[t]; }

 private:
  LinePort& port_;
  std::vector<uint64_t> fill_;                 // per tile: bytes in its list
  std::vector<std::vector<uint64_t>> chunks_;  // per tile: its list's chunks, in order
  uint64_t heap_next_ = 0;                     // the heap's next free chunk
};

}  // namespace strobe::timing
