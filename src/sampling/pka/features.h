// PKA's per-launch features, measured by functional profiling (PKA profiles on hardware;
// strobe's profiler is its emulator).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "emu/dispatch.h"
#include "emu/memory.h"
#include "sampling/profile/collector.h"
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
  uint64_t lines = 0;        ///< lines its vector memory instructions request (where its steady state can begin)
};

/// What PKA counts of a launch's instructions: each by its issue type, and the lines of its
/// vector memory instructions.
struct PkaCounts {
  uint64_t valu = 0, salu = 0, loads = 0, stores = 0, lds = 0, smem = 0, branch = 0, lines = 0;
  bool operator==(const PkaCounts&) const = default;
};

/// The instruction-grain collector that counts PkaCounts (Splittable: the counts are sums).
struct PkaCounter : profile::Collector {
  static constexpr profile::Grain kGrain = profile::Grain::Instruction;
  const std::vector<timing::InstInfo>* info = nullptr;  ///< the program's classification
  PkaCounts counts;

  bool can_split() const { return true; }
  PkaCounter split() const {
    PkaCounter c;
    c.info = info;
    return c;
  }
  void join(PkaCounter&& part);
  /// Counts one instruction by its issue type. Branch-free: the types of consecutive
  /// instructions alternate, and a switch's mispredicted jump cost more than the counting.
  void instruction(const profile::Instruction& i) {
    using timing::IssueType;
    if (i.pc >= info->size()) return;
    const timing::InstInfo& in = (*info)[i.pc];
    PkaCounts& c = counts;
    const bool scalar = in.type == IssueType::Scalar, vmem = in.type == IssueType::Vmem;
    c.valu += in.type == IssueType::Valu;
    c.smem += scalar & in.is_scalar_mem;
    c.salu += scalar & !in.is_scalar_mem;
    c.lds += in.type == IssueType::Lds;
    c.branch += in.type == IssueType::Branch;
    c.stores += vmem & in.is_store;
    c.loads += vmem & !in.is_store;
    c.lines += vmem ? i.lines : 0;  // whatever the space: FLAT into LDS counts too, as it always has
  }
};

/// The profile of a launch of `kernel` with the emulator's counters `stats` and `counts`.
PkaProfile pka_profile(const std::string& kernel, const emu::DispatchStats& stats, const PkaCounts& counts);

/// The key of PKA's counts among a functional profile's per-launch blobs
/// (profile::LaunchRecord::blobs), which a workload capture fills.
inline constexpr const char* kPkaBlob = "pka";
/// `c` as a profile blob.
std::string encode_counts(const PkaCounts& c);
/// Reads encode_counts(); InputError naming `what` if malformed.
PkaCounts decode_counts(std::string_view bytes, const std::string& what);

/// Emulates `d` one instruction at a time, classifying each by `info` (the program's
/// timing::InstInfo) and counting vector memory lines at `line_bytes`, and returns its profile;
/// its groups may run on up to `threads` host threads (profile::Profiler::run_launch).
PkaProfile profile_pka_features(const emu::Dispatch& d, emu::GlobalMemory& mem, const std::vector<timing::InstInfo>& info,
                                uint32_t line_bytes, uint32_t threads = 1);

}  // namespace strobe::sampling
