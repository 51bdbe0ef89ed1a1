// First-come first-served: each bank serves its requests in arrival order; banks issuing in the
// same cycle take the bus oldest first.
#include "timing/mem/dram_scheduler.h"

namespace strobe::timing {
namespace {
class Fcfs final : public DramScheduler {
 public:
  uint32_t pick(std::span<const DramQueued>, uint64_t, uint64_t) const override { return 0; }
  bool before(const DramQueued& a, bool, const DramQueued& b, bool) const override { return a.seq < b.seq; }
};

std::unique_ptr<DramScheduler> make_dram_fcfs(const DramSchedulerParams&) { return std::make_unique<Fcfs>(); }
}  // namespace
}  // namespace strobe::timing

STROBE_DRAM_SCHEDULER("fcfs", strobe::timing::make_dram_fcfs);
