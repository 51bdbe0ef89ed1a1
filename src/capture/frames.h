// Captures of graphics frames: one functional pass over a trace's frames, each recorded so that
// it can later be rendered and timed alone, on any configuration with the same tile size, warm.
// A frame's checkpoint is the frame itself, with everything its draws read
// (gfx/stream/frame_file.h: buffer contents, programs, uniforms, textures, fixed-function state),
// so the trace's calls before it are not replayed; contents many frames read are stored once. Its
// configuration-free warm state is the history of the lines its work touched
// (timing/gfx/frame_accesses.h), from which a replay rebuilds any GPU's caches for the frames
// before the one it times. Its functional counts are what frame-sampling methods read, so the
// capture replaces their functional pass.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "capture/capture_file.h"
#include "capture/history.h"
#include "gfx/pipeline/frame_stats.h"
#include "gfx/stream/frame_stream.h"
#include "gfx/stream/gl_state.h"
#include "timing/gpu/gpu.h"

namespace strobe::capture {

/// How a frames capture records.
struct FrameRecorderOptions {
  uint32_t tile_size = 16;         ///< gfx.tile_size the frames are recorded at
  uint32_t bin_entry_bytes = 8;    ///< gfx.bin_entry_bytes the bin lists in the history are laid out with
  uint32_t granule_bytes = 64;     ///< the history's line size
  uint64_t history_bytes = kDefaultHistoryBytes;  ///< distinct bytes of history a replay warms from, at most
  uint32_t threads = 1;            ///< host threads the renderer shades pixel waves on
};

/// Renders the frames of `ranges` of the trace at `path` in order and records each into
/// `writer`; returns the index (kind "frames"; the caller names the workload and finishes the
/// file). InputError for a range past the trace's end.
CaptureIndex record_frames(const std::string& path, const std::vector<gfx::FrameRange>& ranges,
                           const FrameRecorderOptions& o, CaptureWriter& writer);

/// Frames of one frames capture, read back (safe from one thread at a time).
class FrameReplayer {
 public:
  /// `cap` is a frames capture (InputError naming the file otherwise) that outlives this.
  explicit FrameReplayer(const CaptureFile& cap);

  /// The captured frames' trace numbers, ascending.
  const std::vector<uint64_t>& frame_numbers() const { return numbers_; }
  /// The position of trace frame `frame` in the capture; InputError naming the file if it was
  /// not captured.
  size_t position(uint64_t frame) const;
  /// The frame at position `i`, with its contents (shared with earlier frames that read them).
  gfx::GlFrame frame(size_t i);
  /// Its functional counts, as the capture's pass counted them.
  gfx::FrameStats counts(size_t i) const;
  /// Refuses a configuration whose tile size, bin entry size or line size the capture cannot
  /// serve (InputError naming the file and what to capture again with).
  void check(const timing::GpuConfig& cfg) const;
  /// Warms `gpu`'s caches (and DRAM's rows) with the histories of the frames at positions
  /// [from, to), newest first up to the capture's bound (or `max_granules` distinct granules if
  /// fewer and not 0), applied oldest first: each shader wave's vector lines on the CU of its
  /// number, modulo the CUs, its scalar and instruction lines on every shader array, the
  /// fixed-function tile lines at the L2 (depth tile stores only under gfx.store_depth=on).
  void warm(timing::Gpu& gpu, size_t from, size_t to, uint64_t max_granules = 0);
  /// Seconds spent decoding frames and warming caches so far.
  double decode_seconds() const { return decode_seconds_; }
  double warm_seconds() const { return warm_seconds_; }

 private:
  /// Frame `i`'s history, decoded (kept for later walks; valid until the next warm() starts).
  const std::vector<HistoryEntry>& history(size_t i);
  /// Decoded history entries kept from one walk to the next at most (24 bytes each: 384 MiB).
  static constexpr uint64_t kKeptEntries = uint64_t{1} << 24;
  const CaptureFile& cap_;
  std::vector<uint64_t> numbers_;
  std::unordered_map<size_t, std::vector<HistoryEntry>> histories_;
  uint64_t kept_entries_ = 0;
  std::unordered_map<uint64_t, std::weak_ptr<const std::vector<uint8_t>>> contents_;  // blob -> live content
  double decode_seconds_ = 0, warm_seconds_ = 0;
};

}  // namespace strobe::capture
