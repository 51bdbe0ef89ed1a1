// End-to-end: integer widths (8/16/32/64-bit), f16/f32/f64 arithmetic, math builtins and divergent
// control flow, against CPU references. Float bounds are stated per output.
#include <cmath>

#include "e2e/kernel_fixture.h"

namespace strobe::e2e {
namespace {

class ArithKernels : public KernelTest {};
STROBE_E2E_SUITE(ArithKernels);

/// IEEE binary16 -> float (exact).
float half_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h >> 15) << 31, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  if (exp == 0x1F) return std::bit_cast<float>(sign | 0x7F800000u | (man << 13));
  if (exp == 0) return std::bit_cast<float>(sign) + (sign ? -1.0f : 1.0f) * std::ldexp(float(man), -24);
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

/// double -> IEEE binary16, round to nearest even (inputs in the normal half range).
uint16_t double_to_half(double d) {
  uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  d = std::fabs(d);
  if (d == 0) return sign;
  int e;
  std::frexp(d, &e);              // d = m * 2^e, m in [0.5, 1)
  int exp = std::max(e - 1, -14);  // unbiased exponent of the half result
  double scaled = std::ldexp(d, 10 - exp);  // 11 significant bits left of the point
  double r = std::nearbyint(scaled);        // default rounding mode: nearest even
  if (r >= 2048) { r /= 2; ++exp; }
  if (exp > 15) return sign | 0x7C00;
  uint32_t m = uint32_t(r);
  if (m < 1024) return sign | uint16_t(m);  // subnormal
  return sign | uint16_t(((exp + 15) << 10) | (m & 0x3FF));
}

TEST_P(ArithKernels, ByteAndShortArithmeticViaSdwa) {
  const uint32_t n = 513;
  Rng rng(20);
  std::vector<uint8_t> a(n);
  std::vector<int8_t> b(n);
  std::vector<uint16_t> c(n);
  std::vector<int16_t> d(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = uint8_t(rng.u32()), b[i] = int8_t(rng.u32()), c[i] = uint16_t(rng.u32()), d[i] = int16_t(rng.u32());
  auto& m = load("bytes_shorts");
  uint64_t da = upload(a), db = upload(b), dc = upload(c), dd = upload(d), o8 = zeros<uint8_t>(n), o16 = zeros<int16_t>(n);
  launch(m, "bytes_shorts", {n, 1, 1}, {64, 1, 1},
         {ArgValue::buffer(da), ArgValue::buffer(db), ArgValue::buffer(dc), ArgValue::buffer(dd), ArgValue::buffer(o8),
          ArgValue::buffer(o16), ArgValue::scalar(n)});
  auto r8 = download<uint8_t>(o8, n);
  auto r16 = download<int16_t>(o16, n);
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t x = a[i];
    int8_t y = b[i];
    uint16_t u = c[i];
    int16_t s = d[i];
    uint8_t e8 = uint8_t((x >> 1) + uint8_t(y * 3) + uint8_t(u >> 8) - uint8_t(x & 0x0f));
    int16_t e16 = int16_t(s * 3 - int16_t(y) * int16_t(x) + int16_t(u >> 3) + (s >> 2));
    ASSERT_EQ(r8[i], e8) << i;
    ASSERT_EQ(r16[i], e16) << i;
  }
}

TEST_P(ArithKernels, DoublePrecisionOps) {
  const uint32_t n = 200;
  Rng rng(21);
  std::vector<double> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = rng.uniform_d(-1e3, 1e3), b[i] = rng.uniform_d(0.5, 50) * (i % 3 ? 1 : -1);
  auto& m = load("f64_ops");
  uint64_t da = upload(a), db = upload(b), dout = zeros<double>(5 * n);
  launch(m, "f64_ops", {n, 1, 1}, {64, 1, 1}, {ArgValue::buffer(da), ArgValue::buffer(db), ArgValue::buffer(dout), ArgValue::scalar(n)});
  auto o = download<double>(dout, 5 * n);
  for (uint32_t i = 0; i < n; ++i) {
    double x = a[i], y = b[i];
    // x*y+x is contracted to v_fma_f64 (f64 denormals are kept, so fma is the fast path).
    EXPECT_EQ(o[5 * i + 0], std::fma(x, y, x)) << i;
    EXPECT_EQ(o[5 * i + 1], std::fma(x, y, -y)) << i;
    EXPECT_LE(ulp_distance(o[5 * i + 2], x / y), 1u) << i;  // Newton-Raphson division: within 1 ulp
    EXPECT_EQ(o[5 * i + 3], std::sqrt(std::fabs(x))) << i;
    double e4 = std::floor(x) + std::trunc(y) + double(int32_t(x * 3.0)) + double(float(y));
    EXPECT_EQ(o[5 * i + 4], e4) << i;
  }
}

TEST_P(ArithKernels, Int64MultiplyShiftDivideCompare) {
  const uint32_t n = 300;
  Rng rng(22);
  std::vector<uint64_t> a(n);
  std::vector<int64_t> b(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = rng.next() >> (i % 40), b[i] = int64_t(rng.next()) >> (i % 50);
  auto& m = load("int64_ops");
  uint64_t da = upload(a), db = upload(b), dout = zeros<uint64_t>(4 * n);
  launch(m, "int64_ops", {n, 1, 1}, {64, 1, 1}, {ArgValue::buffer(da), ArgValue::buffer(db), ArgValue::buffer(dout), ArgValue::scalar(n)});
  auto o = download<uint64_t>(dout, 4 * n);
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t x = a[i];
    int64_t y = b[i];
    ASSERT_EQ(o[4 * i + 0], x * uint64_t(y) + (x >> 13) - (x << 7)) << i;
    ASSERT_EQ(o[4 * i + 1], uint64_t(y >> 9) ^ (x / (uint64_t(y & 0xffff) + 1))) << i;
    ASSERT_EQ(o[4 * i + 2], x % 1000003ull + uint64_t(y / 77)) << i;
    ASSERT_EQ(o[4 * i + 3], x > uint64_t(y) ? x : uint64_t(y)) << i;
  }
}

TEST_P(ArithKernels, Int32DivisionAndRemainder) {
  const uint32_t n = 1000;
  Rng rng(23);
  std::vector<int32_t> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = int32_t(rng.u32());
    b[i] = int32_t(rng.u32() >> (rng.u32() % 31));
    if (b[i] == 0 || (a[i] == INT32_MIN && b[i] == -1)) b[i] = 7;
  }
  auto& m = load("int_div");
  uint64_t da = upload(a), db = upload(b), dout = zeros<int32_t>(4 * n);
  launch(m, "int_div", {n, 1, 1}, {64, 1, 1}, {ArgValue::buffer(da), ArgValue::buffer(db), ArgValue::buffer(dout), ArgValue::scalar(n)});
  auto o = download<int32_t>(dout, 4 * n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(o[4 * i + 0], a[i] / b[i]) << i;
    ASSERT_EQ(o[4 * i + 1], a[i] % b[i]) << i;
    ASSERT_EQ(uint32_t(o[4 * i + 2]), uint32_t(a[i]) / uint32_t(b[i])) << i;
    ASSERT_EQ(uint32_t(o[4 * i + 3]), uint32_t(a[i]) % uint32_t(b[i])) << i;
  }
}

TEST_P(ArithKernels, BitManipulation) {
  const uint32_t n = 400;
  Rng rng(24);
  std::vector<uint32_t> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = rng.u32(), b[i] = i % 17 ? rng.u32() : 0;
  auto& m = load("bit_ops");
  uint64_t da = upload(a), db = upload(b), dout = zeros<uint32_t>(6 * n);
  launch(m, "bit_ops", {n, 1, 1}, {64, 1, 1}, {ArgValue::buffer(da), ArgValue::buffer(db), ArgValue::buffer(dout), ArgValue::scalar(n)});
  auto o = download<uint32_t>(dout, 6 * n);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t x = a[i], y = b[i], r = y & 31u;
    ASSERT_EQ(o[6 * i + 0], uint32_t(__builtin_popcount(x)) + (y ? uint32_t(__builtin_clz(y)) : 32u)) << i;
    ASSERT_EQ(o[6 * i + 1], r ? (x << r) | (x >> (32 - r)) : x) << i;
    ASSERT_EQ(o[6 * i + 2], (x >> (y & 15u)) & 0x3ffu) << i;
    ASSERT_EQ(o[6 * i + 3], (x & ~0xff00u) | ((y & 0xffu) << 8)) << i;
    ASSERT_EQ(o[6 * i + 4], uint32_t((uint64_t(x) * y) >> 32)) << i;
    ASSERT_EQ(o[6 * i + 5], (x & 0xffffffu) * (y & 0xffffffu) + (x ^ y)) << i;
  }
}

TEST_P(ArithKernels, ExactMathBuiltins) {
  const uint32_t n = 256;
  Rng rng(25);
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = rng.uniform(-100, 100), b[i] = rng.uniform(0.5f, 10.0f) * (i % 2 ? 1 : -1);
  auto& m = load("math_builtins");
  uint64_t da = upload(a), db = upload(b), dout = zeros<float>(10 * n);
  launch(m, "math_exact", {n, 1, 1}, {64, 1, 1}, {ArgValue::buffer(da), ArgValue::buffer(db), ArgValue::buffer(dout), ArgValue::scalar(n)});
  auto o = download<float>(dout, 10 * n);
  for (uint32_t i = 0; i < n; ++i) {
    float x = a[i], y = b[i];
    const float* r = &o[10 * i];
    EXPECT_EQ(r[0], std::sqrt(std::fabs(x))) << i;
    EXPECT_EQ(r[1], std::fmin(x, y)) << i;
    EXPECT_EQ(r[2], std::fmax(x, y)) << i;
    EXPECT_EQ(r[3], std::floor(x)) << i;
    EXPECT_EQ(r[4], std::ceil(y)) << i;
    EXPECT_EQ(r[5], std::trunc(x) + std::nearbyint(y)) << i;
    // LLVM expands frem as x - trunc(x / y) * y with a correctly rounded quotient and an fma.
    EXPECT_EQ(r[6], std::fma(-std::trunc(x / y), y, x)) << i;
    EXPECT_EQ(r[7], std::copysign(x, y)) << i;
    EXPECT_EQ(r[8], std::fma(x, y, 1.5f)) << i;
    EXPECT_LE(ulp_distance(r[9], x / y), 1u) << i;  // div_scale/fmas/fixup sequence
  }
}

TEST_P(ArithKernels, ApproximateTranscendentalsWithinStatedBounds) {
  const uint32_t n = 256;
  Rng rng(26);
  std::vector<float> a(n);
  for (auto& v : a) v = rng.uniform(-5, 5);
  auto& m = load("math_builtins");
  uint64_t da = upload(a), dout = zeros<float>(5 * n);
  launch(m, "math_approx", {n, 1, 1}, {64, 1, 1}, {ArgValue::buffer(da), ArgValue::buffer(dout), ArgValue::scalar(n)});
  auto o = download<float>(dout, 5 * n);
  for (uint32_t i = 0; i < n; ++i) {
    double x = a[i];
    const float* r = &o[5 * i];
    // Bounds: the argument scaling (x*log2(e), x/(2*pi)) is rounded to f32 before the hardware
    // op, so errors grow with |x|: relative 1e-5 for exp/log, absolute 2e-6 for sin/cos.
    EXPECT_NEAR(r[0], std::exp(x), 1e-5 * std::exp(x)) << i;
    EXPECT_NEAR(r[1], std::log(std::fabs(x) + 1.0), 1e-6 + 1e-5 * std::log(std::fabs(x) + 1.0)) << i;
    EXPECT_NEAR(r[2], std::sin(x), 2e-6) << i;
    EXPECT_NEAR(r[3], std::cos(x), 2e-6) << i;
    EXPECT_NEAR(r[4], 1.0 / std::sqrt(std::fabs(x) + 0.5), 1e-6) << i;
  }
}

TEST_P(ArithKernels, HalfPrecisionFusedMultiplyAdd) {
  const uint32_t n = 300;
  Rng rng(27);
  std::vector<uint16_t> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = double_to_half(rng.uniform_d(-8, 8));
    b[i] = double_to_half(rng.uniform_d(-8, 8));
  }
  auto& m = load("half_ops");
  uint64_t da = upload(a), db = upload(b), dout = zeros<uint16_t>(n);
  launch(m, "half_ops", {n, 1, 1}, {64, 1, 1}, {ArgValue::buffer(da), ArgValue::buffer(db), ArgValue::buffer(dout), ArgValue::scalar(n)});
  auto o = download<uint16_t>(dout, n);
  for (uint32_t i = 0; i < n; ++i) {
    double x = half_to_float(a[i]), y = half_to_float(b[i]);
    // v_sub_f16 then v_fma_f16: the product and sum are exact in double before the one rounding.
    double diff = half_to_float(double_to_half(x - y));
    ASSERT_EQ(o[i], double_to_half(x * y + diff)) << i << ": " << x << " " << y;
  }
}

TEST_P(ArithKernels, DivergentLoopsAndBranches) {
  const uint32_t n = 640;
  Rng rng(28);
  std::vector<uint32_t> in(n);
  for (auto& v : in) v = rng.u32() % 100000 + 1;
  auto& m = load("divergence");
  uint64_t di = upload(in), ds = zeros<uint32_t>(n), dc = zeros<int32_t>(n);
  launch(m, "divergence", {n, 1, 1}, {64, 1, 1}, {ArgValue::buffer(di), ArgValue::buffer(ds), ArgValue::buffer(dc), ArgValue::scalar(n)});
  auto steps = download<uint32_t>(ds, n);
  auto cls = download<int32_t>(dc, n);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t v = in[i], count = 0;
    while (v != 1 && count < 1000) v = (v & 1) ? 3 * v + 1 : v >> 1, ++count;
    int32_t c;
    if (count < 10) c = -1;
    else if (count % 3 == 0) { c = 0; for (uint32_t k = 0; k < count % 7; ++k) c += int32_t(k); }
    else c = int32_t(count * 2);
    ASSERT_EQ(steps[i], count) << i;
    ASSERT_EQ(cls[i], c) << i;
  }
}

}  // namespace
}  // namespace strobe::e2e
