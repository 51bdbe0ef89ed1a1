// Replaying a capture: any launch run alone from its checkpoint on a device, functionally, in
// detail or through a sampling method's runner. The launches that are not chosen are neither
// emulated nor simulated; a chosen launch's caches start from the configuration-free history of
// the launches before it (history.h), from the caches the previous replayed launch left, or cold.
// A host program's capture (HIP: memory at the program's own addresses) is replayed with its
// ranges placed at those addresses and its pages written when the launch is prepared.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "capture/capture_file.h"
#include "capture/history.h"
#include "common/error.h"
#include "isa/program.h"
#include "runtime/device.h"
#include "sampling/profile/profile_file.h"

namespace strobe::capture {

/// Distinct bytes of code lines a replay rebuilds the instruction caches from, beyond the data
/// history's window: far more than any instruction cache holds, far less than a workload's data.
inline constexpr uint64_t kCodeHistoryBytes = uint64_t{1} << 20;

/// The window `--warm-state fitted` walks on `cfg`: four times the distinct lines every data
/// cache holds together (L2, every L1V and scalar cache), in granules of `granule_bytes`.
uint64_t fitted_granules(const timing::GpuConfig& cfg, uint32_t granule_bytes);

/// The launch indices a list like "3,17,40-45" names, ascending and distinct; InputError naming
/// the list for a malformed item, a reversed range or an index at or past `count`.
std::vector<uint64_t> parse_launch_list(const std::string& list, uint64_t count);

/// Replays launches of one capture on one device (see the file comment).
class Replayer {
 public:
  /// `dev` is fresh (nothing loaded or launched yet) and outlives the replayer.
  Replayer(const CaptureFile& cap, runtime::Device& dev);

  /// Makes launch `i`'s memory what it was when captured: the allocation map, the next
  /// allocation's address and every page of its checkpoint, each fetched from the capture when
  /// first touched (a launch a sampling method only predicts costs no page). With
  /// `fresh_memory`, the device's memory is first emptied, so nothing but the checkpoint reaches
  /// the launch.
  void prepare(uint64_t i, bool fresh_memory = false);
  /// Warms the device's caches with the histories of launches [from, to), newest first up to the
  /// capture's history bound (or `max_granules` distinct granules, if fewer and not 0), applied
  /// oldest first (history.h). Nothing without the timing model. InputError if the configured
  /// line is smaller than the capture's granule.
  void warm(uint64_t from, uint64_t to, uint64_t max_granules = 0);
  /// The window `--warm-state fitted` walks: four times the distinct lines every data cache of
  /// `cfg` holds together (L2, every L1V and scalar cache), in the capture's granules.
  uint64_t fitted_granules(const timing::GpuConfig& cfg) const;
  /// Runs launch `i` (after prepare(i)) on the device as it is set up. A launch that did not run
  /// (a sampling method predicted it) reports the captured run's counters.
  runtime::LaunchResult run(uint64_t i);
  /// True if the pages launch `i` wrote (just run) hold what they held when captured.
  bool verify(uint64_t i);
  /// The dispatch of launch `i`, as the captured run made it.
  emu::Dispatch dispatch(uint64_t i);

  /// The launches whose checkpoints this replay read, ascending: those run() ran any work-group
  /// of, and those during which a page was fetched (a predicted launch whose kernel arguments were
  /// read): what a capture must keep for the same replay to run from it (keep.h).
  std::vector<uint64_t> checkpoints_read() const;
  /// Seconds spent restoring pages and warming caches so far.
  double restore_seconds() const { return restore_seconds_; }
  double warm_seconds() const { return warm_seconds_; }

 private:
  runtime::Module& module(uint32_t code_object);
  /// Code object `i`'s program, for code kept as loaded (CodeObjectRecord::loaded), decoded once.
  const isa::Program& loaded_program(uint32_t i);
  const CaptureFile& cap_;
  runtime::Device& dev_;
  /// Makes the device's memory fetch checkpoint pages from the capture on first touch.
  void install_page_source();
  /// Launch `i`'s code lines (decoded once per distinct set).
  const std::vector<HistoryEntry>& code_lines(uint64_t i);
  std::unordered_map<uint32_t, std::vector<HistoryEntry>> code_;  // code blob -> its lines
  std::vector<runtime::Module*> modules_;            // per code object, adopted on first use
  std::vector<std::unique_ptr<isa::Program>> programs_;  // per loaded code object, decoded on first use
  std::unordered_map<uint64_t, uint32_t> current_;    // page -> checkpoint blob it holds, or will hold when touched
  std::unordered_map<uint64_t, uint32_t> pending_;    // page -> blob it gets when first touched
  const emu::GlobalMemory* sourced_ = nullptr;        // the memory the page source is installed on
  double restore_seconds_ = 0, warm_seconds_ = 0;
  // Per launch: it ran work; a page was fetched while it was the launch prepared (on any thread).
  std::unique_ptr<std::atomic<bool>[]> ran_, fetched_;
  uint64_t preparing_ = 0;  // the launch last prepared: the one a dropped page's first touch is for
  /// The error of launch `i` reaching a page its capture does not keep (CaptureIndex::kept_for).
  InputError dropped(uint64_t i) const;
};

/// The capture's functional profile for a sampling method on a GPU whose L1 lines are
/// `line_bytes` (its requests are counted at the capture's granule, so another line size is
/// refused by an InputError saying how to capture for it), decoded at `detail`; null for a
/// capture without one.
std::shared_ptr<const sampling::profile::ProfileFile> method_profile(const CaptureFile& cap, uint32_t line_bytes,
                                                                     sampling::profile::ProfileDetail detail);

/// Refuses a benchmark capture whose code objects differ from this build's kernel files, or
/// whose benchmark this build does not have (an InputError naming the file and the kernel file):
/// its results would be another definition's. `kernel_dir` holds this build's workload kernels.
void check_definition(const CaptureFile& cap, const std::string& kernel_dir);

}  // namespace strobe::capture
