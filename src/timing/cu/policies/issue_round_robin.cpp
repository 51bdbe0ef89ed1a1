// Round-robin: the first ready slot after the one that issued last.
#include <bit>

#include "timing/cu/issue_policy.h"

namespace strobe::timing {
namespace {
class RoundRobin final : public IssuePolicy {
 public:
  int pick(uint64_t ready, const uint64_t*) override {
    const int start = (last_ + 1) & 63;
    const uint64_t rotated = std::rotr(ready, start);
    return (start + std::countr_zero(rotated)) & 63;
  }
  void issued(int slot) override { last_ = slot; }

 private:
  int last_ = -1;
};

std::unique_ptr<IssuePolicy> make_round_robin() { return std::make_unique<RoundRobin>(); }
}  // namespace
}  // namespace strobe::timing

STROBE_ISSUE_POLICY("rr", strobe::timing::make_round_robin);
