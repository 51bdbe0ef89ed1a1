// Issue arbitration of one CU cycle: among the ready waves of the SIMD whose turn it is, one
// instruction per issue type (chosen by the configured IssuePolicy), every ready Internal
// instruction (consumed in the instruction buffer), and the oldest waves that want an
// instruction fetch, up to the fetch bandwidth. Each SIMD arbitrates among its own waves, so
// each has its own policies: a policy's memory of the wave it issued last (round robin's turn,
// greedy-then-oldest's greedy wave) is of that SIMD's waves.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "timing/cu/inst_info.h"
#include "timing/cu/issue_policy.h"

namespace strobe::timing {

/// Per-cycle arbitration between ready waves (bit masks of wave slots).
class IssueArbiter {
 public:
  using ReadyMasks = std::array<uint64_t, size_t(IssueType::COUNT)>;

  /// One `scheduler` policy (see issue_policy.h) per issue type of each of `simds` SIMDs.
  IssueArbiter(std::string_view scheduler, uint32_t simds) : policy_(simds) {
    for (auto& per_simd : policy_)
      for (auto& p : per_simd) p = make_issue_policy(scheduler);
  }

  /// Issues this cycle's instructions from SIMD `simd`'s ready waves: for each issue type in
  /// order, the wave its policy picks from `ready`, then every wave ready with an Internal
  /// instruction in slot order. Calls `issue(slot)` for each; returns true if any issued.
  /// `age[i]`: slot i's dispatch order.
  template <class F>
  bool arbitrate(uint32_t simd, const ReadyMasks& ready, const uint64_t* age, F&& issue) {
    bool issued = false;
    auto& policy = policy_[simd];
    for (size_t t = 0; t < size_t(IssueType::Internal); ++t) {
      if (!ready[t]) continue;
      // A lone ready wave is every policy's pick; skip the virtual call (the common case).
      const int s = std::has_single_bit(ready[t]) ? std::countr_zero(ready[t]) : policy[t]->pick(ready[t], age);
      policy[t]->issued(s);
      issue(uint32_t(s));
      issued = true;
    }
    for (uint64_t m = ready[size_t(IssueType::Internal)]; m; m &= m - 1) {
      issue(uint32_t(std::countr_zero(m)));
      issued = true;
    }
    return issued;
  }

  /// Grants up to `bandwidth` of the waves in `want` an instruction fetch, oldest first,
  /// calling `fetch(slot)` for each; returns the waves that lost (they retry next turn).
  template <class F>
  static uint64_t arbitrate_fetch(uint64_t want, uint32_t bandwidth, const uint64_t* age, F&& fetch) {
    for (uint32_t f = 0; f < bandwidth && want; ++f) {
      const int s = oldest_in(want, age);
      want &= ~(uint64_t{1} << s);
      fetch(uint32_t(s));
    }
    return want;
  }

 private:
  std::vector<std::array<std::unique_ptr<IssuePolicy>, size_t(IssueType::COUNT)>> policy_;  ///< per SIMD
};

}  // namespace strobe::timing
