// When strobe re-executes itself with glibc's huge-page heap, and with what environment.
#include "common/huge_pages.h"

#include <gtest/gtest.h>

namespace strobe {
namespace {

TEST(HugePages, OnlyAKernelLeavingHugePagesToTheProgramGetsTheTunable) {
  EXPECT_EQ(huge_page_tunables(nullptr, nullptr, "always [madvise] never"), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(huge_page_tunables(nullptr, nullptr, "[always] madvise never"), std::nullopt) << "every mapping has them";
  EXPECT_EQ(huge_page_tunables(nullptr, nullptr, "always madvise [never]"), std::nullopt) << "none may have them";
  EXPECT_EQ(huge_page_tunables(nullptr, nullptr, ""), std::nullopt);
}

TEST(HugePages, OtherTunablesAreKeptAndAChosenHugePageSettingIsNeverOverridden) {
  EXPECT_EQ(huge_page_tunables(nullptr, "glibc.malloc.arena_max=2", "always [madvise] never"),
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  // The re-executed process sees its own setting: this is what keeps it from executing again.
  EXPECT_EQ(huge_page_tunables(nullptr, "glibc.malloc.hugetlb=1", "always [madvise] never"), std::nullopt);
  EXPECT_EQ(huge_page_tunables(nullptr, "glibc.malloc.hugetlb=0", "always [madvise] never"), std::nullopt);
}

TEST(HugePages, StrobeHugePagesZeroTurnsItOff) {
  EXPECT_EQ(huge_page_tunables("0", nullptr, "always [madvise] never"), std::nullopt);
  EXPECT_EQ(huge_page_tunables("1", nullptr, "always [madvise] never"), "glibc.malloc.hugetlb=1");
}

}  // namespace
}  // namespace strobe
