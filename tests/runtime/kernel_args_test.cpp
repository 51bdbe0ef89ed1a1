// Kernarg layout and group-memory sizing of a launch, on hand-made kernel descriptions.
#include <gtest/gtest.h>

#include <cstring>

#include "runtime/kernel_args.h"

namespace strobe::runtime {
namespace {

loader::KernelArg arg(loader::ArgKind kind, uint32_t offset, uint32_t size) {
  loader::KernelArg a;
  a.kind = kind;
  a.offset = offset;
  a.size = size;
  return a;
}

uint32_t u32_at(const KernargLayout& l, size_t offset) {
  uint32_t v;
  std::memcpy(&v, l.bytes.data() + offset, sizeof v);
  return v;
}

TEST(KernelArgs, LaunchDynamicLdsFollowsTheStaticSegment) {
  // HIP: no __local arguments; extern __shared__ memory is sized only by the launch.
  loader::KernelInfo k;
  k.name = "k";
  k.group_segment_fixed_size = 20;
  k.kernarg_segment_size = 8;
  k.args = {arg(loader::ArgKind::ByValue, 0, 4)};
  HiddenArgValues h;
  h.dynamic_lds_bytes = 1000;
  const KernargLayout l = build_kernargs(k, {ArgValue::scalar(int32_t(1))}, h);
  EXPECT_EQ(l.lds_total_bytes, 1020u);
  EXPECT_EQ(l.dynamic_lds_bytes, 1000u);
}

TEST(KernelArgs, LaunchDynamicLdsComesAfterLocalArgumentsAndIsReportedToTheKernel) {
  loader::KernelInfo k;
  k.name = "k";
  k.group_segment_fixed_size = 20;
  k.kernarg_segment_size = 16;
  k.args = {arg(loader::ArgKind::DynamicSharedPointer, 0, 4), arg(loader::ArgKind::HiddenDynamicLdsSize, 8, 4)};
  HiddenArgValues h;
  h.dynamic_lds_bytes = 1000;
  const KernargLayout l = build_kernargs(k, {ArgValue::local(100)}, h);
  EXPECT_EQ(u32_at(l, 0), 32u);  // the __local buffer starts at the 16-aligned static end
  EXPECT_EQ(l.lds_total_bytes, 144u + 1000u);
  EXPECT_EQ(l.dynamic_lds_bytes, 1100u);
  EXPECT_EQ(u32_at(l, 8), 1100u);
}

TEST(KernelArgs, NoDynamicLdsKeepsTheStaticSize) {
  loader::KernelInfo k;
  k.name = "k";
  k.group_segment_fixed_size = 20;
  const KernargLayout l = build_kernargs(k, {}, HiddenArgValues{});
  EXPECT_EQ(l.lds_total_bytes, 20u);
  EXPECT_EQ(l.dynamic_lds_bytes, 0u);
}

}  // namespace
}  // namespace strobe::runtime
