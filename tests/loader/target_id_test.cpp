// Target IDs parse by AMDGPUUsage's rules: arch-vendor-os-environment-processor then features.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "loader/code_object.h"
#include "loader/format_error.h"
#include "loader/gfx_target.h"
#include "loader/loader_test_support.h"

namespace strobe::loader {
namespace {

/// The FormatError message of parsing and checking `text`, or "" when it is accepted.
std::string rejection(std::string_view text) {
  try {
    check_target_id(parse_target_id(text), text);
  } catch (const detail::FormatError& e) {
    return e.what();
  }
  return "";
}

TEST(TargetId, EmptyEnvironmentSplitsIntoFiveFields) {
  const TargetId id = parse_target_id("amdgcn-amd-amdhsa--gfx803");
  EXPECT_EQ(id.arch, "amdgcn");
  EXPECT_EQ(id.vendor, "amd");
  EXPECT_EQ(id.os, "amdhsa");
  EXPECT_EQ(id.environment, "");
  EXPECT_EQ(id.processor, "gfx803");
  EXPECT_TRUE(id.features.empty());
  EXPECT_EQ(rejection("amdgcn-amd-amdhsa--gfx803"), "");
}

TEST(TargetId, OpenClEnvironmentIsAccepted) {
  const TargetId id = parse_target_id("amdgcn-amd-amdhsa-amdgizcl-gfx803");
  EXPECT_EQ(id.environment, "amdgizcl");
  EXPECT_EQ(id.processor, "gfx803");
  EXPECT_EQ(rejection("amdgcn-amd-amdhsa-amdgizcl-gfx803"), "");
  EXPECT_EQ(rejection("amdgcn-amd-amdhsa-amdgiz-gfx803"), "");
}

TEST(TargetId, ColonFeaturesCarryTheirSign) {
  const TargetId id = parse_target_id("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-");
  EXPECT_EQ(id.processor, "gfx90a");
  ASSERT_EQ(id.features.size(), 2u);
  EXPECT_EQ(id.features[0].name, "sramecc");
  EXPECT_TRUE(id.features[0].enabled);
  EXPECT_EQ(id.features[1].name, "xnack");
  EXPECT_FALSE(id.features[1].enabled);
}

TEST(TargetId, BareProcessorWithFeatureOff) {
  const TargetId id = parse_target_id("gfx803:xnack-");
  EXPECT_EQ(id.arch, "");
  EXPECT_EQ(id.processor, "gfx803");
  ASSERT_EQ(id.features.size(), 1u);
  EXPECT_EQ(rejection("gfx803:xnack-"), "");
}

TEST(TargetId, LegacyPlusFeatureMeansOn) {
  const TargetId id = parse_target_id("amdgcn-amd-amdhsa--gfx803+xnack");
  ASSERT_EQ(id.features.size(), 1u);
  EXPECT_EQ(id.features[0].name, "xnack");
  EXPECT_TRUE(id.features[0].enabled);
  EXPECT_EQ(rejection("amdgcn-amd-amdhsa--gfx803+xnack"),
            "code object built for amdgcn-amd-amdhsa--gfx803+xnack: feature xnack+ is on, which gfx803 does not have; "
            "strobe simulates gfx803 without it");
}

TEST(TargetId, WrongProcessorIsNamed) {
  EXPECT_EQ(rejection("amdgcn-amd-amdhsa--gfx906"), "code object built for gfx906; strobe simulates gfx803");
  EXPECT_EQ(rejection("amdgcn-amd-amdhsa-amdgizcl-gfx900"), "code object built for gfx900; strobe simulates gfx803");
  EXPECT_EQ(rejection("gfx1030:xnack-"), "code object built for gfx1030; strobe simulates gfx803");
}

/// The FormatError message of checking `text` for a reader that also takes decodable code.
std::string decodable_rejection(std::string_view text) {
  try {
    check_target_id(parse_target_id(text), text, Accept::Decodable);
  } catch (const detail::FormatError& e) {
    return e.what();
  }
  return "";
}

TEST(TargetId, Gfx942IsDecodableWithEitherXnackOrSrameccButNotExecutable) {
  EXPECT_EQ(decodable_rejection("amdgcn-amd-amdhsa--gfx942"), "");
  EXPECT_EQ(decodable_rejection("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"), "");
  EXPECT_EQ(decodable_rejection("amdgcn-amd-amdhsa--gfx942:xnack+"), "");
  EXPECT_EQ(decodable_rejection("amdgcn-amd-amdhsa--gfx942:tgsplit+"),
            "code object built for amdgcn-amd-amdhsa--gfx942:tgsplit+: gfx942 has no target feature 'tgsplit' (only "
            "xnack and sramecc)");
  EXPECT_EQ(decodable_rejection("amdgcn-amd-amdhsa--gfx90a"), "code object built for gfx90a; strobe decodes gfx803 and gfx942");
  // gfx803 keeps its rules when decodable code is admitted too.
  EXPECT_EQ(decodable_rejection("amdgcn-amd-amdhsa--gfx803:xnack-"), "");
  EXPECT_NE(decodable_rejection("amdgcn-amd-amdhsa--gfx803:xnack+"), "");
  // Code strobe runs must be gfx803: the error names both processors.
  EXPECT_EQ(rejection("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"), "code object built for gfx942; strobe simulates gfx803");
}

TEST(TargetId, Gfx942CodeObjectLoadsForDecodingOnly) {
  const auto path = testing::build_object("gfx942-kernels/tests/vecadd.hsaco");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no clang-19 build: " << path;
  const CodeObject co = CodeObject::load(path.string(), Accept::Decodable);
  EXPECT_EQ(co.processor(), "gfx942");
  EXPECT_EQ(co.version(), 5);
  EXPECT_EQ(co.kernel("vecadd").name, "vecadd");
  try {
    (void)CodeObject::load(path.string());
    ADD_FAILURE() << "a gfx942 code object loaded for execution";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("code object built for gfx942; strobe simulates gfx803"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(CodeObject::load(testing::build_object("kernels/tests/vecadd.hsaco").string()).processor(), "gfx803");
}

TEST(TargetId, WrongTripleFieldsAreNamed) {
  EXPECT_NE(rejection("r600-amd-amdhsa--gfx803").find("architecture 'r600' is not amdgcn"), std::string::npos);
  EXPECT_NE(rejection("amdgcn-amd-amdpal--gfx803").find("OS 'amdpal' is not amdhsa"), std::string::npos);
  EXPECT_NE(rejection("amdgcn-foo-amdhsa--gfx803").find("vendor 'foo' is not amd"), std::string::npos);
}

TEST(TargetId, GarbageIsRejectedWithTheReason) {
  EXPECT_NE(rejection("").find("'' is not an AMDGPU processor name"), std::string::npos);
  EXPECT_NE(rejection("hello").find("'hello' is not an AMDGPU processor name"), std::string::npos);
  EXPECT_NE(rejection("amdgcn-amd-amdhsa-gfx803").find("has 4 '-'-separated fields, not 5"), std::string::npos);
  EXPECT_NE(rejection("amdgcn-amd-amdhsa-x-y-gfx803").find("has 6 '-'-separated fields"), std::string::npos);
  EXPECT_NE(rejection("amdgcn-amd-amdhsa--gfx803:xnack").find("feature 'xnack' is not a name followed by + or -"),
            std::string::npos);
  EXPECT_NE(rejection("amdgcn-amd-amdhsa--gfx803:").find("feature '' is not"), std::string::npos);
  EXPECT_NE(rejection("amdgcn-amd-amdhsa--gfxzz").find("'gfxzz' is not an AMDGPU processor name"), std::string::npos);
  EXPECT_NE(rejection("--amdhsa--gfx803").find("leaves the architecture, vendor or OS empty"), std::string::npos);
}

// Regression: ROCm's and AMDGPU-PRO's OpenCL compilers write "amdgcn-amd-amdhsa-amdgizcl-gfx803"
// into v2 code objects, which strobe refused as "code object built for amdgcn-amd-amdhsa-amdgizcl-gfx803".
TEST(TargetId, RegressionV2ObjectWithAmdgizclEnvironmentLoads) {
  const auto path = testing::build_object("kernels-amdgizcl/vecadd.hsaco");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "clang-15 or the ROCm device libraries are not installed";
  const CodeObject co = CodeObject::load(path.string());
  EXPECT_EQ(co.version(), 2);
  EXPECT_EQ(co.target(), "amdgcn-amd-amdhsa-amdgizcl-gfx803");
  EXPECT_EQ(co.kernel("vecadd").name, "vecadd");
}

}  // namespace
}  // namespace strobe::loader
