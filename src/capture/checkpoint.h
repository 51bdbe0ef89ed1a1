// What a capture and its replay both compute from a launch's checkpoint.
#pragma once

#include <cstdint>
#include <vector>

#include "capture/capture_file.h"
#include "capture/history.h"
#include "emu/memory.h"

namespace strobe::capture {

/// XXH3-64 over the lines the launch wrote (`written`: granule numbers at `granule_bytes`,
/// ascending) within the written pages of `pages`, each line's address and bytes as they are in
/// `mem`: LaunchRecord::written_digest after the captured launch, and after a replay. Lines,
/// not whole pages: a host program's page may hold other data its other threads write while the
/// launch runs (a heap page shared with a buffer HIP pinned), which is not the launch's.
uint64_t written_digest(const emu::GlobalMemory& mem, const std::vector<PageRef>& pages,
                        const std::vector<uint64_t>& written, uint32_t granule_bytes);

/// The granules `entries` (one launch's history) wrote or updated atomically, ascending and
/// distinct: what written_digest() hashes.
std::vector<uint64_t> written_granules(const std::vector<HistoryEntry>& entries);

}  // namespace strobe::capture
