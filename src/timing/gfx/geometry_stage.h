// A render pass's geometry phase: the SPI launches every draw's vertex waves in draw order; once
// a draw's last vertex wave retires, primitive setup (assembly, clipping, culling) takes its
// primitives at gfx.prims_per_cycle and the tiler appends its bin entries, at
// gfx.bins_per_cycle, to the per-tile lists in memory. The phase is over when the last draw is
// binned and its writes are answered.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "timing/engine/engine.h"
#include "timing/gfx/bin_lists.h"
#include "timing/gfx/frame_work.h"
#include "timing/gfx/gfx_params.h"
#include "timing/gfx/spi.h"

namespace strobe::timing {

/// Setup and the tiler (see the file comment). `owner` receives the kGfxSetupDone wake-ups.
class GeometryStage {
 public:
  GeometryStage(Engine& engine, Component& owner, const GraphicsParams& p, GraphicsCounters& c, BinLists& bins,
                uint64_t& progress)
      : engine_(engine), owner_(owner), p_(p), c_(c), bins_(bins), progress_(progress) {}
  /// Starts `pass`: its vertex waves queued at `spi`, setup waiting for the first draw's.
  void begin(const PassWork& pass, Spi& spi);
  /// Starts setup of the next draw if it is free and the draw's vertex waves have retired.
  void try_setup(Cycle now);
  /// A vertex wave of draw `draw` retired.
  void vs_retired(uint32_t draw, Cycle now) {
    if (--vs_left_[draw] == 0) try_setup(now);
  }
  /// kGfxSetupDone: the current draw's entries go to the tiles' lists.
  void setup_done(Cycle now);
  /// `lines` of the tiler's writes were answered.
  void answered(uint32_t lines) { lines_ -= lines; }
  /// Every draw binned and every write answered.
  bool done() const { return !busy_ && next_ >= pass_->draws.size() && !lines_; }
  std::string describe() const;

 private:
  Engine& engine_;
  Component& owner_;
  const GraphicsParams& p_;
  GraphicsCounters& c_;
  BinLists& bins_;
  uint64_t& progress_;
  const PassWork* pass_ = nullptr;
  std::vector<uint32_t> vs_left_;  // per draw: vertex waves not yet retired
  size_t next_ = 0;                // the draw setup takes next
  bool busy_ = false;
  uint32_t lines_ = 0;             // tiler writes not yet answered
};

}  // namespace strobe::timing
