// The render target's clears (masks, scissor box, clamping and rounding) and the depth test's
// eight comparison functions.
#include "gfx/pipeline/render_target.h"

#include <array>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "common/error.h"

namespace strobe::gfx {
namespace {

// The four bytes of pixel (x, y) as one array, for EXPECT_EQ.
std::array<uint8_t, 4> rgba(const RenderTarget& rt, int x, int y) {
  const uint8_t* p = rt.pixel(x, y);
  return {p[0], p[1], p[2], p[3]};
}

TEST(RenderTarget, StartsTransparentBlackWithDepthOne) {
  RenderTarget rt(3, 2);
  EXPECT_EQ(rt.color.size(), 24u);
  EXPECT_EQ(rt.depth.size(), 6u);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) {
      EXPECT_EQ(rgba(rt, x, y), (std::array<uint8_t, 4>{0, 0, 0, 0}));
      EXPECT_EQ(rt.depth_at(x, y), 1.0f);
    }
}

TEST(RenderTarget, PixelsAreStoredBottomRowFirst) {
  RenderTarget rt(2, 2);
  rt.pixel(1, 0)[0] = 7;  // bottom right
  EXPECT_EQ(rt.color[4], 7);
  rt.depth_at(0, 1) = 0.25f;  // top left
  EXPECT_EQ(rt.depth[2], 0.25f);
  EXPECT_TRUE(rt.contains(1, 1));
  EXPECT_FALSE(rt.contains(2, 0));
  EXPECT_FALSE(rt.contains(0, -1));
}

TEST(RenderTarget, NegativeSizeIsAnInputError) { EXPECT_THROW(RenderTarget(-1, 4), InputError); }

TEST(Clear, ColourIsClampedAndRoundedToNearestUnorm8) {
  RenderTarget rt(2, 2);
  GlFixed f;
  // 0.5 * 255 = 127.5 rounds up; 0.2 * 255 = 51 exactly; out-of-range values clamp.
  f.clear_color = {0.5f, 0.2f, -3.0f, 7.0f};
  clear(rt, kGlColorBufferBit, f);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x) EXPECT_EQ(rgba(rt, x, y), (std::array<uint8_t, 4>{128, 51, 0, 255}));
  EXPECT_EQ(rt.depth_at(0, 0), 1.0f) << "the colour bit alone leaves depth";
}

TEST(Clear, ColourMaskKeepsDisabledChannels) {
  RenderTarget rt(1, 1);
  GlFixed f;
  f.clear_color = {1, 1, 1, 1};
  clear(rt, kGlColorBufferBit, f);
  f.clear_color = {0, 0, 0, 0};
  f.color_mask = {true, false, true, false};
  clear(rt, kGlColorBufferBit, f);
  EXPECT_EQ(rgba(rt, 0, 0), (std::array<uint8_t, 4>{0, 255, 0, 255}));
}

TEST(Clear, DepthIsClampedAndHonoursTheDepthMask) {
  RenderTarget rt(2, 1);
  GlFixed f;
  f.clear_depth = 0.25f;
  clear(rt, kGlDepthBufferBit, f);
  EXPECT_EQ(rt.depth_at(1, 0), 0.25f);
  f.clear_depth = -2.0f;
  clear(rt, kGlDepthBufferBit | kGlColorBufferBit, f);
  EXPECT_EQ(rt.depth_at(0, 0), 0.0f);
  f.clear_depth = 0.75f;
  f.depth_mask = false;
  clear(rt, kGlDepthBufferBit, f);
  EXPECT_EQ(rt.depth_at(0, 0), 0.0f) << "depth writes are masked off";
}

TEST(Clear, ScissorTestLimitsTheClearedRectangle) {
  RenderTarget rt(4, 4);
  GlFixed f;
  f.scissor_test = true;
  f.scissor = {1, 2, 2, 5};  // x 1..2, y 2..6: cut by the target to rows 2 and 3
  f.clear_color = {1, 0, 0, 1};
  f.clear_depth = 0.5f;
  clear(rt, kGlColorBufferBit | kGlDepthBufferBit, f);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const bool inside = x >= 1 && x <= 2 && y >= 2;
      EXPECT_EQ(rt.pixel(x, y)[0], inside ? 255 : 0) << x << "," << y;
      EXPECT_EQ(rt.depth_at(x, y), inside ? 0.5f : 1.0f) << x << "," << y;
    }
}

TEST(Clear, ScissorBoxOutsideTheTargetClearsNothing) {
  RenderTarget rt(4, 4);
  GlFixed f;
  f.scissor_test = true;
  f.clear_color = {1, 1, 1, 1};
  for (auto box : {std::array<int32_t, 4>{-5, 0, 3, 4}, {4, 0, 2, 2}, {0, 0, 0, 0}, {1, 1, -2, 2}}) {
    f.scissor = box;
    clear(rt, kGlColorBufferBit, f);
  }
  for (uint8_t b : rt.color) ASSERT_EQ(b, 0);
}

TEST(Clear, ScissorIsIgnoredWhenTheTestIsOff) {
  RenderTarget rt(3, 3);
  GlFixed f;
  f.scissor = {0, 0, 1, 1};
  f.clear_color = {0, 0, 1, 0};
  clear(rt, kGlColorBufferBit, f);
  EXPECT_EQ(rt.pixel(2, 2)[2], 255);
}

TEST(Clear, StencilBitAloneChangesNothing) {
  RenderTarget rt(2, 2);
  GlFixed f;
  f.clear_color = {1, 1, 1, 1};
  f.clear_depth = 0;
  clear(rt, kGlStencilBufferBit, f);
  for (uint8_t b : rt.color) ASSERT_EQ(b, 0);
  for (float d : rt.depth) ASSERT_EQ(d, 1.0f);
}

TEST(Clear, UnknownMaskBitClearsNothingAsGlInvalidValue) {
  RenderTarget rt(1, 1);
  GlFixed f;
  f.clear_color = {1, 1, 1, 1};
  clear(rt, kGlColorBufferBit | 0x1, f);
  EXPECT_EQ(rt.pixel(0, 0)[0], 0);
}

TEST(DepthTest, EveryComparisonFunction) {
  struct Case {
    uint32_t func;
    bool less, equal, greater;  // outcome for fragment <, ==, > stored
  };
  const Case cases[] = {
      {kGlNever, false, false, false},   {kGlLess, true, false, false},    {kGlEqual, false, true, false},
      {kGlLequal, true, true, false},    {kGlGreater, false, false, true}, {kGlNotequal, true, false, true},
      {kGlGequal, false, true, true},    {kGlAlways, true, true, true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(depth_passes(c.func, 0.25f, 0.5f), c.less) << std::hex << c.func;
    EXPECT_EQ(depth_passes(c.func, 0.5f, 0.5f), c.equal) << std::hex << c.func;
    EXPECT_EQ(depth_passes(c.func, 0.75f, 0.5f), c.greater) << std::hex << c.func;
  }
}

TEST(DepthTest, UnknownFunctionIsAnInputErrorNamingIt) {
  try {
    depth_passes(0x0208, 0, 0);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("0x0208"), std::string::npos) << e.what();
  }
}

TEST(ToUnorm8, RoundsToNearestAndSendsNanToZero) {
  EXPECT_EQ(to_unorm8(0.0f), 0);
  EXPECT_EQ(to_unorm8(1.0f), 255);
  EXPECT_EQ(to_unorm8(1.4f / 255), 1);
  EXPECT_EQ(to_unorm8(1.6f / 255), 2);
  EXPECT_EQ(to_unorm8(std::nanf("")), 0);
}

}  // namespace
}  // namespace strobe::gfx
