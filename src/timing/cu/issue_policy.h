// Issue arbitration among the ready waves of one SIMD: the scheduler plug-in point. A policy
// is one file under cu/policies/ defining a class and registering its factory with
// STROBE_ISSUE_POLICY.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "timing/config/registry.h"

namespace strobe::timing {

/// Picks which ready wave of a SIMD issues; one instance per SIMD.
class IssuePolicy {
 public:
  virtual ~IssuePolicy() = default;
  /// Picks one wave slot out of `ready` (bit i: slot i may issue this instruction type).
  /// `age[i]` is slot i's dispatch order (smaller is older).
  virtual int pick(uint64_t ready, const uint64_t* age) = 0;
  /// Told which slot issued (greedy policies remember it).
  virtual void issued(int slot) {}
};

/// The issue-policy plug-in point.
struct IssuePolicies {
  using Factory = std::unique_ptr<IssuePolicy> (*)();
  using Check = void*;  ///< policies accept every CU
  static constexpr const char* kWhat = "issue policy";
};

/// Creates the policy registered as `name`; throws InputError listing the known names.
std::unique_ptr<IssuePolicy> make_issue_policy(std::string_view name);
/// Names of every registered policy, sorted.
std::vector<std::string> issue_policy_names();

/// Slot of the oldest wave in `mask` (helper for policies; inline so that policy files need
/// nothing but this header).
inline int oldest_in(uint64_t mask, const uint64_t* age) {
  int best = -1;
  for (uint64_t m = mask; m; m &= m - 1) {
    int s = std::countr_zero(m);
    if (best < 0 || age[s] < age[best]) best = s;
  }
  return best;
}

}  // namespace strobe::timing

/// Registers an issue policy: NAME and its factory.
#define STROBE_ISSUE_POLICY(NAME, FACTORY) STROBE_REGISTER(::strobe::timing::IssuePolicies, NAME, FACTORY)
