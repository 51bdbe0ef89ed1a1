// PKA's per-launch features, measured by functional profiling (PKA profiles on hardware;
// strobe's profiler is its emulator).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "emu/dispatch.h"
#include "emu/memory.h"
#include "timing/cu/inst_info.h"

namespace strobe::sampling {

/// PKA-style per-kernel features measurable by emulation.
constexpr int kPkaFeatures = 13;

/// One launch's profile.
struct PkaProfile {
  std::string kernel;
  /// log1p of wave and thread instructions, SIMD utilisation, the shares of VALU, SALU, vector
  /// loads, vector stores, LDS, SMEM and branches, lines per vector memory instruction, log1p of
  /// work-groups, waves per work-group.
  std::array<double, kPkaFeatures> features{};
  emu::DispatchStats stats;  ///< the emulator's counters for the launch
};

/// Emulates `d` one instruction at a time, classifying each by `info` (the program's
/// timing::InstInfo) and counting vector memory lines at `line_bytes`, and returns its profile;
/// its groups may run on up to `threads` host threads (profile::Profiler::run_launch).
PkaProfile profile_pka_features(const emu::Dispatch& d, emu::GlobalMemory& mem, const std::vector<timing::InstInfo>& info,
                                uint32_t line_bytes, uint32_t threads = 1);

}  // namespace strobe::sampling
