// Oldest-first: the wave dispatched earliest wins (GCN's default arbitration).
#include "timing/cu/issue_policy.h"

namespace strobe::timing {
namespace {
class OldestFirst final : public IssuePolicy {
 public:
  int pick(uint64_t ready, const uint64_t* age) override { return oldest_in(ready, age); }
};

std::unique_ptr<IssuePolicy> make_oldest_first() { return std::make_unique<OldestFirst>(); }
}  // namespace
}  // namespace strobe::timing

STROBE_ISSUE_POLICY("oldest", strobe::timing::make_oldest_first);
