// Blending into RGBA8: the usual factor pairs, every equation, SRC_ALPHA_SATURATE, rounding and
// clamping, the colour mask, and the factors refused when the state is built.
#include "gfx/pipeline/blend.h"

#include <array>
#include <string>

#include <gtest/gtest.h>

#include "common/error.h"

namespace strobe::gfx {
namespace {

constexpr uint32_t kZero = 0, kOne = 1, kSrcColor = 0x0300, kSrcAlpha = 0x0302, kOneMinusSrcAlpha = 0x0303,
                   kDstColor = 0x0306, kSrcAlphaSaturate = 0x0308;
constexpr uint32_t kAdd = 0x8006, kSubtract = 0x800A, kReverseSubtract = 0x800B, kMin = 0x8007, kMax = 0x8008;

using Rgba8 = std::array<uint8_t, 4>;

// Blending on with factors (src, dst) for colour and alpha alike, and `equation`.
BlendState blending(uint32_t src, uint32_t dst, uint32_t equation = kAdd) {
  GlFixed f;
  f.blend = true;
  f.blend_src_rgb = f.blend_src_alpha = src;
  f.blend_dst_rgb = f.blend_dst_alpha = dst;
  f.blend_equation = equation;
  return blend_state(f);
}

// `dst` after blending `src` into it with `s`.
Rgba8 blend(const BlendState& s, std::array<float, 4> src, Rgba8 dst) {
  blend_pixel(s, src.data(), dst.data());
  return dst;
}

TEST(Blend, DisabledWritesTheClampedSource) {
  BlendState s = blend_state(GlFixed{});
  EXPECT_FALSE(s.enabled);
  EXPECT_EQ(blend(s, {1.5f, -0.2f, 0.2f, 0.6f}, {9, 9, 9, 9}), (Rgba8{255, 0, 51, 153}));
}

TEST(Blend, SrcAlphaOneMinusSrcAlphaMixesByAlpha) {
  // 0.5 * 255 = 127.5 rounds up to 128; alpha is 0.5 * 0.5 + 1 * 0.5 = 0.75 -> 191.25 -> 191.
  EXPECT_EQ(blend(blending(kSrcAlpha, kOneMinusSrcAlpha), {1, 0, 0, 0.5f}, {0, 0, 255, 255}),
            (Rgba8{128, 0, 128, 191}));
}

TEST(Blend, OneOneAddsAndSaturates) {
  EXPECT_EQ(blend(blending(kOne, kOne), {0.8f, 0.5f, 0.2f, 1}, {128, 200, 10, 255}), (Rgba8{255, 255, 61, 255}));
}

TEST(Blend, DstColorZeroModulates) {
  EXPECT_EQ(blend(blending(kDstColor, kZero), {0.5f, 1, 0, 0.6f}, {200, 100, 50, 255}), (Rgba8{100, 100, 0, 153}));
}

TEST(Blend, SrcColorWeightsEachChannelByItself) {
  // 0.6 * 0.6 * 255 = 91.8 -> 92; 0.2 * 0.2 * 255 = 10.2 -> 10.
  EXPECT_EQ(blend(blending(kSrcColor, kZero), {0.6f, 0.2f, 1, 0}, {0, 0, 0, 0}), (Rgba8{92, 10, 255, 0}));
}

TEST(Blend, EveryEquation) {
  // Source 0.6/0.2/0.4/0.6 = 153/51/102/153, destination 51/153/102/51, factors ONE/ONE.
  const std::array<float, 4> src{0.6f, 0.2f, 0.4f, 0.6f};
  const Rgba8 dst{51, 153, 102, 51};
  EXPECT_EQ(blend(blending(kOne, kOne, kAdd), src, dst), (Rgba8{204, 204, 204, 204}));
  EXPECT_EQ(blend(blending(kOne, kOne, kSubtract), src, dst), (Rgba8{102, 0, 0, 102})) << "clamped at 0";
  EXPECT_EQ(blend(blending(kOne, kOne, kReverseSubtract), src, dst), (Rgba8{0, 102, 0, 0}));
  // GL_MIN and GL_MAX ignore the factors, so ZERO/ZERO changes nothing.
  EXPECT_EQ(blend(blending(kZero, kZero, kMin), src, dst), (Rgba8{51, 51, 102, 51}));
  EXPECT_EQ(blend(blending(kZero, kZero, kMax), src, dst), (Rgba8{153, 153, 102, 153}));
}

TEST(Blend, SrcAlphaSaturateWeightsColourByMinOfSrcAlphaAndOneMinusDstAlpha) {
  // f = min(0.8, 1 - 0.6) = 0.4: colour 0.5 * 0.4 + 10/255 -> 51 + 10; alpha weighted by 1:
  // 0.8 + 0.6 saturates.
  EXPECT_EQ(blend(blending(kSrcAlphaSaturate, kOne), {0.5f, 0.5f, 0.5f, 0.8f}, {10, 10, 10, 153}),
            (Rgba8{61, 61, 61, 255}));
}

TEST(Blend, SeparateAlphaFactorsApplyToAlphaOnly) {
  GlFixed f;
  f.blend = true;
  f.blend_src_rgb = kOne;
  f.blend_dst_rgb = kZero;
  f.blend_src_alpha = kZero;
  f.blend_dst_alpha = kOne;
  EXPECT_EQ(blend(blend_state(f), {1, 1, 1, 1}, {0, 0, 0, 77}), (Rgba8{255, 255, 255, 77}));
}

TEST(Blend, SourceIsClampedBeforeBlending) {
  // Red 4 would saturate (4 * 0.4 = 1.6) and green -1 would cancel the destination unclamped;
  // clamped, red adds 0.4 -> 102 and green adds nothing. Alpha is 0.4 * 0.4 -> 40.8.
  EXPECT_EQ(blend(blending(kSrcAlpha, kOne), {4, -1, 0, 0.4f}, {64, 64, 0, 0}), (Rgba8{166, 64, 0, 41}));
}

TEST(Blend, DestinationReadsBackExactly) {
  // ZERO/ONE keeps the destination: each of the 256 values must survive the trip through float.
  const BlendState s = blending(kZero, kOne);
  for (int v = 0; v < 256; ++v) {
    const uint8_t b = uint8_t(v);
    ASSERT_EQ(blend(s, {1, 1, 1, 1}, {b, b, b, b}), (Rgba8{b, b, b, b})) << v;
  }
}

TEST(Blend, ResultRoundsToNearest) {
  const BlendState s = blending(kSrcAlpha, kZero);
  // Weighted by alpha 0.25: 63.75 -> 64, 1.4 -> 1 and 1.6 -> 2.
  const Rgba8 r = blend(s, {1, 1.4f / 255 * 4, 1.6f / 255 * 4, 0.25f}, {0, 0, 0, 0});
  EXPECT_EQ(r[1], 1);
  EXPECT_EQ(r[2], 2);
  EXPECT_EQ(r[0], 64) << "63.75 rounds up";
}

TEST(Blend, ColourMaskKeepsDisabledChannels) {
  GlFixed f;
  f.color_mask = {false, true, false, true};
  EXPECT_EQ(blend(blend_state(f), {1, 1, 1, 1}, {5, 6, 7, 8}), (Rgba8{5, 255, 7, 255}));
  f.blend = true;
  f.blend_src_rgb = f.blend_src_alpha = kOne;
  f.blend_dst_rgb = f.blend_dst_alpha = kOne;
  f.color_mask = {true, false, true, false};
  EXPECT_EQ(blend(blend_state(f), {0, 0, 0, 0}, {5, 6, 7, 8}), (Rgba8{5, 6, 7, 8}));
  EXPECT_EQ(blend(blend_state(f), {1, 1, 1, 1}, {5, 6, 7, 8}), (Rgba8{255, 6, 255, 8}));
}

TEST(BlendState, DecodesFactorsAndEquation) {
  GlFixed f;
  f.blend = true;
  f.blend_src_rgb = kSrcAlpha;
  f.blend_dst_rgb = kOneMinusSrcAlpha;
  f.blend_src_alpha = kOne;
  f.blend_dst_alpha = 0x0305;
  f.blend_equation = kReverseSubtract;
  const BlendState s = blend_state(f);
  EXPECT_TRUE(s.enabled);
  EXPECT_EQ(s.src_rgb, BlendFactor::SrcAlpha);
  EXPECT_EQ(s.dst_rgb, BlendFactor::OneMinusSrcAlpha);
  EXPECT_EQ(s.src_alpha, BlendFactor::One);
  EXPECT_EQ(s.dst_alpha, BlendFactor::OneMinusDstAlpha);
  EXPECT_EQ(s.equation_rgb, BlendEquation::ReverseSubtract);
  EXPECT_EQ(s.equation_alpha, BlendEquation::ReverseSubtract);
}

TEST(BlendState, ConstantColourFactorsAreRefusedWhenBuiltNamingTheFactor) {
  for (uint32_t factor : {0x8001u, 0x8002u, 0x8003u, 0x8004u}) {
    GlFixed f;
    f.blend = true;
    f.blend_dst_alpha = factor;
    try {
      blend_state(f);
      ADD_FAILURE() << "no error for " << std::hex << factor;
    } catch (const NotImplementedError& e) {
      EXPECT_NE(std::string(e.what()).find("0x800" + std::to_string(factor - 0x8000)), std::string::npos)
          << e.what();
    }
  }
}

TEST(BlendState, FactorsAreNotReadWhileBlendingIsOff) {
  GlFixed f;
  f.blend_src_rgb = 0x8001;
  EXPECT_NO_THROW(blend_state(f));
}

TEST(BlendState, UnknownFactorOrEquationIsAnInputError) {
  GlFixed f;
  f.blend = true;
  f.blend_src_rgb = 0x0309;
  EXPECT_THROW(blend_state(f), InputError);
  f.blend_src_rgb = kOne;
  f.blend_equation = 0x8009;
  EXPECT_THROW(blend_state(f), InputError);
}

}  // namespace
}  // namespace strobe::gfx
