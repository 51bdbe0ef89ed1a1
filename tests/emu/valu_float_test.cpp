// f32/f64 vector ALU ops against host IEEE arithmetic: random and special inputs under both
// denormal modes, GCN min/max NaN and signed-zero rules, rounding modes, conversions, and
// the compiler's full division sequences (div_scale/rcp/fma/div_fmas/div_fixup) checked to be
// correctly rounded like the GPU's.
#include <cfenv>
#include <cmath>
#include <functional>

#include "emu/float_util.h"
#include "emu/valu_test_util.h"

namespace strobe::emu::test {
namespace {

uint32_t ftz(uint32_t x) { return fp::ftz32(x); }

/// Runs a two-source f32 op over random inputs and compares with `ref` on (flushed) floats.
void check_f32_binary(Op op, const std::function<float(float, float)>& ref, bool b_is_int = false) {
  std::mt19937_64 g{uint64_t(op)};
  for (uint32_t mode : {0xF0u, 0xC0u}) {  // f32 denormals on / flushed
    Wave w = make_wave();
    w.mode = mode;
    const bool flush = mode == 0xC0u;
    for (int it = 0; it < 30; ++it) {
      fill(w, 1, [&] { return rand_f32(g); });
      fill(w, 2, [&] { return rand_f32(g); });
      exec(w, vop3(op, V(3), V(1), V(2)));
      for (int l = 0; l < kWaveSize; ++l) {
        uint32_t a = w.vrow(1)[l], b = w.vrow(2)[l];
        if (flush) a = ftz(a), b = b_is_int ? b : ftz(b);
        uint32_t want = fbits(ref(bitsf(a), bitsf(b)));
        if (flush) want = ftz(want);
        ASSERT_TRUE(same32(w.vrow(3)[l], want))
            << "op " << int(op) << " mode " << mode << " a=" << std::hex << a << " b=" << b << " got "
            << w.vrow(3)[l] << " want " << want;
      }
    }
  }
}

TEST(FloatUtil, H2fIsBitExactForEveryHalfPattern) {
  // h2f moves fields where h2d scales; both must give the same f32 bits for every pattern,
  // subnormals, infinities and NaN payloads included.
  for (uint32_t h = 0; h < 0x10000; ++h)
    ASSERT_EQ(fp::b32(fp::h2f(h)), fp::b32(float(fp::h2d(h)))) << std::hex << h;
}

TEST(ValuF32, ArithmeticIsIeeeUnderBothDenormalModes) {
  check_f32_binary(Op::V_ADD_F32, [](float a, float b) { return a + b; });
  check_f32_binary(Op::V_SUB_F32, [](float a, float b) { return a - b; });
  check_f32_binary(Op::V_SUBREV_F32, [](float a, float b) { return b - a; });
  check_f32_binary(Op::V_MUL_F32, [](float a, float b) { return a * b; });
  check_f32_binary(Op::V_MUL_LEGACY_F32, [](float a, float b) { return a == 0 || b == 0 ? 0.0f : a * b; });
  check_f32_binary(Op::V_LDEXP_F32, [](float a, float b) { return std::ldexp(a, std::clamp(int32_t(fbits(b)), -1000, 1000)); }, true);
}

TEST(ValuF32, FmaIsFusedAndMadIsNot) {
  std::mt19937_64 g(3);
  Wave w = make_wave();
  for (int it = 0; it < 30; ++it) {
    fill(w, 1, [&] { return rand_f32(g); });
    fill(w, 2, [&] { return rand_f32(g); });
    fill(w, 4, [&] { return rand_f32(g); });
    exec(w, vop3(Op::V_FMA_F32, V(3), V(1), V(2), V(4)));
    exec(w, vop3(Op::V_MAD_F32, V(5), V(1), V(2), V(4)));
    for (int l = 0; l < kWaveSize; ++l) {
      float a = bitsf(w.vrow(1)[l]), b = bitsf(w.vrow(2)[l]), c = bitsf(w.vrow(4)[l]);
      ASSERT_TRUE(same32(w.vrow(3)[l], fbits(std::fma(a, b, c))));
      volatile float p = a * b;
      ASSERT_TRUE(same32(w.vrow(5)[l], fbits(p + c)));
    }
  }
  // (1 + 2^-12)^2 - 1: fma keeps the 2^-24 term, mad rounds it away.
  fill(w, 1, [] { return 0x3F800800u; });
  fill(w, 4, [] { return 0xBF800000u; });
  exec(w, vop3(Op::V_FMA_F32, V(3), V(1), V(1), V(4)));
  exec(w, vop3(Op::V_MAD_F32, V(5), V(1), V(1), V(4)));
  EXPECT_EQ(bitsf(w.vrow(3)[0]), 0x1.0008p-11f);
  EXPECT_EQ(bitsf(w.vrow(5)[0]), 0x1p-11f);
}

TEST(ValuF32, MacAndMadkForms) {
  Wave w = make_wave();
  fill(w, 1, [] { return fbits(3.0f); });
  fill(w, 2, [] { return fbits(5.0f); });
  fill(w, 3, [] { return fbits(0.5f); });
  exec(w, vop2(Op::V_MAC_F32, V(3), V(1), V(2)));
  EXPECT_EQ(bitsf(w.vrow(3)[4]), 15.5f);
  Inst mk = vop2(Op::V_MADMK_F32, V(4), V(1), V(2));
  mk.literal = fbits(10.0f);
  exec(w, mk);  // 3 * 10 + 5
  EXPECT_EQ(bitsf(w.vrow(4)[0]), 35.0f);
  Inst ak = vop2(Op::V_MADAK_F32, V(4), V(1), V(2));
  ak.literal = fbits(10.0f);
  exec(w, ak);  // 3 * 5 + 10
  EXPECT_EQ(bitsf(w.vrow(4)[0]), 25.0f);
}

TEST(ValuF32, MinMaxNanAndSignedZero) {
  Wave w = make_wave();
  const uint32_t qnan = 0x7FC00001, snan = 0x7F800001;
  const uint32_t a[] = {qnan, 0x3F800000, snan, 0x80000000, 0x00000000, 0xFF800000};
  const uint32_t b[] = {0x3F800000, qnan, 0x40000000, 0x00000000, 0x80000000, 0x7F800000};
  for (int l = 0; l < 6; ++l) w.vrow(1)[l] = a[l], w.vrow(2)[l] = b[l];
  w.mode = 0xF0;  // IEEE mode off: NaNs are ignored
  exec(w, vop2(Op::V_MIN_F32, V(3), V(1), V(2)));
  exec(w, vop2(Op::V_MAX_F32, V(4), V(1), V(2)));
  const uint32_t mn[] = {0x3F800000, 0x3F800000, 0x40000000, 0x80000000, 0x80000000, 0xFF800000};
  const uint32_t mx[] = {0x3F800000, 0x3F800000, 0x40000000, 0x00000000, 0x00000000, 0x7F800000};
  for (int l = 0; l < 6; ++l) {
    EXPECT_EQ(w.vrow(3)[l], mn[l]) << l;
    EXPECT_EQ(w.vrow(4)[l], mx[l]) << l;
  }
  w.mode = 0x2F0;  // IEEE mode: a signalling NaN operand gives a quiet NaN
  exec(w, vop2(Op::V_MIN_F32, V(3), V(1), V(2)));
  EXPECT_EQ(w.vrow(3)[2], 0x7FC00001u);
  EXPECT_EQ(w.vrow(3)[0], 0x3F800000u);
  // med3: true median, and min3 when a NaN is present
  for (int l = 0; l < 3; ++l) w.vrow(5)[l] = fbits(float(l * 10 - 5));
  w.vrow(1)[0] = fbits(7.0f), w.vrow(2)[0] = fbits(-1.0f), w.vrow(5)[0] = fbits(3.0f);
  exec(w, vop3(Op::V_MED3_F32, V(6), V(1), V(2), V(5)));
  EXPECT_EQ(bitsf(w.vrow(6)[0]), 3.0f);
  EXPECT_EQ(bitsf(w.vrow(6)[1]), 1.0f);  // (qnan, 1.0, 5.0) -> min3 ignoring NaN
}

TEST(ValuF32, RoundingOpsAndFract) {
  std::mt19937_64 g(8);
  Wave w = make_wave();
  fill(w, 1, [&] { return g() % 4 ? rand_f32(g) : fbits(float(int(g() % 20) - 10) / 4.0f); });
  exec(w, vop2(Op::V_TRUNC_F32, V(2), V(1)));
  exec(w, vop2(Op::V_CEIL_F32, V(3), V(1)));
  exec(w, vop2(Op::V_FLOOR_F32, V(4), V(1)));
  exec(w, vop2(Op::V_RNDNE_F32, V(5), V(1)));
  exec(w, vop2(Op::V_FRACT_F32, V(6), V(1)));
  for (int l = 0; l < kWaveSize; ++l) {
    float x = bitsf(w.vrow(1)[l]);
    ASSERT_TRUE(same32(w.vrow(2)[l], fbits(std::trunc(x))));
    ASSERT_TRUE(same32(w.vrow(3)[l], fbits(std::ceil(x))));
    ASSERT_TRUE(same32(w.vrow(4)[l], fbits(std::floor(x))));
    ASSERT_TRUE(same32(w.vrow(5)[l], fbits(std::nearbyint(x))));
    if (std::isfinite(x)) ASSERT_TRUE(same32(w.vrow(6)[l], fbits(std::fmin(x - std::floor(x), 0x1.fffffep-1f))));
  }
}

TEST(ValuF32, RoundingModeTowardZero) {
  Wave w = make_wave();
  fill(w, 1, [] { return fbits(1.0f); });
  fill(w, 2, [] { return fbits(0x1.8p-24f); });  // 1 + 1.5 ulp/2: nearest rounds up
  exec(w, vop2(Op::V_ADD_F32, V(3), V(1), V(2)));
  EXPECT_EQ(w.vrow(3)[0], 0x3F800001u);
  w.mode = 0xF3;  // f32 round toward zero
  exec(w, vop2(Op::V_ADD_F32, V(3), V(1), V(2)));
  EXPECT_EQ(w.vrow(3)[0], 0x3F800000u);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST) << "host rounding mode must be restored";
}

TEST(ValuF32, TranscendentalsAreCloseToExact) {
  Wave w = make_wave();
  for (int l = 0; l < kWaveSize; ++l) w.vrow(1)[l] = fbits(float(l) * 0.37f - 9.0f);
  const std::pair<Op, std::function<double(double)>> cases[] = {
      {Op::V_EXP_F32, [](double x) { return std::exp2(x); }},
      {Op::V_LOG_F32, [](double x) { return std::log2(x); }},
      {Op::V_RCP_F32, [](double x) { return 1.0 / x; }},
      {Op::V_RSQ_F32, [](double x) { return 1.0 / std::sqrt(x); }},
      {Op::V_SQRT_F32, [](double x) { return std::sqrt(x); }},
      {Op::V_SIN_F32, [](double x) { return std::sin(2 * M_PI * x); }},
      {Op::V_COS_F32, [](double x) { return std::cos(2 * M_PI * x); }},
  };
  for (auto& [op, ref] : cases) {
    exec(w, vop2(op, V(2), V(1)));
    for (int l = 0; l < kWaveSize; ++l) {
      double want = ref(double(bitsf(w.vrow(1)[l])));
      float got = bitsf(w.vrow(2)[l]);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got));
      } else {
        EXPECT_NEAR(got, want, std::fabs(want) * 1e-6 + 1e-6) << int(op) << " lane " << l;
      }
    }
  }
}

TEST(ValuF32, FrexpAndClassHelpers) {
  Wave w = make_wave();
  const float xs[] = {6.0f, -0.75f, 0x1p-140f, 0.0f, INFINITY};
  for (int l = 0; l < 5; ++l) w.vrow(1)[l] = fbits(xs[l]);
  exec(w, vop2(Op::V_FREXP_MANT_F32, V(2), V(1)));
  exec(w, vop2(Op::V_FREXP_EXP_I32_F32, V(3), V(1)));
  for (int l = 0; l < 4; ++l) {
    int e;
    float m = std::frexp(xs[l], &e);
    EXPECT_EQ(bitsf(w.vrow(2)[l]), m);
    EXPECT_EQ(int32_t(w.vrow(3)[l]), e);
  }
  EXPECT_EQ(bitsf(w.vrow(2)[4]), INFINITY);
  EXPECT_EQ(w.vrow(3)[4], 0u);
}

TEST(ValuF32, ConversionsSaturateAndMapNanToZero) {
  Wave w = make_wave();
  const float xs[] = {1e10f, -1e10f, NAN, -2.5f, 2.5f, 3.7f, -0.5f, 4294967040.0f};
  for (int l = 0; l < 8; ++l) w.vrow(1)[l] = fbits(xs[l]);
  exec(w, vop2(Op::V_CVT_I32_F32, V(2), V(1)));
  exec(w, vop2(Op::V_CVT_U32_F32, V(3), V(1)));
  exec(w, vop2(Op::V_CVT_RPI_I32_F32, V(4), V(1)));
  exec(w, vop2(Op::V_CVT_FLR_I32_F32, V(5), V(1)));
  const int32_t i32[] = {INT32_MAX, INT32_MIN, 0, -2, 2, 3, 0, INT32_MAX};
  const uint32_t u32[] = {0xFFFFFFFFu, 0, 0, 0, 2, 3, 0, 4294967040u};
  const int32_t rpi[] = {INT32_MAX, INT32_MIN, 0, -2, 3, 4, 0, INT32_MAX};
  const int32_t flr[] = {INT32_MAX, INT32_MIN, 0, -3, 2, 3, -1, INT32_MAX};
  for (int l = 0; l < 8; ++l) {
    EXPECT_EQ(int32_t(w.vrow(2)[l]), i32[l]) << l;
    EXPECT_EQ(w.vrow(3)[l], u32[l]) << l;
    EXPECT_EQ(int32_t(w.vrow(4)[l]), rpi[l]) << l;
    EXPECT_EQ(int32_t(w.vrow(5)[l]), flr[l]) << l;
  }
  std::mt19937_64 g(4);
  fill(w, 1, [&] { return uint32_t(g()); });
  exec(w, vop2(Op::V_CVT_F32_I32, V(2), V(1)));
  exec(w, vop2(Op::V_CVT_F32_U32, V(3), V(1)));
  exec(w, vop2(Op::V_CVT_F32_UBYTE2, V(4), V(1)));
  exec(w, vop2(Op::V_CVT_OFF_F32_I4, V(5), V(1)));
  for (int l = 0; l < kWaveSize; ++l) {
    uint32_t x = w.vrow(1)[l];
    EXPECT_EQ(bitsf(w.vrow(2)[l]), float(int32_t(x)));
    EXPECT_EQ(bitsf(w.vrow(3)[l]), float(x));
    EXPECT_EQ(bitsf(w.vrow(4)[l]), float((x >> 16) & 255));
    EXPECT_EQ(bitsf(w.vrow(5)[l]), float(int32_t(x << 28) >> 28) / 16.0f);
  }
}

TEST(ValuF64, ArithmeticAndConversionsAreIeee) {
  std::mt19937_64 g(21);
  Wave w = make_wave();
  for (int it = 0; it < 20; ++it) {
    fill(w, 2, [&] { return rand_f64(g); }, true);
    fill(w, 4, [&] { return rand_f64(g); }, true);
    fill(w, 6, [&] { return rand_f64(g); }, true);
    exec(w, vop3(Op::V_ADD_F64, V(8), V(2), V(4)));
    exec(w, vop3(Op::V_MUL_F64, V(10), V(2), V(4)));
    exec(w, vop3(Op::V_FMA_F64, V(12), V(2), V(4), V(6)));
    Inst sub = vop3(Op::V_ADD_F64, V(14), V(2), V(4));
    sub.neg = 2;
    exec(w, sub);
    exec(w, vop2(Op::V_CVT_F32_F64, V(16), V(2)));
    exec(w, vop2(Op::V_CVT_I32_F64, V(17), V(2)));
    exec(w, vop2(Op::V_FLOOR_F64, V(18), V(2)));
    exec(w, vop2(Op::V_SQRT_F64, V(20), V(2)));
    for (int l = 0; l < kWaveSize; ++l) {
      double a = bitsd(get64(w, 2, l)), b = bitsd(get64(w, 4, l)), c = bitsd(get64(w, 6, l));
      ASSERT_TRUE(same64(get64(w, 8, l), dbits(a + b)));
      ASSERT_TRUE(same64(get64(w, 10, l), dbits(a * b)));
      ASSERT_TRUE(same64(get64(w, 12, l), dbits(std::fma(a, b, c))));
      ASSERT_TRUE(same64(get64(w, 14, l), dbits(a - b)));
      ASSERT_TRUE(same32(w.vrow(16)[l], fbits(float(a))));
      int32_t want = std::isnan(a) ? 0 : a >= 2147483647.0 ? INT32_MAX : a <= -2147483648.0 ? INT32_MIN : int32_t(a);
      ASSERT_EQ(int32_t(w.vrow(17)[l]), want);
      ASSERT_TRUE(same64(get64(w, 18, l), dbits(std::floor(a))));
      ASSERT_TRUE(same64(get64(w, 20, l), dbits(std::sqrt(a))));
    }
  }
}

TEST(ValuF64, DenormalFlushFollowsMode) {
  Wave w = make_wave();
  w.mode = 0x30;  // f64 denormals flushed, f32 kept
  for (int l = 0; l < kWaveSize; ++l) set64(w, 2, l, 0x000FFFFFFFFFFFFFull), set64(w, 4, l, dbits(1.0));
  exec(w, vop3(Op::V_MUL_F64, V(6), V(2), V(4)));
  EXPECT_EQ(get64(w, 6, 0), 0u);
  w.mode = 0xF0;
  exec(w, vop3(Op::V_MUL_F64, V(6), V(2), V(4)));
  EXPECT_EQ(get64(w, 6, 0), 0x000FFFFFFFFFFFFFull);
}

TEST(ValuF64, TrigPreopSegmentsOfTwoOverPi) {
  Wave w = make_wave();
  for (int l = 0; l < 3; ++l) set64(w, 2, l, dbits(1.0)), w.vrow(4)[l] = uint32_t(l);
  exec(w, vop3(Op::V_TRIG_PREOP_F64, V(6), V(2), V(4)));
  long double sum = 0;
  for (int l = 0; l < 3; ++l) sum += bitsd(get64(w, 6, l));
  EXPECT_EQ(get64(w, 6, 0), 0x3FE45F306DC9C882ull);  // 2/pi truncated to 53 bits
  EXPECT_NEAR(double(sum - 2.0L / 3.14159265358979323846264338327950288L), 0.0, 1e-19);
}

// ---- the division sequences LLVM emits for gfx803 fdiv

float divide_f32(Wave& w, float a, float b) {
  fill(w, 1, [&] { return fbits(a); });
  fill(w, 2, [&] { return fbits(b); });
  auto op3 = [&](Op op, unsigned d, uint16_t s0, uint16_t s1, uint16_t s2, uint8_t neg = 0) {
    Inst in = vop3(op, V(d), s0, s1, s2);
    in.neg = neg;
    return in;
  };
  const uint16_t one = of::kFloatHalf + 2;
  Inst ds = op3(Op::V_DIV_SCALE_F32, 3, V(2), V(2), V(1));
  ds.sdst = 20;
  exec(w, ds);
  Inst ns = op3(Op::V_DIV_SCALE_F32, 4, V(1), V(2), V(1));
  ns.sdst = of::kVccLo;
  exec(w, ns);
  exec(w, vop2(Op::V_RCP_F32, V(5), V(3)));
  exec(w, op3(Op::V_FMA_F32, 6, V(3), V(5), one, 1));
  exec(w, op3(Op::V_FMA_F32, 5, V(6), V(5), V(5)));
  exec(w, vop2(Op::V_MUL_F32, V(6), V(4), V(5)));
  exec(w, op3(Op::V_FMA_F32, 7, V(3), V(6), V(4), 1));
  exec(w, op3(Op::V_FMA_F32, 6, V(7), V(5), V(6)));
  exec(w, op3(Op::V_FMA_F32, 3, V(3), V(6), V(4), 1));
  exec(w, op3(Op::V_DIV_FMAS_F32, 3, V(3), V(5), V(6)));
  exec(w, op3(Op::V_DIV_FIXUP_F32, 1, V(3), V(2), V(1)));
  return bitsf(w.vrow(1)[0]);
}

TEST(ValuDivision, F32SequenceIsCorrectlyRounded) {
  std::mt19937_64 g(77);
  Wave w = make_wave();
  w.mode = 0xF0;  // the compiler enables f32 denormals around the sequence
  const float edge[] = {1.0f, 3.0f, 0x1p-149f, 0x1p-126f, 0x1.fffffep127f, 0x1p127f, 0x1p-100f, 0x1p100f, 0.0f, INFINITY, NAN, 7e-45f, 1e38f, 3e-39f};
  int checked = 0;
  for (float a : edge)
    for (float b : edge) {
      for (float sa : {1.0f, -1.0f}) {
        float got = divide_f32(w, a * sa, b), want = (a * sa) / b;
        ASSERT_TRUE(same32(fbits(got), fbits(want))) << a * sa << " / " << b << " got " << got << " want " << want;
        ++checked;
      }
    }
  for (int i = 0; i < 3000; ++i) {
    float a = bitsf(rand_f32(g)), b = bitsf(rand_f32(g));
    float got = divide_f32(w, a, b), want = a / b;
    ASSERT_TRUE(same32(fbits(got), fbits(want))) << std::hexfloat << a << " / " << b << " got " << got << " want " << want;
  }
  EXPECT_GT(checked, 0);
}

double divide_f64(Wave& w, double a, double b) {
  for (int l = 0; l < kWaveSize; ++l) set64(w, 2, l, dbits(a)), set64(w, 4, l, dbits(b));
  auto op3 = [&](Op op, unsigned d, uint16_t s0, uint16_t s1, uint16_t s2, uint8_t neg = 0) {
    Inst in = vop3(op, V(d), s0, s1, s2);
    in.neg = neg;
    return in;
  };
  const uint16_t one = of::kFloatHalf + 2;
  Inst ds = op3(Op::V_DIV_SCALE_F64, 6, V(4), V(4), V(2));
  ds.sdst = of::kVccLo;
  exec(w, ds);
  Inst ns = op3(Op::V_DIV_SCALE_F64, 8, V(2), V(4), V(2));
  ns.sdst = of::kVccLo;
  exec(w, ns);
  exec(w, vop2(Op::V_RCP_F64, V(10), V(6)));
  exec(w, op3(Op::V_FMA_F64, 12, V(6), V(10), one, 1));
  exec(w, op3(Op::V_FMA_F64, 10, V(10), V(12), V(10)));
  exec(w, op3(Op::V_FMA_F64, 12, V(6), V(10), one, 1));
  exec(w, op3(Op::V_FMA_F64, 10, V(10), V(12), V(10)));
  exec(w, vop3(Op::V_MUL_F64, V(12), V(8), V(10)));
  exec(w, op3(Op::V_FMA_F64, 14, V(6), V(12), V(8), 1));
  exec(w, op3(Op::V_DIV_FMAS_F64, 14, V(14), V(10), V(12)));
  exec(w, op3(Op::V_DIV_FIXUP_F64, 14, V(14), V(4), V(2)));
  return bitsd(get64(w, 14, 0));
}

TEST(ValuDivision, F64SequenceIsCorrectlyRounded) {
  std::mt19937_64 g(78);
  Wave w = make_wave();
  const double edge[] = {1.0, 3.0, 0x1p-1074, 0x1p-1022, 0x1.fffffffffffffp1023, 0x1p1023, 0x1p-900, 0x1p900, 0.0, INFINITY, NAN, 1e-310};
  for (double a : edge)
    for (double b : edge) {
      double got = divide_f64(w, a, b), want = a / b;
      ASSERT_TRUE(same64(dbits(got), dbits(want))) << a << " / " << b << " got " << got << " want " << want;
    }
  for (int i = 0; i < 3000; ++i) {
    double a = bitsd(rand_f64(g)), b = bitsd(rand_f64(g));
    double got = divide_f64(w, a, b), want = a / b;
    ASSERT_TRUE(same64(dbits(got), dbits(want))) << std::hexfloat << a << " / " << b << " got " << got << " want " << want;
  }
}

}  // namespace
}  // namespace strobe::emu::test
