// The host-memory budget (see host_memory.h).
#include "common/host_memory.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "common/error.h"
#include "common/number_text.h"

namespace strobe {

namespace {

constexpr uint64_t kReserve = uint64_t{256} << 20;  ///< what device memory must leave the host

/// MemAvailable from /proc/meminfo in bytes, or 0 where it cannot be read.
uint64_t mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  uint64_t kib = 0;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

std::optional<uint64_t> read_override() {
  const char* v = std::getenv("STROBE_HOST_MEMORY_BYTES");
  if (!v || !*v) return std::nullopt;
  const std::optional<int64_t> n = parse_integer(v);
  if (!n || *n < 1)
    throw InputError(fmt::format("STROBE_HOST_MEMORY_BYTES '{}' is not a positive whole number of bytes", v));
  return uint64_t(*n);
}

}  // namespace

std::optional<uint64_t> host_memory_override() {
  static const std::optional<uint64_t> budget = read_override();
  return budget;
}

uint64_t host_memory_available() {
  if (const auto o = host_memory_override()) return *o;
  if (const uint64_t a = mem_available()) return a;
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? uint64_t(pages) * uint64_t(size) : UINT64_MAX;
}

std::string format_bytes(uint64_t bytes) {
  static const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(bytes);
  size_t u = 0;
  while (v >= 1024 && u + 1 < std::size(units)) v /= 1024, ++u;
  return u == 0 ? fmt::format("{} bytes", bytes) : fmt::format("{:.1f} {}", v, units[u]);
}

void check_host_bytes(std::string_view what, uint64_t bytes) {
  const uint64_t have = host_memory_available();
  if (bytes <= have) return;
  throw InputError(fmt::format("{} needs {} of host memory, more than the {} available (STROBE_HOST_MEMORY_BYTES "
                               "sets the budget)",
                               what, format_bytes(bytes), format_bytes(have)));
}

bool host_backing_allowed(uint64_t pages, uint64_t page_bytes) {
  if (const auto o = host_memory_override()) return pages * page_bytes <= *o;
  if (pages % 256 != 1) return true;
  const uint64_t a = mem_available();
  return a == 0 || a >= kReserve;  // unreadable: no guard, as before
}

void throw_host_backing(std::string_view what, uint64_t backed) {
  if (const auto o = host_memory_override())
    throw InputError(fmt::format("{}: backing it takes the device memory held in host memory to {}, past the {} "
                                 "budget (STROBE_HOST_MEMORY_BYTES)",
                                 what, format_bytes(backed), format_bytes(*o)));
  throw InputError(fmt::format("{}: backing it, with {} of device memory held in host memory, would leave the host "
                               "less than {} free",
                               what, format_bytes(backed), format_bytes(kReserve)));
}

}  // namespace strobe
