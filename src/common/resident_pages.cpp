// Residency from /proc/self/pagemap (see resident_pages.h).
#include "common/resident_pages.h"

#include <fcntl.h>
#include <unistd.h>

namespace strobe {

std::vector<bool> resident_pages(uint64_t addr, uint64_t bytes) {
  constexpr uint64_t kPage = 4096;
  const uint64_t first = addr / kPage, last = (addr + bytes + kPage - 1) / kPage;
  std::vector<bool> out(last - first, true);
  // Each page has a 64-bit entry: bit 63 present, bit 62 swapped (linux/Documentation/admin-guide/mm/pagemap.rst).
  const int fd = ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  constexpr uint64_t kPresent = uint64_t{1} << 63, kSwapped = uint64_t{1} << 62;
  uint64_t buf[4096];
  for (uint64_t p = first; p < last;) {
    const uint64_t n = std::min<uint64_t>(last - p, sizeof buf / sizeof buf[0]);
    const ssize_t got = ::pread(fd, buf, n * sizeof(uint64_t), off_t(p * sizeof(uint64_t)));
    if (got != ssize_t(n * sizeof(uint64_t))) break;  // the rest stays "may hold data"
    for (uint64_t i = 0; i < n; ++i) out[p - first + i] = (buf[i] & (kPresent | kSwapped)) != 0;
    p += n;
  }
  ::close(fd);
  return out;
}

}  // namespace strobe
