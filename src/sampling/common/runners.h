// Dispatch runners a method builds its passes from: a runner that hands each launch to a
// function of the method, and the record of a launch a profiling pass ran functionally.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "runtime/device.h"

namespace strobe::sampling {

/// Forwards every launch to `fn` (typically a lambda calling one of the method's members), so
/// a method with several passes needs no runner class per pass.
class FunctionRunner final : public runtime::DispatchRunner {
 public:
  /// What runs a launch: the DispatchRunner::run signature.
  using Fn = std::function<runtime::LaunchResult(const emu::Dispatch&, emu::GlobalMemory&, timing::Gpu&)>;
  explicit FunctionRunner(Fn fn) : fn_(std::move(fn)) {}
  /// Runs `d` through the function.
  runtime::LaunchResult run(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) override {
    return fn_(d, mem, gpu);
  }

 private:
  Fn fn_;
};

/// The sampling record of a launch `method`'s profiling pass ran functionally: level
/// "profile", its `wave_instructions` counted as analysis work.
inline std::shared_ptr<runtime::SampledLaunch> profile_record(const std::string& method, uint64_t wave_instructions) {
  auto rec = std::make_shared<runtime::SampledLaunch>();
  rec->method = method;
  rec->level = "profile";
  rec->functional_instructions = wave_instructions;
  return rec;
}

/// A launch simulated in full detail because the run left the launch sequence the method
/// profiled (`why` says how): level "detailed", the reason in its record's detail.
runtime::LaunchResult unprofiled_launch(const std::string& method, const std::string& why, const emu::Dispatch& d,
                                        emu::GlobalMemory& mem, timing::Gpu& gpu);

/// The launches a method simulated in detail after the run left its profiled sequence: the only
/// time measured when no representative ran before the departure, so their instruction-weighted
/// CPI times the launches left waiting on one (every method that predicts launches from
/// representatives shares this fallback).
class UnprofiledRuns {
 public:
  /// Simulates launch `d` as unprofiled_launch does and keeps its cycles and instructions.
  runtime::LaunchResult run(const std::string& method, const std::string& why, const emu::Dispatch& d,
                            emu::GlobalMemory& mem, timing::Gpu& gpu);
  /// Keeps a launch's measured `cycles` over `instructions` wave instructions.
  void add(uint64_t cycles, uint64_t instructions);
  /// Launches simulated past the departure.
  size_t launches() const { return launches_; }
  /// Whether any of them measured time to project from.
  bool timed() const { return timed_ > 0; }
  /// Gives a waiting launch of `instructions` wave instructions their CPI's cycles: its timing's
  /// totals, its record's estimate, and in its detail how many launches timed it.
  void time(timing::LaunchTiming& t, runtime::SampledLaunch& rec, uint64_t instructions, double clock_mhz) const;
  /// Forgets every launch (a new pass).
  void clear() { *this = {}; }

 private:
  size_t launches_ = 0, timed_ = 0;
  uint64_t cycles_ = 0, instructions_ = 0;
};

}  // namespace strobe::sampling
