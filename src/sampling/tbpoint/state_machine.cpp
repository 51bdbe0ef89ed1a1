// TBPoint's homogeneous-region sampling at run time.
#include "sampling/tbpoint/state_machine.h"

#include "sampling/common/steady_state.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace strobe::sampling::tbpoint {

RegionSampler::RegionSampler(RegionTable table, std::span<const WorkGroupCounts> groups, const Params& params,
                             uint64_t l2_lines)
    : table_(std::move(table)), stability_(params.ipc_stability), open_generations_(params.open_generations) {
  if (table_.regions.empty() ? !groups.empty() : table_.regions.back().last_wg + 1 != groups.size())
    throw std::invalid_argument("tbpoint: the region table does not cover the launch's work-groups");
  wave_insts_.reserve(groups.size());
  for (const auto& g : groups) wave_insts_.push_back(g.wave_insts);
  if (params.open_after_l2_fill && l2_lines > 0) {
    std::vector<uint64_t> lines;
    lines.reserve(groups.size());
    for (const auto& g : groups) lines.push_back(g.mem_reqs);
    open_groups_ = l2_fill_groups(lines, l2_lines);
  }
}

void RegionSampler::go(SamplerState to, uint64_t cycle, int region) {
  transitions_.push_back({cycle, state_, to, region});
  state_ = to;
  region_ = region;
  ++episode_;
  last_warming_ipc_ = -1;
}

int RegionSampler::resident_region() const {
  return resident_count_.size() == 1 ? resident_count_.begin()->first : -1;
}

WorkGroupDecision RegionSampler::dispatch(size_t wg, uint64_t cycle, uint64_t issued) {
  const int r = table_.region_of(wg).id;
  WorkGroupDecision d;
  d.region = r;
  if (state_ == SamplerState::FastForward) {
    if (r == region_) {
      SampledRegion& s = sampled_.back();
      d.simulate = false;
      d.ipc = s.ipc;
      d.predicted_cycles = static_cast<double>(wave_insts_[wg]) / s.ipc;
      ++s.skipped_wgs;
      s.skipped_insts += wave_insts_[wg];
      skipped_insts_ += wave_insts_[wg];
      return d;
    }
    go(SamplerState::Detailed, cycle, region_);  // exit: the region's groups are all dispatched
  } else if (state_ == SamplerState::Warming && r != region_) {
    go(SamplerState::Detailed, cycle, region_);  // the region ended before its IPC settled
  }
  resident_.emplace(wg, r);
  ++resident_count_[r];
  if (retired_ == 0) ++first_generation_;
  detailed_insts_ += wave_insts_[wg];
  if (designated_ == kNone) {
    designated_ = wg;
    current_ = SamplingUnit{};
    current_.wg = wg;
    current_.begin = cycle;
    current_.insts = issued;  // the start count until the unit ends
    current_episode_ = episode_;
    current_warming_ = state_ == SamplerState::Warming;
  }
  return d;
}

void RegionSampler::retire(size_t wg, uint64_t cycle, uint64_t issued) {
  const auto it = resident_.find(wg);
  if (it == resident_.end()) return;
  if (--resident_count_[it->second] == 0) resident_count_.erase(it->second);
  resident_.erase(it);
  ++retired_;
  if (wg != designated_) return;

  designated_ = kNone;
  SamplingUnit& u = current_;
  u.end = cycle;
  u.insts = issued - u.insts;
  u.ipc = cycle > u.begin ? static_cast<double>(u.insts) / static_cast<double>(cycle - u.begin) : 0;
  // A warming unit began in Warming and ran with no state change, so every group dispatched
  // during it belonged to the region.
  const bool warming = current_warming_ && current_episode_ == episode_ && state_ == SamplerState::Warming;
  if (warming) u.warming_region = region_;
  units_.push_back(u);

  if (warming) {
    const double prev = last_warming_ipc_;
    if (prev > 0 && std::abs(u.ipc - prev) / prev < stability_) {
      const int r = region_;
      go(SamplerState::FastForward, cycle, r);
      sampled_.push_back({r, u.ipc, 0, 0});
    } else {
      last_warming_ipc_ = u.ipc;
    }
    return;
  }
  if (state_ == SamplerState::Detailed && retired_ >= std::max(open_generations_ * first_generation_, open_groups_)) {
    const int r = resident_region();
    if (r >= 0 && table_.regions[static_cast<size_t>(r)].samplable) go(SamplerState::Warming, cycle, r);
  }
}

LaunchEstimate RegionSampler::estimate(uint64_t detailed_cycles) const {
  LaunchEstimate e;
  e.cycles = static_cast<double>(detailed_cycles);
  for (const SampledRegion& s : sampled_) e.cycles += static_cast<double>(s.skipped_insts) / s.ipc;
  e.detailed_insts = detailed_insts_;
  e.skipped_insts = skipped_insts_;
  e.insts = detailed_insts_ + skipped_insts_;
  e.cpi = e.insts == 0 ? 0 : e.cycles / static_cast<double>(e.insts);
  return e;
}

}  // namespace strobe::sampling::tbpoint
