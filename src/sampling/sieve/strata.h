// Sieve's stratification [Naderan-Tahan and Eeckhout, ISPASS'23]: launches grouped by kernel
// name, then by the spread of their instruction counts into three tiers. A pure function of a
// per-launch table, so the strata can be checked against the reimplementation's directly.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sampling/sieve/params.h"

namespace strobe::sampling::sieve {

/// What Sieve knows of a launch.
struct LaunchRow {
  std::string kernel;
  uint64_t instructions = 0;  ///< executed wave instructions (GCN's count of warp instructions)
  uint64_t threads = 0;       ///< work-items (grid × block, in CUDA's terms)
};

/// One stratum: launches of one kernel, represented by one of them.
struct Stratum {
  std::string kernel;
  int tier = 1;                  ///< 1: every count equal; 2: CoV below tier2_cov; 3: cut by density
  std::vector<size_t> launches;  ///< its launches, in program order
  size_t representative = 0;     ///< the launch simulated in detail
};

/// The strata of `launches` (program order), kernels in order of first launch and a kernel's
/// tier-3 pieces in increasing instruction count; every launch in exactly one.
std::vector<Stratum> stratify(std::span<const LaunchRow> launches, const Params& p);

}  // namespace strobe::sampling::sieve
