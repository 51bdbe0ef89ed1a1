// Which 4 KiB pages of this process's memory hold data: a page never written since it was mapped
// reads as zero without being backed, so a scan for changed memory can skip it.
#pragma once

#include <cstdint>
#include <vector>

namespace strobe {

/// One flag per 4 KiB page of [addr rounded down, addr + bytes rounded up) of this process: true
/// when the page is in memory or swapped out (it may hold non-zero bytes), false when it was
/// never backed (it reads as zero). Every flag is true when the kernel's page map cannot be read,
/// so the answer errs on the side of "may hold data".
std::vector<bool> resident_pages(uint64_t addr, uint64_t bytes);

}  // namespace strobe
