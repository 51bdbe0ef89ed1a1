// CPI accounting: every CU cycle of a launch lands in exactly one category. The CU charges the
// cycles it ticks; the cycles it sleeps through are charged, when it next ticks or the launch
// ends, to the reason it had when it went to sleep (a memory wait refined to the deepest level
// its access has reached by then). One interval charge serves both.
#pragma once

#include <array>
#include <cstdint>

#include "timing/engine/cycle.h"
#include "timing/mem/mem_req.h"

namespace strobe::timing {

/// CPI stack categories: every CU cycle of a launch lands in exactly one.
enum class CpiReason : uint8_t { Issue, Dependency, L1, L2, Dram, MshrQueue, DramQueue, Barrier, Fetch, Other, COUNT };
/// The category's name in statistics ("issue", "l2", ...).
const char* cpi_name(CpiReason r);

/// The category of a cycle spent waiting for an access that has reached `stage`.
constexpr CpiReason cpi_reason(MemStage stage) {
  switch (stage) {
    case MemStage::MshrQueue: return CpiReason::MshrQueue;
    case MemStage::L2: return CpiReason::L2;
    case MemStage::Dram: return CpiReason::Dram;
    case MemStage::DramQueue: return CpiReason::DramQueue;
    default: return CpiReason::L1;
  }
}

/// One CU's CPI stack for the current launch.
class CpiAccountant {
 public:
  using Stack = std::array<uint64_t, size_t(CpiReason::COUNT)>;

  /// Starts a launch at `now`: nothing charged yet, an idle CU's cycles are Other.
  void begin(Cycle now) {
    until_ = now;
    sleep_reason_ = CpiReason::Other;
    waiting_on_ = nullptr;
  }
  /// Charges the cycles since the last charged one (the CU slept through them) to the reason
  /// it went to sleep with; call at the start of a tick.
  void catch_up(Cycle now) {
    if (now <= until_) return;
    if (waiting_on_) sleep_reason_ = cpi_reason(waiting_on_->stage());
    charge_span(now, sleep_reason_);
  }
  /// Charges cycle `now` to `r`. `waiting_on`: the access whose progress refines the reason
  /// while the CU sleeps after this tick (null: none); `resident`: false if no wave is left, so
  /// the sleep that follows is Other.
  void charge(Cycle now, CpiReason r, const AccessProgress* waiting_on, bool resident) {
    ++stack_[size_t(r)];
    last_charged_ = r;
    until_ = now + 1;
    sleep_reason_ = resident ? r : CpiReason::Other;
    waiting_on_ = waiting_on;
  }
  /// Closes the launch at `end`: idle cycles up to it are Other, and a cycle charged at or
  /// after `end` (a tick in the launch's last cycle) is taken back, since it belongs to
  /// whatever runs next.
  void end(Cycle end) {
    if (end > until_) charge_span(end, CpiReason::Other);
    if (until_ > end) stack_[size_t(last_charged_)] -= (until_ - end).value();
    begin(end);
  }
  /// Cycles charged to each category (stable addresses: registered as statistics).
  const Stack& stack() const { return stack_; }

 private:
  /// Charges [until_, to) to `r`.
  void charge_span(Cycle to, CpiReason r) {
    stack_[size_t(r)] += (to - until_).value();
    until_ = to;
  }

  Stack stack_{};
  Cycle until_{0};  // first cycle not charged yet
  CpiReason sleep_reason_ = CpiReason::Other;
  CpiReason last_charged_ = CpiReason::Other;
  const AccessProgress* waiting_on_ = nullptr;
};

}  // namespace strobe::timing
