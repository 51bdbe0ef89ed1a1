// Capturing a workload: a functional runner that executes every launch of a device as the
// emulator would (same memory, same counters, on host threads where the emulator may use them)
// and records, per launch, its dispatch, the allocation map, the checkpoint of every page it
// touches as the page was before the launch, a digest of the pages it wrote, its history
// (history.h) and its functional profile (sampling/profile/profile_file.h), all from one walk of
// its instructions. Pages the host or a launch changed are stored before the next launch starts,
// content-addressed, so each distinct page content is written once. A host program whose memory
// is its own (HIP) writes it unseen: its changed pages are found by content before each launch.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "capture/capture_file.h"
#include "runtime/device.h"
#include "sampling/common/program_tables.h"
#include "sampling/profile/profile_file.h"

namespace strobe::capture {

/// How a capture records.
struct RecorderOptions {
  /// The history's line size: a replay may simulate any line size at least this large.
  uint32_t granule_bytes = 64;
  /// Distinct bytes of history a replay rebuilds warm state from (at least twice the largest L2
  /// of the presets).
  uint64_t history_bytes = kDefaultHistoryBytes;
  /// Also save every launch's GPUMech trace (about 13 bytes per wave instruction) in its
  /// profile, its representative wave chosen on `gpumech_config` (`strobe profile --gpumech`):
  /// GPUMech and SimProf's GPUMech proxy then run from the capture without tracing.
  bool gpumech = false;
  timing::GpuConfig gpumech_config;
};

/// Records every launch of one device into a capture (see the file comment).
class Recorder final : public runtime::FunctionalRunner {
 public:
  /// Records `dev`'s launches into `writer`; installs itself on the device's memory (its host
  /// writes) and as its functional runner, until destroyed.
  Recorder(runtime::Device& dev, CaptureWriter& writer, RecorderOptions o = {});
  ~Recorder() override;
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  emu::DispatchStats run(const emu::Dispatch& d, emu::GlobalMemory& mem, uint32_t threads) override;

  /// What was recorded so far: code objects, allocation maps and launches (no blob table: the
  /// writer adds it).
  CaptureIndex& index() { return index_; }
  /// Every launch's functional profile so far, its requests counted at the granule's lines (the
  /// caller names the workload and stores it: CaptureIndex::profile).
  sampling::profile::ProfileFile& profile() { return profile_; }

 private:
  /// Stores every page changed since the last launch (by the host or a launch) and notes its
  /// content's blob, compressing on up to `threads` host threads.
  void store_dirty_pages(emu::GlobalMemory& mem, uint32_t threads);
  /// The index of the code object `d` runs from, stored on first use.
  uint32_t code_object_of(const emu::Dispatch& d, const emu::GlobalMemory& mem);
  /// The index of the loaded code `d` runs from, for code no module holds (a host program's
  /// runtime loaded it: CodeObjectRecord::loaded), stored on first use.
  uint32_t loaded_code_of(const emu::Dispatch& d, const emu::GlobalMemory& mem);
  /// Host addressing: marks dirty every page whose content changed since it was last stored (the
  /// program writes its memory directly, unseen), by comparing each mapped page's hash.
  void find_host_changes(const emu::GlobalMemory& mem);
  /// The index of the current allocation map (the last one when unchanged).
  uint32_t allocation_map(const emu::GlobalMemory& mem);

  runtime::Device& dev_;
  CaptureWriter& writer_;
  RecorderOptions opt_;
  CaptureIndex index_;
  /// Instruction classes for PKA's counts (the types are the ISA's; any configuration's will do).
  sampling::ProgramTableCache tables_{timing::GpuConfig{}};
  sampling::profile::ProfileFile profile_;
  std::vector<const runtime::Module*> modules_;         // code object i's module (nullptr: loaded code)
  std::unordered_map<uint64_t, uint64_t> host_hash_;    // host addressing: page -> hash of its last stored content
  std::unordered_map<uint64_t, uint32_t> page_blob_;    // page address -> content blob (absent: zero)
  /// Page address -> the bytes of its content blob, which its next version is stored as a delta
  /// against (CaptureWriter::put_all); kept for up to kShadowBytes of pages, first stored first.
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> shadow_;
  static constexpr uint64_t kShadowBytes = uint64_t{2} << 30;
  std::set<uint64_t> dirty_;                            // pages changed since they were stored
  std::map<std::string, size_t> lines_of_;              // distinct lines of each kernel's last launch
};

}  // namespace strobe::capture
