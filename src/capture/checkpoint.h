// What a capture and its replay both compute from a launch's checkpoint.
#pragma once

#include <cstdint>
#include <vector>

#include "capture/capture_file.h"
#include "emu/memory.h"

namespace strobe::capture {

/// XXH3-64 over the written pages of `pages` (addresses and whole contents, in order) as they
/// are in `mem`: LaunchRecord::written_digest after the captured launch, and after a replay.
uint64_t written_digest(const emu::GlobalMemory& mem, const std::vector<PageRef>& pages);

}  // namespace strobe::capture
