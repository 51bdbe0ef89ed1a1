// The functional profile written once by `strobe profile` and reused by profile-driven methods
// (TBPoint now; GPUMech and SimProf add their own per-unit features): what the workload was, the
// line size memory requests were coalesced at, and per launch named feature columns per
// work-group and per wave. Methods add columns, never a new format.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>


namespace strobe::sampling::profile {

/// First field of every profile file: tells a profile from any other msgpack document.
inline constexpr std::string_view kProfileMagic = "strobe-profile";
/// Bumped whenever the layout changes incompatibly. The version before it is still read (its
/// layout is known); older files are rejected, not guessed at.
inline constexpr uint32_t kProfileVersion = 3;  // 2: the collection time; 3: columns packed in binary

/// Column names the functional collector fills (per work-group and per wave).
namespace column {
inline constexpr const char* kWaveInsts = "wave_insts";      ///< issued wave instructions
inline constexpr const char* kThreadInsts = "thread_insts";  ///< Σ active lanes, scalar included
inline constexpr const char* kGlobalReqs = "global_reqs";    ///< coalesced global requests
inline constexpr const char* kScratchReqs = "scratch_reqs";  ///< coalesced scratch requests
inline constexpr const char* kMemReqs = "mem_reqs";          ///< global + scratch requests
inline constexpr const char* kWorkGroup = "workgroup";       ///< per-wave table: owning group
inline constexpr const char* kWave = "wave";                 ///< per-wave table: index in group
inline constexpr const char* kStartPc = "start_pc";          ///< per-block table: the block's first instruction
/// The columns every work-group and wave table of a functional profile has; a table without one
/// is corrupt (its sums would read as zero).
inline constexpr const char* kUnitColumns[] = {kWaveInsts, kThreadInsts, kGlobalReqs, kScratchReqs, kMemReqs};
}  // namespace column

/// How much of each table a decode keeps. A launch-level method reads a launch's sums only, and
/// on a long workload the unit columns it never reads were most of what decoding the profile
/// cost: on a decoder of 14,336 launches, tens of millions of rows, each written once and dropped.
enum class ProfileDetail : uint8_t {
  units,  ///< every column, a row per unit
  sums,   ///< each table's row count and each u64 column's sum; no f64 column
};

/// A table of equally long columns keyed by name: one row per unit (work-group or wave).
struct FeatureTable {
  uint64_t rows = 0;
  std::map<std::string, std::vector<uint64_t>> u64;  ///< counts
  std::map<std::string, std::vector<double>> f64;    ///< ratios, probabilities, ...
  /// Set when decoded with ProfileDetail::sums: each u64 column's sum by name, with `u64` and
  /// `f64` empty. Such a table answers has_u64() and sum(); find_u64() on it is a FaultError
  /// (a method that reads units was given a summed profile) and it cannot be encoded.
  std::optional<std::map<std::string, uint64_t>> sums;

  /// The u64 column `name`, or null when the table has none.
  const std::vector<uint64_t>* find_u64(const std::string& name) const;
  /// Whether the table has u64 column `name` (as columns or as a sum).
  bool has_u64(const std::string& name) const;
  /// Σ of u64 column `name` (0 when absent).
  uint64_t sum(const std::string& name) const;
};

/// What identifies the workload a profile was taken of; the GPU configuration is deliberately
/// absent, since a functional profile does not depend on it.
struct WorkloadIdentity {
  std::string kind;                 ///< "benchmark" or "program"
  std::string name;                 ///< benchmark name, or the program path
  std::vector<std::string> params;  ///< benchmark: effective "K=V" (defaults included), sorted; program: argv
};

/// What identifies one launch: a different kernel, code or arguments is a different workload.
struct LaunchIdentity {
  std::string kernel;
  uint64_t code_hash = 0;     ///< FNV-1a of the decoded code object's bytes
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> local{1, 1, 1};
  uint64_t kernarg_hash = 0;  ///< FNV-1a of the kernarg segment

  bool operator==(const LaunchIdentity&) const = default;
};

/// One launch of the profile: its identity and its feature tables.
struct LaunchRecord {
  LaunchIdentity id;
  FeatureTable workgroups;  ///< one row per work-group, in dispatch (flattened id) order
  FeatureTable waves;       ///< one row per wave, grouped by work-group in the same order
  /// The launch's basic-block vector: one row per basic block that ran, in program order, with
  /// its first instruction's index (start_pc) and the wave instructions executed in it over the
  /// whole launch (wave_insts). SimProf's code signature. Optional in the file: a profile
  /// written before it has no columns here (blocks.u64 empty).
  FeatureTable blocks;
  /// Per-launch data of one method that is not a column, opaque to the profile and encoded by
  /// its method (GPUMech's wave traces under "gpumech", `strobe profile --gpumech`). Optional:
  /// a file without it reads as before, and a reader that does not know a key ignores it.
  std::map<std::string, std::string> blobs;
};

/// A whole profile as stored.
struct ProfileFile {
  WorkloadIdentity workload;
  uint32_t line_bytes = 64;         ///< line size requests were coalesced at
  std::string mode = "functional";  ///< how it was collected
  /// Seconds the collecting run took (its work, setup excluded): what a method reusing the
  /// profile saved, reported beside its speedup.
  double seconds = 0;
  std::vector<LaunchRecord> launches;  ///< in launch order
};

/// 64-bit FNV-1a of `bytes`, continuing from `h` (stable across platforms and runs).
uint64_t fnv1a(std::string_view bytes, uint64_t h = 0xcbf29ce484222325ull);

/// Serialises `p` (msgpack).
std::string encode(const ProfileFile& p);
/// Parses a profile, keeping `detail` of each table; `name` (the file) is named in the
/// InputError thrown for a truncated or corrupt document, a wrong magic or version, or
/// inconsistent columns (checked alike at either detail).
ProfileFile decode(std::string_view bytes, const std::string& name, ProfileDetail detail = ProfileDetail::units);

/// Writes `p` to `path` atomically; InputError naming the path on failure.
void save(const std::string& path, const ProfileFile& p);
/// Reads and decodes `path` at `detail`; InputError naming the file and the reason.
ProfileFile load(const std::string& path, ProfileDetail detail = ProfileDetail::units);

/// The first way the workload `profiled` differs from `run`'s, described, or nullopt.
std::optional<std::string> workload_difference(const WorkloadIdentity& profiled, const WorkloadIdentity& run);
/// The first way `p` differs from a run of `w` at `line_bytes`, described, or nullopt.
std::optional<std::string> first_difference(const ProfileFile& p, const WorkloadIdentity& w, uint32_t line_bytes);
/// Whether the kernarg hashes of launches of workload `w` are comparable between its runs: not
/// for a program, whose every run is a process of its own where its buffers may lie at other
/// addresses (HIP maps device memory at host addresses, which address-space randomisation
/// moves), so the pointers among its arguments differ while the launch does not.
bool kernargs_comparable(const WorkloadIdentity& w);
/// How launch `i` as profiled (`profiled`) differs from the run's (`run`), or nullopt; the
/// kernarg hashes only with `compare_kernargs`.
std::optional<std::string> launch_difference(size_t i, const LaunchIdentity& profiled, const LaunchIdentity& run,
                                             bool compare_kernargs = true);
/// How launch `i` of a run (identity `run`) left the profiled launch sequence `profiled`, or
/// nullopt when it is the profiled launch `i`: past the profile's end, or a launch_difference().
/// The same kernel with other code is not a departure but a stale profile: InputError
/// "SOURCE does not match the workload: launch I (KERNEL) has different code". What every
/// profile-driven method asks of each launch it runs.
std::optional<std::string> departure_from_profile(size_t i, const LaunchIdentity& run,
                                                  std::span<const LaunchIdentity> profiled, bool compare_kernargs,
                                                  const std::string& source);
/// The first way the launches of `p` differ from `launches` (the run's, in order), or nullopt
/// (kernarg hashes as kernargs_comparable(p.workload) says).
std::optional<std::string> first_difference(const ProfileFile& p, const std::vector<LaunchIdentity>& launches);
/// Throws InputError "profile FILE does not match ...: DIFFERENCE" when `diff` holds one.
void require_match(const std::string& file, const std::optional<std::string>& diff);

/// Work-groups a launch of `grid` work-items in groups of `local` has (partial groups count).
inline uint64_t group_count(const std::array<uint32_t, 3>& grid, const std::array<uint32_t, 3>& local) {
  uint64_t n = 1;
  for (int d = 0; d < 3; ++d) n *= local[d] == 0 ? 0 : (uint64_t{grid[d]} + local[d] - 1) / local[d];
  return n;
}

}  // namespace strobe::sampling::profile
