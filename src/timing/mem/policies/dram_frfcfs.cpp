// First-ready first-come first-served (Rixner et al.): requests that hit the open row go first,
// oldest first, then the oldest request. A cap bounds starvation: once the oldest request of a
// bank has been bypassed `bypass_cap` times by younger row hits, it issues next.
#include "timing/mem/dram_scheduler.h"

namespace strobe::timing {
namespace {
class FrFcfs final : public DramScheduler {
 public:
  explicit FrFcfs(uint32_t cap) : cap_(cap) {}
  uint32_t pick(std::span<const DramQueued> queue, uint64_t open_row, uint64_t now) const override {
    if (open_row == UINT64_MAX || queue.front().bypassed >= cap_) return 0;
    for (uint32_t i = 0; i < queue.size() && queue[i].arrive <= now; ++i)
      if (queue[i].row == open_row) return i;
    return 0;
  }
  bool before(const DramQueued& a, bool a_hit, const DramQueued& b, bool b_hit) const override {
    return a_hit != b_hit ? a_hit : a.seq < b.seq;
  }

 private:
  uint32_t cap_;
};

std::unique_ptr<DramScheduler> make_dram_frfcfs(const DramSchedulerParams& p) {
  return std::make_unique<FrFcfs>(p.bypass_cap);
}
}  // namespace
}  // namespace strobe::timing

STROBE_DRAM_SCHEDULER("frfcfs", strobe::timing::make_dram_frfcfs);
