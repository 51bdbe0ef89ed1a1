// The shape shared by launch-level methods that simulate a few representatives per group of
// launches and project the rest from them (TBPoint's inter-launch level and Sieve, one per
// group; STEM, a random sample per group): the functional profile comes from a file
// (--profile), a capture, or a first pass of the method's own; the method partitions the
// profiled launches and names each group's representatives; in the sampled pass those run in
// detail and every other launch is given a time projected from its group's.
//
// A representative may come after members of its group (TBPoint's nearest-to-centroid launch,
// Sieve's first launch of the dominant thread count, any of STEM's random draws). Those launches
// run functionally when they arrive and are given their time when the group's last
// representative has run: their timing records are completed in place, so a report read after
// the run sees every estimate.
//
// An execution-driven run may leave the launch sequence it was profiled with when the workload
// depends on timing (a host loop that stops on a result atomics raced to). From the first launch
// that differs from the profile (identity, or past its end) every launch is simulated in full
// detail; a group whose representative never ran borrows the projection of the group the method
// names (borrow()), and when that group never ran either, the launches simulated in detail from
// the departure on time it (their instruction-weighted CPI), counted apart in the summary.
//
// A launch-level method simulates at least one whole launch per group, so on a workload of a
// few thousand launches its sample is a few percent of the work whatever it selects (one GEMV
// over GPT-2's vocabulary is 2.3% of a decode). With `intra_launch` (set_intra_launch) a
// representative's detailed simulation ends once its IPC is stable, by PKA's rule and
// thresholds (ipc_stability.h), and the rest of the launch is projected at that IPC: the
// sample shrinks inside the launches a method could not avoid, at the projection's error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sampling/common/runners.h"
#include "sampling/method.h"
#include "sampling/profile/profile_file.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling {

/// A partition of a workload's launches into groups, each with its representatives.
struct LaunchPartition {
  std::vector<size_t> group;  ///< per launch, its group in [0, samples.size())
  /// Per group, the launches simulated in detail: at least one, in launch order.
  std::vector<std::vector<size_t>> samples;
};

/// A representative's measured run, from which its group's other launches are projected.
struct RepresentativeRun {
  size_t launch = 0;          ///< which launch it was
  uint64_t cycles = 0;        ///< its estimated cycles
  uint64_t instructions = 0;  ///< its wave instructions
};

/// Base of the profile-driven representative methods; see the file comment. Subclasses say how
/// launches are grouped (partition) and may change how a representative is simulated and how a
/// member is projected.
class RepresentativeMethod : public SamplingMethod {
 public:
  /// `name`: the method's registered name, in records and errors; `noun`: what it calls a group
  /// ("cluster", "stratum"), in the records' and the summary's keys.
  RepresentativeMethod(const MethodOptions& o, std::string name, std::string noun);

  /// One pass over a profile that needs nothing more; otherwise a first pass (the profiling
  /// pass, or with a profile the pass that observes each dispatch); then the sampled pass, and
  /// another each time revise() adds samples.
  int passes() const override { return first_passes() + sampled_rounds_; }
  runtime::DispatchRunner& runner(int pass) override;
  void end_pass(int pass) override;
  bool carries_passes() const override { return true; }
  /// The profiling pass's state is a functional profile file, as `strobe profile` writes.
  void save_passes(int pass, const std::string& path, const profile::WorkloadIdentity& w) const override;
  void restore_passes(int pass, const std::string& path, const profile::WorkloadIdentity& w) override;

 protected:
  /// Groups the profile's launches; called once the profile is known (constructor, end of the
  /// profiling pass, or restore_passes), and after observe() has seen every launch.
  virtual LaunchPartition partition(const profile::ProfileFile& f) = 0;
  /// Whether the method reads each launch's dispatch before it partitions (a signature computed
  /// from the launch's code and geometry, not only its profile). With a profile, a pass that
  /// calls observe() on every launch comes first; without one, the profiling pass does.
  virtual bool observes_dispatches() const { return false; }
  /// Launch `i`'s dispatch, with its profile record `rec` (from the file, or the profiling pass's
  /// own); `rec` may be extended with what the method recorded (the profiling pass's case).
  /// Called only when observes_dispatches().
  virtual void observe(const emu::Dispatch& d, timing::Gpu& gpu, size_t i, const profile::LaunchRecord& rec);
  /// The profiling pass's record of launch `d` (its results land in `mem`, its counts in
  /// `stats`). The default: the functional profile's columns.
  virtual profile::LaunchRecord profile_launch(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu,
                                               emu::DispatchStats& stats);
  /// Runs representative launch `i` in detail and returns its timing, cycles estimated and totals
  /// set; `rec` receives its level and detail. The default: the whole launch in detail.
  virtual std::shared_ptr<timing::LaunchTiming> simulate(const emu::Dispatch& d, emu::GlobalMemory& mem,
                                                         timing::Gpu& gpu, size_t i, runtime::SampledLaunch& rec);
  /// The cycles of member `launch`, with `instructions` wave instructions, projected from its
  /// group's representatives' `runs` (at least one). The default: their cycles per wave
  /// instruction (Σ cycles / Σ instructions) times the member's instructions.
  virtual double project(std::span<const RepresentativeRun> runs, size_t launch, uint64_t instructions) const;
  /// The group whose representatives' runs time group `g`, none of whose own ran because the run
  /// left the profiled sequence first; `ran[k]` says whether any of group k's did. nullopt: none
  /// fits.
  virtual std::optional<size_t> borrow(size_t g, const std::vector<bool>& ran) const = 0;
  /// Called when a sampled pass has ended with every group's runs in: may add launches to the
  /// groups' samples (never remove one) and return true, and the workload runs again; launches
  /// already simulated are not simulated again, their earlier runs stand. The default: false.
  virtual bool revise(LaunchPartition& partition);
  /// The runs of group `g`'s representatives so far, in launch order.
  const std::vector<RepresentativeRun>& runs(size_t g) const { return runs_[g]; }

  /// What every such method reports: the profile's source, launches, groups, representatives,
  /// instructions skipped by projection, and how the run kept to the profiled sequence.
  nlohmann::json base_summary() const;
  /// Ends each representative's detailed simulation at a stable IPC (see the file comment);
  /// set by a subclass from its parameters before any pass runs.
  void set_intra_launch(bool on) { intra_launch_ = on; }
  /// Whether the work the method predicts in `d` goes without emulation (skips_predicted).
  bool skips(const emu::Dispatch& d) const { return skips_predicted(o_, d); }
  /// Profiled wave and thread instructions of launch `i`.
  uint64_t profiled_wave_insts(size_t i) const { return wave_insts_[i]; }
  uint64_t profiled_thread_insts(size_t i) const { return thread_insts_[i]; }
  /// The partition in use.
  const LaunchPartition& groups() const { return partition_; }
  /// Line size a profile of the method's own counts requests at: the configured L1V line.
  uint32_t line_bytes() const { return uint32_t(o_.gpu.line_bytes); }

  MethodOptions o_;
  std::string name_, noun_;

 private:
  /// A launch whose group's representative had not run yet when it did.
  struct Pending {
    size_t launch = 0;
    uint64_t insts = 0;  ///< its wave instructions
    std::shared_ptr<timing::LaunchTiming> timing;
    std::shared_ptr<runtime::SampledLaunch> record;
  };

  void prepare(const profile::ProfileFile& f);
  /// Per-pass state from the partition: which launches are samples, what each group waits for.
  void start_round();
  /// Passes before the first sampled one (0 or 1).
  int first_passes() const { return o_.profile && !observes_dispatches() ? 0 : 1; }
  std::string source() const;
  runtime::LaunchResult run_profile(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu);
  runtime::LaunchResult run_observe(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu);
  runtime::LaunchResult run_sampled(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu);
  void complete(Pending& p, std::span<const RepresentativeRun> runs);
  /// Gives pending launch `p` the time `projected` (cycles), in its timing and its record.
  void set_time(Pending& p, double projected);
  void finish();

  FunctionRunner profile_pass_, observe_pass_, sampled_;
  std::vector<profile::LaunchRecord> profiled_;  ///< the profiling pass's records, until prepare()
  std::vector<profile::LaunchRecord> saved_;     ///< the same after prepare(), for save_passes()
  double profile_seconds_ = 0;                   ///< the profiling pass's launches, measured
  std::string state_file_;                       ///< the pass state the profile came from (empty: none)
  bool kernargs_comparable_ = true;              ///< whether the profile's kernarg hashes are this run's
  std::vector<profile::LaunchIdentity> ids_;
  std::vector<uint64_t> wave_insts_, thread_insts_;
  LaunchPartition partition_;
  bool prepared_ = false;  ///< whether a profile has been partitioned
  std::vector<bool> is_sample_;                        ///< per launch: whether it runs in detail
  std::vector<std::vector<RepresentativeRun>> runs_;   ///< per group, its representatives' runs so far
  std::vector<size_t> remaining_;                      ///< per group, representatives yet to run
  std::vector<std::vector<Pending>> pending_;
  size_t launch_ = 0;
  size_t observed_ = 0;      ///< launches the observing pass has seen
  int sampled_rounds_ = 1;   ///< sampled passes so far, this one included (revise() adds one)
  /// Launches simulated in an earlier sampled pass: their timing and record, reused.
  std::map<size_t, std::pair<std::shared_ptr<timing::LaunchTiming>, runtime::SampledLaunch>> simulated_;
  uint64_t projected_insts_ = 0;         ///< wave instructions of launches projected from another
  std::optional<std::string> diverged_;  ///< how the run left the profiled launch sequence
  size_t diverged_at_ = 0;               ///< the first launch outside it
  size_t borrowed_ = 0;                  ///< launches timed from another group's representatives
  size_t short_ = 0;                     ///< launches timed from part of their group's representatives
  /// Launches simulated in detail past the departure: what times launches whose group, and every
  /// group they could borrow from, never ran a representative.
  UnprofiledRuns unprofiled_;
  size_t from_unprofiled_ = 0;           ///< launches timed from them
  bool intra_launch_ = false;            ///< representatives end at a stable IPC
  size_t ipc_stopped_ = 0;               ///< representatives that did
};

}  // namespace strobe::sampling
