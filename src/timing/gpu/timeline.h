// A launch's activity over time at a bounded resolution: wave instructions issued, work-groups
// dispatched and retired, and each CU's issued instructions, per sample. Samples start at the
// configured interval; when a launch would need more than the configured number of samples,
// neighbouring samples merge and the interval doubles, so a long launch stays light however
// fine the interval asked for.
#pragma once

#include <cstdint>
#include <vector>

#include "timing/engine/engine.h"

namespace strobe::timing {

/// A launch's activity per sample (see the file comment). Sample i covers the cycles
/// [i * interval, min((i + 1) * interval, launch cycles)) from the launch's start.
struct Timeline {
  uint64_t interval = 0;                        ///< cycles per sample (0: not recorded)
  std::vector<uint64_t> wave_instructions;      ///< GPU-wide wave instructions issued
  std::vector<uint64_t> dispatched;             ///< work-groups handed to a CU
  std::vector<uint64_t> retired;                ///< work-groups retired
  uint32_t cus = 0;                             ///< CUs per sample in cu_wave_instructions
  std::vector<uint64_t> cu_wave_instructions;   ///< samples x CUs, sample-major

  /// Number of samples.
  [[nodiscard]] size_t samples() const { return wave_instructions.size(); }
  /// Cycles sample `i` covers in a launch of `cycles` cycles (the last may be partial).
  [[nodiscard]] uint64_t span(size_t i, uint64_t cycles) const;
};

/// The counters a TimelineSampler reads; each is a running total the model increments.
struct TimelineSources {
  const uint64_t* wave_instructions = nullptr;
  const uint64_t* dispatched = nullptr;
  const uint64_t* retired = nullptr;
  std::vector<const uint64_t*> cu_wave_instructions;
};

/// Records a Timeline during a launch by reading its sources every base interval.
class TimelineSampler : public Component {
 public:
  /// Reads `src`; keeps at most `max_samples` samples (>= 2) per launch.
  TimelineSampler(Engine& e, TimelineSources src, uint64_t max_samples);
  /// Starts launch `launch` at `start`, sampling every `interval` cycles (0: records nothing).
  void begin(Cycle start, uint64_t interval, uint32_t launch);
  /// Ends the launch at `end` (its last, partial sample included) and hands its timeline over.
  Timeline end(Cycle end);
  void handle(Cycle now, uint32_t kind, uint32_t launch) override;

 private:
  /// Adds the sources' growth since the last take to the last sample, or to a new one when
  /// the last is full and `into_last` is false.
  void take(bool into_last);
  void halve();
  Engine& engine_;
  TimelineSources src_;
  uint64_t max_samples_;
  uint64_t base_ = 0;     // the configured interval: one event per base interval
  uint64_t stride_ = 1;   // base intervals per sample
  uint64_t ticks_ = 0;    // base intervals taken into the current (last) sample
  Cycle start_{0};
  uint32_t launch_ = UINT32_MAX;
  std::vector<uint64_t> last_;  // sources' values at the previous tick, in TimelineSources order
  Timeline t_;
};

}  // namespace strobe::timing
