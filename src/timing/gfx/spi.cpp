#include "timing/gfx/spi.h"

#include <algorithm>

#include "timing/engine/events.h"

namespace strobe::timing {

namespace {

uint32_t round_up(uint32_t v, uint32_t g) { return (v + g - 1) / g * g; }

}  // namespace

void Spi::begin_frame(Cycle start) {
  info_.clear();
  picker_.reset();
  queue_.clear();
  pending_ = false;
  next_ = start;
}

WorkgroupNeeds Spi::needs_of(const ShaderWork& s) const {
  WorkgroupNeeds n;
  n.waves = 1;
  n.vgprs_per_wave = round_up(std::max(s.vgprs, 1u), cu_.res.vgpr_granule);
  n.sgprs_per_wave = round_up(std::max(s.sgprs, 1u), cu_.res.sgpr_granule);
  n.lds_bytes = 0;
  n.barrier_group = false;
  return n;
}

const std::vector<InstInfo>& Spi::info_of(const isa::Program* p) {
  auto it = info_.find(p);
  if (it == info_.end()) it = info_.emplace(p, build_inst_info(*p, cu_.timing)).first;
  return it->second;
}

void Spi::enqueue(const ShaderWork& s, uint32_t id, LaunchRef ref) {
  WorkgroupLaunch l;
  l.source = &owner_;
  l.executor = s.executor;
  const std::vector<InstInfo>& info = info_of(s.program);
  l.code = WaveCode{info.data(), uint32_t(info.size()), s.program};
  l.needs = needs_of(s);
  l.id = id;
  l.tag = uint32_t(refs_.size());
  refs_.push_back(ref);
  queue_.push_back(l);
}

void Spi::try_launch(Cycle now) {
  if (queue_.empty() || pending_) return;
  if (now < next_) {
    pending_ = true;
    engine_.schedule(next_, &owner_, kGfxSpiTry);
    return;
  }
  const WorkgroupLaunch& l = queue_.front();
  ComputeUnit* cu = picker_.pick(l.needs);
  if (!cu) return;  // no CU has room: a retirement wakes the SPI
  cu->launch_workgroup(now, l);
  ++(refs_[l.tag].pixel ? c_.ps_waves : c_.vs_waves);
  queue_.pop_front();
  next_ = now + uint64_t(wave_interval_);
  if (!queue_.empty()) {
    pending_ = true;
    engine_.schedule(next_, &owner_, kGfxSpiTry);
  }
}

}  // namespace strobe::timing
