// The argument metadata of kernels/loader/args.cl, which passes an argument of every kind,
// checked against the layout OpenCL C prescribes, in every code object version.
#include <gtest/gtest.h>

#include <filesystem>

#include "loader/code_object.h"
#include "loader/loader_test_support.h"

namespace strobe::loader {
namespace {

using namespace testing;

struct Expected {
  uint32_t offset, size;
  ArgKind kind;
  const char* type_name;
  const char* address_space;
};

// many_args(char, short, int, long, float, double, loader_pair, global float*, constant int*,
//           local float*, uchar2, float4, global const uint*)
const Expected kManyArgs[] = {
    {0, 1, ArgKind::ByValue, "char", ""},
    {2, 2, ArgKind::ByValue, "short", ""},
    {4, 4, ArgKind::ByValue, "int", ""},
    {8, 8, ArgKind::ByValue, "long", ""},
    {16, 4, ArgKind::ByValue, "float", ""},
    {24, 8, ArgKind::ByValue, "double", ""},
    {32, 24, ArgKind::ByValue, "loader_pair", ""},
    {56, 8, ArgKind::GlobalBuffer, "float*", "global"},
    {64, 8, ArgKind::GlobalBuffer, "int*", "constant"},
    {72, 4, ArgKind::DynamicSharedPointer, "float*", "local"},
    {76, 2, ArgKind::ByValue, "uchar2", ""},
    {80, 16, ArgKind::ByValue, "float4", ""},
    {96, 8, ArgKind::GlobalBuffer, "uint*", "global"},
};

const Expected kTwoLocals[] = {
    {0, 4, ArgKind::DynamicSharedPointer, "int*", "local"},
    {4, 4, ArgKind::DynamicSharedPointer, "int*", "local"},
    {8, 8, ArgKind::GlobalBuffer, "int*", "global"},
    {16, 4, ArgKind::ByValue, "uint", ""},
};

template <size_t N>
void expect_visible_args(const KernelInfo& k, const Expected (&want)[N]) {
  ASSERT_GT(k.args.size(), N);
  for (size_t i = 0; i < N; ++i) {
    SCOPED_TRACE("argument " + std::to_string(i));
    EXPECT_EQ(k.args[i].offset, want[i].offset);
    EXPECT_EQ(k.args[i].size, want[i].size);
    EXPECT_EQ(k.args[i].kind, want[i].kind);
    EXPECT_EQ(k.args[i].type_name, want[i].type_name);
    EXPECT_EQ(k.args[i].address_space, want[i].address_space);
    EXPECT_FALSE(k.args[i].is_hidden());
  }
  for (size_t i = N; i < k.args.size(); ++i) EXPECT_TRUE(k.args[i].is_hidden()) << i;
}

/// Hidden arguments of v2-v4 objects: offsets x/y/z, three hidden_none, then the multigrid
/// argument (clang-14, the v2/v3 fixtures) or a fourth hidden_none (clang-15, which records
/// multigrid only for kernels that use it).
void expect_v4_hidden(const KernelInfo& k, uint32_t first, ArgKind last_kind) {
  const ArgKind kinds[] = {ArgKind::HiddenGlobalOffsetX, ArgKind::HiddenGlobalOffsetY, ArgKind::HiddenGlobalOffsetZ,
                           ArgKind::HiddenNone, ArgKind::HiddenNone, ArgKind::HiddenNone, last_kind};
  ASSERT_EQ(k.args.size(), first + 7);
  for (uint32_t i = 0; i < 7; ++i) {
    EXPECT_EQ(k.args[first + i].kind, kinds[i]) << i;
    EXPECT_EQ(k.args[first + i].size, 8u);
  }
  // Hidden arguments start 8-aligned right after the last visible one.
  const KernelArg& last = k.args[first - 1];
  EXPECT_EQ(k.args[first].offset, (last.offset + last.size + 7) / 8 * 8);
  EXPECT_EQ(k.kernarg_segment_size, k.args.back().offset + 8);
}

void check_object(const CodeObject& co, ArgKind last_hidden) {
  ASSERT_EQ(co.kernels().size(), 2u);
  const KernelInfo& many = co.kernel("many_args");
  const KernelInfo& two = co.kernel("two_locals");
  expect_visible_args(many, kManyArgs);
  expect_visible_args(two, kTwoLocals);
  expect_v4_hidden(many, 13, last_hidden);
  expect_v4_hidden(two, 4, last_hidden);
  EXPECT_EQ(many.kernarg_segment_size, 160u);
  EXPECT_EQ(two.kernarg_segment_size, 80u);
  EXPECT_EQ(many.kernarg_segment_align, 16u);  // float4
  EXPECT_EQ(two.kernarg_segment_align, 8u);
}

TEST(ArgsMetadata, CodeObjectV2ComputesOffsetsFromSizeAndAlign) {
  const CodeObject co = CodeObject::load(fixture("args-v2.hsaco").string());
  EXPECT_EQ(co.version(), 2);
  EXPECT_EQ(co.kernel("many_args").args[0].value_kind, "ByValue");  // the raw v2 spelling is kept
  EXPECT_EQ(co.kernel("many_args").args.back().value_kind, "HiddenMultiGridSyncArg");
  check_object(co, ArgKind::HiddenMultigridSyncArg);
}

TEST(ArgsMetadata, CodeObjectV3) {
  const CodeObject co = CodeObject::load(fixture("args-v3.hsaco").string());
  EXPECT_EQ(co.version(), 3);
  check_object(co, ArgKind::HiddenMultigridSyncArg);
}

TEST(ArgsMetadata, CodeObjectV4) {
  const CodeObject co = CodeObject::load(build_object("kernels/loader/args.hsaco").string());
  EXPECT_EQ(co.version(), 4);
  EXPECT_EQ(co.kernel("many_args").args[0].value_kind, "by_value");
  check_object(co, ArgKind::HiddenNone);
}

TEST(ArgsMetadata, CodeObjectV5HasTheNewHiddenArguments) {
  if (!have_clang19_objects()) GTEST_SKIP() << "no clang-19 build (build-*/kernels-clang19 is empty): v5 untested";
  const CodeObject co = CodeObject::load(build_object("kernels-clang19/loader/args.hsaco").string());
  EXPECT_EQ(co.version(), 5);
  const KernelInfo& many = co.kernel("many_args");
  expect_visible_args(many, kManyArgs);
  expect_visible_args(co.kernel("two_locals"), kTwoLocals);
  // The v5 implicit argument block is fixed relative to its start, which follows the last visible argument.
  struct Hidden { ArgKind kind; uint32_t rel, size; };
  const Hidden want[] = {
      {ArgKind::HiddenBlockCountX, 0, 4},  {ArgKind::HiddenBlockCountY, 4, 4},   {ArgKind::HiddenBlockCountZ, 8, 4},
      {ArgKind::HiddenGroupSizeX, 12, 2},  {ArgKind::HiddenGroupSizeY, 14, 2},   {ArgKind::HiddenGroupSizeZ, 16, 2},
      {ArgKind::HiddenRemainderX, 18, 2},  {ArgKind::HiddenRemainderY, 20, 2},   {ArgKind::HiddenRemainderZ, 22, 2},
      {ArgKind::HiddenGlobalOffsetX, 40, 8}, {ArgKind::HiddenGlobalOffsetY, 48, 8}, {ArgKind::HiddenGlobalOffsetZ, 56, 8},
      {ArgKind::HiddenGridDims, 64, 2},    {ArgKind::HiddenDynamicLdsSize, 120, 4},
      {ArgKind::HiddenPrivateBase, 192, 4}, {ArgKind::HiddenSharedBase, 196, 4},
  };
  ASSERT_EQ(many.args.size(), 13 + std::size(want));
  const uint32_t base = many.args[13].offset;
  EXPECT_EQ(base, 104u);
  for (size_t i = 0; i < std::size(want); ++i) {
    const KernelArg& a = many.args[13 + i];
    EXPECT_EQ(a.kind, want[i].kind) << a.value_kind;
    EXPECT_EQ(a.offset, base + want[i].rel) << a.value_kind;
    EXPECT_EQ(a.size, want[i].size) << a.value_kind;
  }
  EXPECT_EQ(many.kernarg_segment_size, base + 256);  // v5 reserves a 256-byte implicit block
}

TEST(ArgsMetadata, KernelDescriptorOfV2MatchesV3ForTheSameSource) {
  // v2 and v3 of one source differ only in the container: the decoded register setup must agree.
  const CodeObject v2 = CodeObject::load(fixture("args-v2.hsaco").string());
  const CodeObject v3 = CodeObject::load(fixture("args-v3.hsaco").string());
  for (const char* name : {"many_args", "two_locals"}) {
    SCOPED_TRACE(name);
    const KernelInfo& a = v2.kernel(name);
    const KernelInfo& b = v3.kernel(name);
    EXPECT_EQ(a.kd.compute_pgm_rsrc1, b.kd.compute_pgm_rsrc1);
    EXPECT_EQ(a.kd.compute_pgm_rsrc2, b.kd.compute_pgm_rsrc2);
    EXPECT_EQ(a.kd.kernel_code_properties, b.kd.kernel_code_properties);
    EXPECT_EQ(a.kd.kernarg_size, b.kd.kernarg_size);
    EXPECT_EQ(a.kd.group_segment_fixed_size, b.kd.group_segment_fixed_size);
    EXPECT_EQ(a.kd.private_segment_fixed_size, b.kd.private_segment_fixed_size);
    EXPECT_EQ(a.sgpr_count, b.sgpr_count);
    EXPECT_EQ(a.vgpr_count, b.vgpr_count);
    EXPECT_EQ(a.code_size, b.code_size);
    EXPECT_TRUE(std::ranges::equal(v2.code(a), v3.code(b)));
  }
}

TEST(ArgsMetadata, EveryV2ObjectAgreesWithItsV3Twin) {
  namespace fs = std::filesystem;
  const fs::path v2_dir = fs::path(STROBE_BUILD_DIR) / "kernels-v2";
  int compared = 0;
  for (const auto& f : fs::directory_iterator(v2_dir)) {
    const fs::path twin = fs::path(STROBE_BUILD_DIR) / "kernels-v3" / f.path().filename();
    if (f.path().extension() != ".hsaco" || !fs::exists(twin)) continue;
    SCOPED_TRACE(f.path().filename().string());
    const CodeObject a = CodeObject::load(f.path().string());
    const CodeObject b = CodeObject::load(twin.string());
    ASSERT_EQ(a.kernels().size(), b.kernels().size());
    for (size_t i = 0; i < a.kernels().size(); ++i) {
      const KernelInfo& ka = a.kernels()[i];
      const KernelInfo& kb = b.kernel(ka.name);
      EXPECT_EQ(ka.kd.compute_pgm_rsrc1, kb.kd.compute_pgm_rsrc1) << ka.name;
      EXPECT_EQ(ka.kd.compute_pgm_rsrc2, kb.kd.compute_pgm_rsrc2) << ka.name;
      EXPECT_EQ(ka.kd.kernel_code_properties, kb.kd.kernel_code_properties) << ka.name;
      EXPECT_EQ(ka.kernarg_segment_size, kb.kernarg_segment_size) << ka.name;
      ASSERT_EQ(ka.args.size(), kb.args.size()) << ka.name;
      for (size_t j = 0; j < ka.args.size(); ++j) {
        EXPECT_EQ(ka.args[j].offset, kb.args[j].offset) << ka.name << " arg " << j;
        EXPECT_EQ(ka.args[j].size, kb.args[j].size) << ka.name << " arg " << j;
        EXPECT_EQ(ka.args[j].kind, kb.args[j].kind) << ka.name << " arg " << j;
        EXPECT_EQ(ka.args[j].address_space, kb.args[j].address_space) << ka.name << " arg " << j;
      }
    }
    ++compared;
  }
  EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace strobe::loader
