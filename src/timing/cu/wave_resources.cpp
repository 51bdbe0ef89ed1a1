#include "timing/cu/wave_resources.h"

namespace strobe::timing {

bool WaveResources::fits(const WorkgroupNeeds& n) const {
  if ((n.barrier_group && barrier_groups_ >= r_.max_workgroups) || lds_ + n.lds_bytes > r_.lds_bytes) return false;
  // Place the waves on a scratch copy with the same rule launching them will use.
  WaveResources t = *this;
  for (uint32_t i = 0; i < n.waves; ++i) {
    if (t.pick_simd(n) < 0) return false;
    t.take_wave(n);
  }
  return true;
}

int WaveResources::pick_simd(const WorkgroupNeeds& n) const {
  int best = -1;
  for (uint32_t s = 0; s < r_.simds; ++s) {
    if (slots_[s] >= r_.slots_per_simd || vgprs_[s] + n.vgprs_per_wave > r_.vgprs_per_simd ||
        sgprs_[s] + n.sgprs_per_wave > r_.sgprs_per_simd)
      continue;
    if (best < 0 || slots_[s] < slots_[best]) best = int(s);
  }
  return best;
}

uint32_t WaveResources::take_wave(const WorkgroupNeeds& n) {
  const uint32_t s = uint32_t(pick_simd(n));
  ++slots_[s], vgprs_[s] += n.vgprs_per_wave, sgprs_[s] += n.sgprs_per_wave;
  return s;
}

void WaveResources::reset() {
  slots_.fill(0), vgprs_.fill(0), sgprs_.fill(0);
  lds_ = groups_ = barrier_groups_ = 0;
}

}  // namespace strobe::timing
