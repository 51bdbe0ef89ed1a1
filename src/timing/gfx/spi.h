// The shader-launch unit (SPI): graphics waves queued in the order the stages produce them, each
// launched as a one-wave work-group on the CU the shared round-robin rule picks (cu_picker.h, the
// compute Dispatcher's rule), at most one per gfx wave interval. A wave's tag names what it was
// launched for, so its retirement reaches the right stage.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "timing/cu/cu_params.h"
#include "timing/cu/cu_picker.h"
#include "timing/cu/inst_info.h"
#include "timing/cu/wave_source.h"
#include "timing/engine/engine.h"
#include "timing/gfx/frame_work.h"
#include "timing/gfx/gfx_params.h"

namespace strobe::timing {

/// What a launched wave's retirement refers to.
struct LaunchRef {
  bool pixel = false;
  uint32_t draw = 0;
  uint32_t unit = 0;
  uint32_t seq = 0;  ///< pixel waves: its blend-queue sequence number in the unit
};

/// The SPI (see the file comment). `owner` is the pipeline: the WaveSource the CUs report to,
/// and the component its wake-ups (kGfxSpiTry) go to.
class Spi {
 public:
  Spi(Engine& engine, WaveSource& owner, std::vector<ComputeUnit*> cus, const CuParams& cu, uint32_t wave_interval,
      GraphicsCounters& counters)
      : engine_(engine), owner_(owner), picker_(std::move(cus)), cu_(cu), wave_interval_(wave_interval), c_(counters) {}

  /// A new frame at `start`: nothing queued, every CU may have room.
  void begin_frame(Cycle start);
  /// A new pass: launch tags start over.
  void begin_pass() { refs_.clear(); }
  /// Queues wave `id` of shader `s`, launched for `ref`.
  void enqueue(const ShaderWork& s, uint32_t id, LaunchRef ref);
  /// Launches the next queued wave if a CU has room and the interval allows.
  void try_launch(Cycle now);
  /// The wake-up kGfxSpiTry arrived.
  void woke(Cycle now) {
    pending_ = false;
    try_launch(now);
  }
  void mark_room(uint32_t cu) { picker_.mark_room(cu); }
  /// What the wave tagged `tag` was launched for.
  const LaunchRef& ref(uint32_t tag) const { return refs_[tag]; }
  size_t queued() const { return queue_.size(); }
  /// A one-wave group of `s`: its registers rounded to the CU's granules, no LDS.
  WorkgroupNeeds needs_of(const ShaderWork& s) const;

 private:
  const std::vector<InstInfo>& info_of(const isa::Program* p);

  Engine& engine_;
  WaveSource& owner_;
  CuPicker picker_;
  CuParams cu_;
  uint32_t wave_interval_;
  GraphicsCounters& c_;
  std::deque<WorkgroupLaunch> queue_;
  std::vector<LaunchRef> refs_;  // by launch tag, this pass
  std::map<const isa::Program*, std::vector<InstInfo>> info_;
  Cycle next_{0};
  bool pending_ = false;
};

}  // namespace strobe::timing
