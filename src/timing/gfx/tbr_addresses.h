// Where the tile-based pipeline's fixed-function traffic goes: synthetic address regions far
// above any device allocation, so they never alias the shaders' data in the caches. Colour and
// depth tiles lie contiguously per render target (a tiled layout); each tile has one bin list.
#pragma once

#include <cstdint>

namespace strobe::timing::tbr {

inline constexpr uint64_t kColorBase = uint64_t{0x6000} << 32;  ///< colour tiles, per target
inline constexpr uint64_t kDepthBase = uint64_t{0x6800} << 32;  ///< depth tiles, per target
inline constexpr uint64_t kTargetStride = uint64_t{1} << 32;     ///< between two targets' tiles
inline constexpr uint64_t kBinBase = uint64_t{0x7000} << 32;    ///< the bin-list heap
/// Bin lists grow in chunks taken from a heap in the order the tiler needs them (as Mali's
/// polygon lists do), so lists of different tiles do not fall into one cache set or DRAM bank.
inline constexpr uint64_t kBinChunkBytes = 512;

/// Response tags: the tiler's writes; a unit's tile store (| unit); a unit's fetches (unit, with
/// the fetch's sequence number modulo kMaxFetches at kFetchShift).
inline constexpr uint32_t kGeometryTag = UINT32_MAX;
inline constexpr uint32_t kStoreTag = uint32_t{1} << 31;
inline constexpr uint32_t kFetchShift = 27;
inline constexpr uint32_t kMaxFetches = 16;  ///< gfx.fetch_ahead + 1 at most
inline constexpr uint32_t kUnitMask = 0xFFFF;

/// Quads in one hierarchical-Z block (8x8 pixels), which HiZ rejects in one cycle.
inline constexpr uint64_t kHizQuadsPerBlock = 16;

/// a / b rounded up.
inline constexpr uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace strobe::timing::tbr
