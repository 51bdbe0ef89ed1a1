// A capture that keeps only the checkpoints a selection needs. A sampling method replayed from a
// capture runs a few launches and predicts the rest, and a launch it predicts needs its history,
// dispatch and profile, never its pages; an iterative workload's capture is mostly the pages of
// launches no method runs. keep_launches() copies a capture with the pages of the chosen launches
// only (stored again, as deltas on the versions kept before them), and records what selection it
// serves; a replay that reaches a dropped page stops with an error naming the launch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "capture/capture_file.h"

namespace strobe::capture {

/// What keep_launches() wrote.
struct KeepResult {
  uint64_t launches = 0;   ///< in the capture
  uint64_t chosen = 0;     ///< launches asked to be kept
  uint64_t runnable = 0;   ///< launches whose every page is in the new file (the chosen, and any whose pages they share)
  uint64_t bytes_in = 0;   ///< the capture's size
  uint64_t bytes_out = 0;  ///< the new file's size
};

/// Writes to `output` (atomically) a copy of `cap` whose checkpoints are those of the launches
/// `keep` marks (one flag per launch); every other launch keeps its dispatch, history, code lines
/// and profile, and its pages that the kept ones do not share become kDroppedPage. `kept_for`
/// names the selection (CaptureIndex::kept_for). InputError for a flag vector of another length,
/// or a chosen launch whose checkpoint `cap` itself does not keep; NotImplementedError for a
/// frames capture or a host program's capture at its own addresses (whose pages a replay writes
/// whether the launch runs or not). The kept pages are compressed again on up to `threads` host
/// threads, each version a delta on its page's version in the previous kept launch.
KeepResult keep_launches(const CaptureFile& cap, const std::vector<bool>& keep, const std::string& kept_for,
                         const std::string& output, uint32_t threads);

}  // namespace strobe::capture
