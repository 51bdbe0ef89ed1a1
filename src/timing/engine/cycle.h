// Strong time type of the timing model: a point in (or a span of) core clock cycles.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>

namespace strobe::timing {

/// A count of core clock cycles. Never converts implicitly to or from an integer, so a cycle
/// count cannot be confused with an address, a byte count or an instruction count.
class Cycle {
 public:
  constexpr Cycle() = default;
  constexpr explicit Cycle(uint64_t v) : v_(v) {}
  constexpr uint64_t value() const { return v_; }
  static constexpr Cycle never() { return Cycle(std::numeric_limits<uint64_t>::max()); }
  constexpr bool is_never() const { return v_ == std::numeric_limits<uint64_t>::max(); }

  constexpr auto operator<=>(const Cycle&) const = default;
  constexpr Cycle operator+(Cycle d) const { return Cycle(v_ + d.v_); }
  constexpr Cycle operator-(Cycle d) const { return Cycle(v_ - d.v_); }
  constexpr Cycle& operator+=(Cycle d) { v_ += d.v_; return *this; }
  /// Adds a count of cycles (latencies resolved from the configuration are plain counts).
  constexpr Cycle operator+(uint64_t d) const { return Cycle(v_ + d); }
  constexpr Cycle& operator+=(uint64_t d) { v_ += d; return *this; }

 private:
  uint64_t v_ = 0;
};

constexpr Cycle max(Cycle a, Cycle b) { return a < b ? b : a; }
constexpr Cycle min(Cycle a, Cycle b) { return a < b ? a : b; }

}  // namespace strobe::timing
