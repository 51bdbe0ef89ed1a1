// Issue arbitration among the ready waves of one SIMD: the scheduler plug-in point. A policy
// is one file defining a class and a registration line in issue_policy.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace strobe::timing {

class IssuePolicy {
 public:
  virtual ~IssuePolicy() = default;
  /// Picks one wave slot out of `ready` (bit i: slot i may issue this instruction type).
  /// `age[i]` is slot i's dispatch order (smaller is older).
  virtual int pick(uint64_t ready, const uint64_t* age) = 0;
  /// Told which slot issued (greedy policies remember it).
  virtual void issued(int slot) {}
};

using IssuePolicyFactory = std::unique_ptr<IssuePolicy> (*)();

/// Creates the policy registered as `name`; throws InputError listing the known names.
std::unique_ptr<IssuePolicy> make_issue_policy(std::string_view name);
/// Names of every registered policy.
std::vector<std::string> issue_policy_names();

/// Slot of the oldest wave in `mask` (helper for policies).
int oldest_in(uint64_t mask, const uint64_t* age);

// Factories defined one per file.
std::unique_ptr<IssuePolicy> make_oldest_first();
std::unique_ptr<IssuePolicy> make_round_robin();
std::unique_ptr<IssuePolicy> make_greedy_then_oldest();

}  // namespace strobe::timing
