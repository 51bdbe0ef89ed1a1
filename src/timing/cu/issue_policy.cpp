#include "timing/cu/issue_policy.h"

#include <bit>

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::timing {

namespace {
struct Entry {
  const char* name;
  IssuePolicyFactory make;
};
// The registry: one line per policy.
constexpr Entry kPolicies[] = {
    {"oldest", make_oldest_first},
    {"rr", make_round_robin},
    {"gto", make_greedy_then_oldest},
};
}  // namespace

int oldest_in(uint64_t mask, const uint64_t* age) {
  int best = -1;
  for (uint64_t m = mask; m; m &= m - 1) {
    int s = std::countr_zero(m);
    if (best < 0 || age[s] < age[best]) best = s;
  }
  return best;
}

std::unique_ptr<IssuePolicy> make_issue_policy(std::string_view name) {
  for (const Entry& e : kPolicies)
    if (name == e.name) return e.make();
  throw InputError(fmt::format("unknown issue policy '{}' (known: {})", name, fmt::join(issue_policy_names(), ", ")));
}

std::vector<std::string> issue_policy_names() {
  std::vector<std::string> v;
  for (const Entry& e : kPolicies) v.emplace_back(e.name);
  return v;
}

}  // namespace strobe::timing
