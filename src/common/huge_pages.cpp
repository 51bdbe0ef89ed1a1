// Re-executing with glibc's huge-page tunable (see huge_pages.h).
#include "common/huge_pages.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace strobe {

std::optional<std::string> huge_page_tunables(const char* opt, const char* tunables, std::string_view thp_mode) {
  if (opt && std::string_view(opt) == "0") return std::nullopt;
  const std::string set = tunables ? tunables : "";
  // Set already (by us, before this exec, or by the user): never a second exec.
  if (set.find("glibc.malloc.hugetlb") != std::string::npos) return std::nullopt;
  // "always" backs every large mapping already; "never" refuses what madvise would ask.
  if (thp_mode.find("[madvise]") == std::string_view::npos) return std::nullopt;
  return (set.empty() ? "" : set + ":") + "glibc.malloc.hugetlb=1";
}

void use_huge_page_heap(char** argv) {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  if (!std::getline(mode, line)) return;
  const std::optional<std::string> value = huge_page_tunables(std::getenv("STROBE_HUGE_PAGES"), tunables, line);
  if (!value) return;
  // The program's own path, not /proc/self/exe, so that it keeps its name in ps and top.
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return;
  self[n] = '\0';
  const std::string before = tunables ? tunables : "";
  if (::setenv("GLIBC_TUNABLES", value->c_str(), 1) != 0) return;
  ::execv(self, argv);
  // The exec failed (no /proc, a binary replaced since it started): run on as we are, the
  // environment as it was.
  if (tunables) ::setenv("GLIBC_TUNABLES", before.c_str(), 1);
  else ::unsetenv("GLIBC_TUNABLES");
}

}  // namespace strobe
