// Greedy-then-oldest: keep issuing from the wave that issued last while it is ready, otherwise
// fall back to the oldest ready wave.
#include "timing/cu/issue_policy.h"

namespace strobe::timing {
namespace {
class GreedyThenOldest final : public IssuePolicy {
 public:
  int pick(uint64_t ready, const uint64_t* age) override {
    if (last_ >= 0 && (ready >> last_ & 1)) return last_;
    return oldest_in(ready, age);
  }
  void issued(int slot) override { last_ = slot; }

 private:
  int last_ = -1;
};

std::unique_ptr<IssuePolicy> make_greedy_then_oldest() { return std::make_unique<GreedyThenOldest>(); }
}  // namespace
}  // namespace strobe::timing

STROBE_ISSUE_POLICY("gto", strobe::timing::make_greedy_then_oldest);
