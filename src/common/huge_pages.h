// Backing strobe's heap with transparent huge pages, where the kernel leaves them to the
// program (madvise mode). A sampled run fills hundreds of megabytes once (a capture's index, its
// functional profile, each warm-state rebuild), and on a machine whose page faults are slow
// (virtualised ones) first-touch faults were a third of it; huge pages take 512 fewer.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace strobe {

/// At the start of main: when the kernel's THP mode is "madvise" and GLIBC_TUNABLES does not
/// already say how glibc's malloc uses huge pages, re-executes this program once (the same
/// binary and arguments) with glibc.malloc.hugetlb=1 added, the one way glibc takes it.
/// STROBE_HUGE_PAGES=0 leaves the heap as it is. Returns (doing nothing) when any step fails.
void use_huge_page_heap(char** argv);

/// The GLIBC_TUNABLES value use_huge_page_heap() re-executes with, or nullopt where it leaves
/// the process alone, from STROBE_HUGE_PAGES (`opt`), GLIBC_TUNABLES (`tunables`; null when
/// unset) and the kernel's THP mode line (`thp_mode`, "always [madvise] never").
std::optional<std::string> huge_page_tunables(const char* opt, const char* tunables, std::string_view thp_mode);

}  // namespace strobe
