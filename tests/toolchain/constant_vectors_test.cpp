// What strobe's build asks of its compiler and flags, checked on the code they produce: a
// miscompiled build must fail here, not in a simulated result. Regression tests named after the
// compiler bugs strobe's CMakeLists.txt works around.
#include <gtest/gtest.h>

#include <vector>

namespace {

// Out of line, so the constant is built at run time by the code the flags produce.
[[gnu::noinline]] void store_pattern(int* out) {
  const int x[8] = {0, 1, 0, 1, 0, 1, 0, 0};
  for (int i = 0; i < 8; ++i) out[i] = x[i];
}

[[gnu::noinline]] std::vector<int> pattern_vector() { return {0, 1, 0, 1, 0, 1, 0, 0}; }

TEST(Toolchain, ConstantVectorsAreStoredAsWritten) {
  // GCC 12 with -mavx512f and SLP vectorisation stores this as {0,1} broadcast: 0,1,...,0,1.
  int out[8] = {};
  store_pattern(out);
  EXPECT_EQ(std::vector<int>(out, out + 8), (std::vector<int>{0, 1, 0, 1, 0, 1, 0, 0}));
  const std::vector<int> v = pattern_vector();
  ASSERT_EQ(v.size(), 8u);
  EXPECT_EQ(v[7], 0);
  EXPECT_EQ(v[6], 0);
}

}  // namespace
