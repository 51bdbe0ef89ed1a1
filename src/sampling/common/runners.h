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

}  // namespace strobe::sampling
