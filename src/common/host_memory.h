// The host-memory budget: how much memory strobe may fill with a workload's data before it says
// so by name, instead of growing until the kernel's OOM killer ends the process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strobe {

/// STROBE_HOST_MEMORY_BYTES, when set: a fixed budget in bytes (read once per process).
/// InputError for a value that is not a positive whole number.
std::optional<uint64_t> host_memory_override();

/// The memory strobe may still fill: the override when set, else what the kernel reports
/// available now (MemAvailable), else the machine's physical memory.
uint64_t host_memory_available();

/// Throws InputError "WHAT needs N of host memory, more than the X available ..." when `bytes`
/// exceeds host_memory_available(); `what` names the thing (a parameter's value, a buffer).
void check_host_bytes(std::string_view what, uint64_t bytes);

/// Whether the `pages`-th page of `page_bytes` may be backed: under the override's budget when
/// one is set, else while the host keeps at least 256 MiB available, which is read from
/// /proc/meminfo at the first page and every 256th after it (cheap enough for every new page).
bool host_backing_allowed(uint64_t pages, uint64_t page_bytes);

/// Throws InputError naming `what` (a device buffer) as the data that would exhaust host memory
/// with `backed` bytes backed.
[[noreturn]] void throw_host_backing(std::string_view what, uint64_t backed);

/// `bytes` in the largest binary unit that keeps it at least 1 ("3.0 GiB").
std::string format_bytes(uint64_t bytes);

}  // namespace strobe
