// PKA's pass state: what its profiling pass learned (every launch's identity, features and
// emulator counters), written by one process and read by the next when a host program runs
// once per pass. Versioned JSON: a few hundred numbers per launch, and readable when a run is
// refused.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sampling/pka/features.h"
#include "sampling/profile/profile_file.h"

namespace strobe::sampling::pka {

/// First field of every PKA pass state: tells it from any other JSON document.
inline constexpr std::string_view kPassStateFormat = "strobe-pka-pass-state";
/// Bumped whenever the layout changes incompatibly; other versions are refused, not guessed at.
inline constexpr uint32_t kPassStateVersion = 2;

/// One profiled launch: what identifies it and its PKA profile.
struct ProfiledLaunch {
  profile::LaunchIdentity id;
  PkaProfile profile;
};

/// The profiling pass of one workload.
struct PassState {
  profile::WorkloadIdentity workload;
  uint32_t line_bytes = 64;  ///< the line size vector memory lines were counted at
  std::vector<ProfiledLaunch> launches;  ///< in launch order
};

/// Serialises `s` (JSON text; doubles round-trip exactly).
std::string encode(const PassState& s);
/// Parses a pass state; InputError naming `file` for invalid JSON, another format or version,
/// or a missing or mistyped field.
PassState decode(std::string_view text, const std::string& file);

/// Writes `s` to `path` atomically.
void save(const std::string& path, const PassState& s);
/// Reads and decodes `path`; InputError naming the file and the reason.
PassState load(const std::string& path);

}  // namespace strobe::sampling::pka
