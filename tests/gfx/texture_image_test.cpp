// GL textures converted for strobe's image sampler: each format's texel bytes and swizzle, row
// padding, generated and uploaded mip chains, GL incompleteness, the S# from GL's sampler state,
// the errors, and converted textures sampled by a RADV-compiled pixel shader on the emulator.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/error.h"
#include "emu/graphics.h"
#include "emu/image_desc.h"
#include "emu/memory.h"
#include "gfx/pipeline/shader_wave.h"
#include "gfx/pipeline/texture_image.h"
#include "gfx/shader/descriptors.h"
#include "gfx/shader/radv.h"
#include "isa/program.h"

namespace strobe::gfx {
namespace {

using emu::ImgDataFormat;
using emu::SqSel;
using emu::TexClamp;
using emu::TexMipFilter;
using emu::TexXyFilter;
using Bytes8 = std::vector<uint8_t>;
using Sel = std::array<SqSel, 4>;

constexpr uint32_t kAlpha = 0x1906, kRgb = 0x1907, kRgba = 0x1908, kLuminance = 0x1909, kLuminanceAlpha = 0x190A;
constexpr uint32_t kUByte = 0x1401, kUShort565 = 0x8363, kUShort4444 = 0x8033, kUShort5551 = 0x8034;
constexpr uint32_t kNearest = 0x2600, kLinear = 0x2601, kNearestMipmapNearest = 0x2700, kLinearMipmapNearest = 0x2701,
                   kNearestMipmapLinear = 0x2702, kLinearMipmapLinear = 0x2703;
constexpr uint32_t kRepeat = 0x2901, kClampToEdge = 0x812F, kMirroredRepeat = 0x8370;
constexpr float kUnclampedLod = 4095.0f / 256.0f;

GlTexLevel level(uint32_t w, uint32_t h, uint32_t format, uint32_t type, Bytes8 pixels, uint32_t align = 1) {
  GlTexLevel l{w, h, format, type, align, nullptr};
  if (!pixels.empty()) l.pixels = std::make_shared<const Bytes8>(std::move(pixels));
  return l;
}

// A texture of `levels` with point filters, no mipmaps and clamped wraps unless changed.
GlTexture texture(std::vector<GlTexLevel> levels, uint32_t min_filter = kNearest) {
  GlTexture t;
  t.levels = std::move(levels);
  t.min_filter = min_filter, t.mag_filter = kNearest;
  t.wrap_s = t.wrap_t = kClampToEdge;
  return t;
}

// The message of what `f` throws as E, or "" when it throws nothing.
template <class E, class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

// ---------------------------------------------------------------- formats
TEST(TextureImage, EachGlFormatConvertsToItsTexelBytesAndSwizzle) {
  constexpr SqSel X = SqSel::X, Y = SqSel::Y, Z = SqSel::Z, W = SqSel::W, k0 = SqSel::Zero, k1 = SqSel::One;
  struct Case {
    const char* what;
    uint32_t format, type, width;
    Bytes8 pixels;
    ImgDataFormat df;
    Sel sel;
    Bytes8 want;
  };
  const Case kCases[] = {
      {"RGBA", kRgba, kUByte, 2, {1, 2, 3, 4, 5, 6, 7, 8}, ImgDataFormat::F8_8_8_8, {X, Y, Z, W},
       {1, 2, 3, 4, 5, 6, 7, 8}},
      {"RGB: alpha stored as 255 and read as One", kRgb, kUByte, 2, {1, 2, 3, 4, 5, 6}, ImgDataFormat::F8_8_8_8,
       {X, Y, Z, k1}, {1, 2, 3, 255, 4, 5, 6, 255}},
      {"LUMINANCE", kLuminance, kUByte, 3, {9, 99, 199}, ImgDataFormat::F8, {X, X, X, k1}, {9, 99, 199}},
      {"LUMINANCE_ALPHA", kLuminanceAlpha, kUByte, 2, {9, 10, 11, 12}, ImgDataFormat::F8_8, {X, X, X, Y},
       {9, 10, 11, 12}},
      {"ALPHA", kAlpha, kUByte, 2, {77, 88}, ImgDataFormat::F8, {k0, k0, k0, X}, {77, 88}},
      // GL: red in bits 15:11, blue in 4:0; (31, 0, 1) = 0xF801 and (0, 63, 0) = 0x07E0, little-endian.
      {"RGB 5_6_5: the GL's bits, red and blue swapped by the swizzle", kRgb, kUShort565, 2, {0x01, 0xF8, 0xE0, 0x07},
       ImgDataFormat::F5_6_5, {Z, Y, X, k1}, {0x01, 0xF8, 0xE0, 0x07}},
      // (15, 8, 4, 12) = 0xF84C; c/15 == 17c/255.
      {"RGBA 4_4_4_4: exact 8-bit values", kRgba, kUShort4444, 1, {0x4C, 0xF8}, ImgDataFormat::F8_8_8_8, {X, Y, Z, W},
       {255, 136, 68, 204}},
      // (31, 1, 16, 1) = 0xF861: 1 * 255/31 = 8.2 -> 8, 16 * 255/31 = 131.6 -> 132.
      {"RGBA 5_5_5_1: colour rounded to 8 bits", kRgba, kUShort5551, 2, {0x61, 0xF8, 0, 0}, ImgDataFormat::F8_8_8_8,
       {X, Y, Z, W}, {255, 8, 132, 255, 0, 0, 0, 0}},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.what);
    const TextureImage ti = texture_image(texture({level(c.width, 1, c.format, c.type, c.pixels)}), "texture 1");
    EXPECT_TRUE(ti.complete);
    EXPECT_EQ(ti.image.data_format, c.df);
    EXPECT_EQ(ti.image.num_format, emu::ImgNumFormat::Unorm);
    EXPECT_EQ(ti.image.dst_sel, c.sel);
    EXPECT_EQ((std::array{ti.image.width, ti.image.height, ti.image.pitch}), (std::array{c.width, 1u, c.width}));
    EXPECT_EQ((std::array{ti.image.base_level, ti.image.last_level}), (std::array{0u, 0u}));
    EXPECT_EQ(ti.image.base, 0u);
    EXPECT_EQ(ti.bytes.size(), emu::image_bytes(ti.image));
    EXPECT_EQ(ti.bytes, c.want);
  }
}

TEST(TextureImage, UnpackAlignmentPaddingIsDropped) {
  // RGB 3x2 at alignment 4: 9-byte rows padded to 12 (the padding is 0xEE).
  const Bytes8 rgb{1, 2, 3, 4, 5, 6, 7, 8, 9, 0xEE, 0xEE, 0xEE, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  const TextureImage a = texture_image(texture({level(3, 2, kRgb, kUByte, rgb, 4)}), "t");
  EXPECT_EQ(a.bytes,
            (Bytes8{1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 11, 12, 13, 255, 14, 15, 16, 255, 17, 18, 19, 255}));
  // LUMINANCE 3x3 at alignment 8 and 2; the last row needs only its own bytes.
  const Bytes8 l8{1, 2, 3, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 4, 5, 6, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 7, 8, 9};
  const Bytes8 l2{1, 2, 3, 0xEE, 4, 5, 6, 0xEE, 7, 8, 9}, want{1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ(texture_image(texture({level(3, 3, kLuminance, kUByte, l8, 8)}), "t").bytes, want);
  EXPECT_EQ(texture_image(texture({level(3, 3, kLuminance, kUByte, l2, 2)}), "t").bytes, want);
}

TEST(TextureImage, ALevelWithoutEnoughPixelsReadsAsZeros) {
  const TextureImage none = texture_image(texture({level(2, 2, kRgba, kUByte, {})}), "render target");
  EXPECT_TRUE(none.complete);
  EXPECT_EQ(none.bytes, Bytes8(16, 0));
  // One byte short of 2 rows of 3 at alignment 4 (4 + 3 bytes needed).
  const TextureImage short_ = texture_image(texture({level(3, 2, kLuminance, kUByte, Bytes8(6, 7), 4)}), "t");
  EXPECT_EQ(short_.bytes, Bytes8(6, 0));
  // RGB without pixels still reads alpha 1.
  EXPECT_EQ(texture_image(texture({level(1, 1, kRgb, kUByte, {})}), "t").bytes, (Bytes8{0, 0, 0, 255}));
}

// ---------------------------------------------------------------- mipmaps
GlTexture generated(GlTexLevel base, uint32_t min_filter = kLinearMipmapLinear) {
  GlTexture t = texture({std::move(base)}, min_filter);
  t.generate_mipmap = true;
  return t;
}

TEST(TextureImage, GeneratedMipmapsOfA4x4AreItsRoundedTwoByTwoMeans) {
  const Bytes8 px{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 255};
  const TextureImage ti = texture_image(generated(level(4, 4, kLuminance, kUByte, px)), "t");
  ASSERT_TRUE(ti.complete);
  EXPECT_EQ(ti.image.last_level, 2u);
  EXPECT_EQ(ti.sampler.max_lod, 2.0f);
  // Level 1: 100/4, 180/4, 420/4, 605/4 = 151.25; level 2: 326/4 = 81.5, halves round up.
  Bytes8 want = px;
  want.insert(want.end(), {25, 45, 105, 151, 82});
  EXPECT_EQ(ti.bytes, want);
  EXPECT_EQ(emu::image_level_offset(ti.image, 1), 16u);
  EXPECT_EQ(emu::image_level_offset(ti.image, 2), 20u);
}

TEST(TextureImage, GeneratedMipmapsOfAnOddSizeWeighEachTexelByTheAreaItCovers) {
  // 5x3 -> 2x1 -> 1x1. Texel (x, y) = 10(x + 1) + 50y; column sums 180, 210, 240, 270, 300.
  // Level 1 texel 0 covers columns 0, 1 and half of 2, all three rows: (2*180 + 2*210 + 240) / 15.
  Bytes8 px;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 5; ++x) px.push_back(uint8_t(10 * (x + 1) + 50 * y));
  const TextureImage ti = texture_image(generated(level(5, 3, kLuminance, kUByte, px)), "t");
  ASSERT_TRUE(ti.complete);
  EXPECT_EQ(ti.image.width, 5u);
  EXPECT_EQ(ti.image.pitch, 5u);
  EXPECT_EQ(ti.image.last_level, 2u);
  Bytes8 want = px;
  want.insert(want.end(), {68, 92, 80});  // 1020/15, 1380/15, (68 + 92)/2
  EXPECT_EQ(ti.bytes, want);
}

TEST(TextureImage, GeneratedMipmapsOfA565TextureAreFilteredPerField) {
  // Red 31, 0, 0, 0 -> 7.75 -> 8; green 63, 63, 0, 0 -> 31.5 -> 32; blue 1, 0, 0, 0 -> 0.
  const Bytes8 px{0xE1, 0xFF, 0xE0, 0x07, 0, 0, 0, 0};  // (31, 63, 1), (0, 63, 0), 0, 0
  const TextureImage ti = texture_image(generated(level(2, 2, kRgb, kUShort565, px)), "t");
  ASSERT_EQ(ti.bytes.size(), 10u);
  const uint32_t v = ti.bytes[8] | uint32_t(ti.bytes[9]) << 8;
  EXPECT_EQ(v, 8u << 11 | 32u << 5);
}

TEST(TextureImage, UploadedMipmapsFollowLevel0InTheLinearLayout) {
  const GlTexture t = texture({level(4, 2, kLuminanceAlpha, kUByte, Bytes8(16, 1)),
                               level(2, 1, kLuminanceAlpha, kUByte, {2, 3, 4, 5}),
                               level(1, 1, kLuminanceAlpha, kUByte, {6, 7}),
                               level(1, 1, kLuminanceAlpha, kUByte, {8, 9})},  // past the chain: ignored
                              kNearestMipmapNearest);
  const TextureImage ti = texture_image(t, "t");
  ASSERT_TRUE(ti.complete);
  EXPECT_EQ(ti.image.last_level, 2u);
  EXPECT_EQ(ti.sampler.max_lod, 2.0f);
  Bytes8 want(16, 1);
  want.insert(want.end(), {2, 3, 4, 5, 6, 7});
  EXPECT_EQ(ti.bytes, want);
}

TEST(TextureImage, WithoutAMipmapFilterOnlyLevel0IsLaidOutAndTheLodIsNotClamped) {
  // Level 1 is the wrong size, but a non-mipmap filter never reads it; an LOD clamp at 0 would
  // make every sample use the mag filter, so the S# leaves the LOD unclamped.
  const GlTexture t =
      texture({level(2, 2, kLuminance, kUByte, {1, 2, 3, 4}), level(3, 3, kLuminance, kUByte, {})}, kLinear);
  const TextureImage ti = texture_image(t, "t");
  EXPECT_TRUE(ti.complete);
  EXPECT_EQ(ti.image.last_level, 0u);
  EXPECT_EQ(ti.sampler.max_lod, kUnclampedLod);
  EXPECT_EQ(ti.bytes, (Bytes8{1, 2, 3, 4}));
  GlTexture gen = t;
  gen.generate_mipmap = true;
  EXPECT_EQ(texture_image(gen, "t").image.last_level, 0u);
}

// Incomplete, and laid out as what GL ES 2.0 samples from it: one RGBA8 texel of (0, 0, 0, 1).
void expect_incomplete(const TextureImage& ti) {
  EXPECT_FALSE(ti.complete);
  EXPECT_EQ(ti.image.data_format, ImgDataFormat::F8_8_8_8);
  EXPECT_EQ((std::array{ti.image.width, ti.image.height, ti.image.last_level}), (std::array{1u, 1u, 0u}));
  EXPECT_EQ(ti.bytes, (Bytes8{0, 0, 0, 255}));
}

TEST(TextureImage, AMissingLevelOrLevel0MakesTheTextureIncomplete) {
  // The GL default min filter (NEAREST_MIPMAP_LINEAR) on a texture with level 0 only.
  GlTexture t = texture({level(4, 4, kRgba, kUByte, Bytes8(64, 9))}, kNearestMipmapLinear);
  expect_incomplete(texture_image(t, "t"));
  t.levels.push_back(level(2, 2, kRgba, kUByte, Bytes8(16, 9)));
  expect_incomplete(texture_image(t, "t"));  // 1x1 still missing
  t.levels.push_back(level(1, 1, kRgba, kUByte, Bytes8(4, 9)));
  EXPECT_TRUE(texture_image(t, "t").complete);
  t.levels[1] = GlTexLevel{};  // a gap the state tracker left when level 2 came first
  expect_incomplete(texture_image(t, "t"));
  // No level 0 at all, whatever the filter.
  expect_incomplete(texture_image(texture({}), "t"));
  expect_incomplete(texture_image(texture({level(0, 0, kRgba, kUByte, {})}), "t"));
}

TEST(TextureImage, AMipmapFilterOverAMisSizedOrMisFormattedLevelIsIncomplete) {
  const GlTexLevel base = level(5, 3, kRgb, kUByte, Bytes8(48, 9), 4);
  // 5x3 -> 2x1 -> 1x1 (rounded down).
  const GlTexture good = texture({base, level(2, 1, kRgb, kUByte, Bytes8(6, 1)), level(1, 1, kRgb, kUByte, {})},
                                 kLinearMipmapNearest);
  EXPECT_TRUE(texture_image(good, "t").complete);
  GlTexture wrong_size = good;
  wrong_size.levels[1].width = 3;  // rounded up
  expect_incomplete(texture_image(wrong_size, "t"));
  GlTexture wrong_format = good;
  wrong_format.levels[2].format = kRgba;
  expect_incomplete(texture_image(wrong_format, "t"));
  GlTexture wrong_type = good;
  wrong_type.levels[2].type = kUShort565;
  expect_incomplete(texture_image(wrong_type, "t"));
}

// ---------------------------------------------------------------- sampler state
TEST(TextureImage, GlFiltersMapToXyAndMipFilters) {
  using F = TexXyFilter;
  using M = TexMipFilter;
  const std::tuple<uint32_t, F, M> kCases[] = {
      {kNearest, F::Point, M::None},               {kLinear, F::Bilinear, M::None},
      {kNearestMipmapNearest, F::Point, M::Point}, {kLinearMipmapNearest, F::Bilinear, M::Point},
      {kNearestMipmapLinear, F::Point, M::Linear}, {kLinearMipmapLinear, F::Bilinear, M::Linear}};
  for (const auto& [gl, xy, mip] : kCases) {
    GlTexture t = texture({level(8, 2, kRgba, kUByte, {})}, gl);
    t.mag_filter = kLinear;
    const emu::SamplerDesc s = gl_sampler_desc(t);
    EXPECT_EQ(s.min_filter, xy) << std::hex << gl;
    EXPECT_EQ(s.mip_filter, mip) << std::hex << gl;
    EXPECT_EQ(s.mag_filter, F::Bilinear);
    EXPECT_EQ(s.min_lod, 0.0f);
    EXPECT_EQ(s.max_lod, mip == M::None ? kUnclampedLod : 3.0f) << std::hex << gl;  // 8x2 -> 1x1: 3 halvings
  }
  GlTexture t = texture({level(8, 2, kRgba, kUByte, {})});
  EXPECT_EQ(gl_sampler_desc(t).mag_filter, TexXyFilter::Point);
}

TEST(TextureImage, GlWrapsMapToWrapClampLastTexelAndMirror) {
  GlTexture t = texture({level(2, 2, kRgba, kUByte, {})});
  const std::pair<uint32_t, TexClamp> kWraps[] = {
      {kRepeat, TexClamp::Wrap}, {kClampToEdge, TexClamp::ClampLastTexel}, {kMirroredRepeat, TexClamp::Mirror}};
  for (const auto& [gl, clamp] : kWraps) {
    t.wrap_s = gl, t.wrap_t = kRepeat;
    EXPECT_EQ(texture_image(t, "t").sampler.clamp, (std::array{clamp, TexClamp::Wrap, TexClamp::Wrap}));
    t.wrap_s = kRepeat, t.wrap_t = gl;
    EXPECT_EQ(gl_sampler_desc(t).clamp, (std::array{TexClamp::Wrap, clamp, TexClamp::Wrap}));
  }
}

// ---------------------------------------------------------------- errors
TEST(TextureImage, UnsupportedFormatsAndTypesAreNotImplementedAndNamedInHex) {
  const std::pair<uint32_t, uint32_t> kUnsupported[] = {
      {0x80E1, kUByte},      // GL_BGRA_EXT
      {kRgba, 0x1406},       // GL_FLOAT
      {kRgba, 0x8D61},       // GL_HALF_FLOAT_OES
      {0x8D64, kUByte},      // GL_ETC1_RGB8_OES
      {kRgb, kUShort4444}};  // a packed type with the wrong format
  for (const auto& [format, type] : kUnsupported) {
    const std::string e = error_of<NotImplementedError>(
        [&, f = format, ty = type] { texture_image(texture({level(1, 1, f, ty, Bytes8(16, 0))}), "texture 3"); });
    EXPECT_NE(e.find("texture 3"), std::string::npos) << e;
    EXPECT_NE(e.find(fmt::format("0x{:04X}", format)), std::string::npos) << e;
    EXPECT_NE(e.find(fmt::format("0x{:04X}", type)), std::string::npos) << e;
  }
}

TEST(TextureImage, ClampAndClampToBorderWrapsAreNotImplemented) {
  for (uint32_t wrap : {0x2900u /* GL_CLAMP */, 0x812Du /* GL_CLAMP_TO_BORDER */}) {
    GlTexture t = texture({level(1, 1, kRgba, kUByte, {})});
    t.wrap_t = wrap;
    const std::string e = error_of<NotImplementedError>([&] { texture_image(t, "texture 4"); });
    EXPECT_NE(e.find(fmt::format("texture 4: texture wrap_t mode 0x{:04X}", wrap)), std::string::npos) << e;
    EXPECT_THROW(gl_sampler_desc(t), NotImplementedError);
  }
}

TEST(TextureImage, UnknownFiltersAndUnpackAlignmentsAreInputErrors) {
  GlTexture t = texture({level(1, 1, kRgba, kUByte, {})});
  t.mag_filter = kLinearMipmapLinear;  // not a magnification filter
  EXPECT_THROW(texture_image(t, "t"), InputError);
  t = texture({level(1, 1, kRgba, kUByte, {})}, 0x1234);
  EXPECT_THROW(texture_image(t, "t"), InputError);
  t = texture({level(1, 1, kRgba, kUByte, Bytes8(4, 0), 3)});
  const std::string e = error_of<InputError>([&] { texture_image(t, "texture 5"); });
  EXPECT_NE(e.find("texture 5: level 0 has unpack alignment 3"), std::string::npos) << e;
}

// ---------------------------------------------------------------- rendered textures
TEST(TextureImage, ARenderedRgba8LevelTakesTheStatesSamplerAndGeneratesItsMipmaps) {
  GlTexture state = texture({level(2, 2, kRgb, kUByte, {})}, kLinearMipmapNearest);  // as glTexImage2D allocated it
  state.wrap_s = kMirroredRepeat;
  state.generate_mipmap = true;
  const Bytes8 rgba{0, 0, 0, 0, 4, 8, 12, 16, 8, 16, 24, 32, 12, 24, 36, 48};
  TextureImage ti = texture_image_from_rgba8(2, 2, rgba.data(), state, "texture 6");
  ASSERT_TRUE(ti.complete);
  EXPECT_EQ(ti.image.data_format, ImgDataFormat::F8_8_8_8);
  EXPECT_EQ(ti.image.dst_sel, (Sel{SqSel::X, SqSel::Y, SqSel::Z, SqSel::W}));
  EXPECT_EQ(ti.image.last_level, 1u);
  EXPECT_EQ(ti.sampler.clamp[0], TexClamp::Mirror);
  EXPECT_EQ(ti.sampler.mip_filter, TexMipFilter::Point);
  EXPECT_EQ(ti.sampler.max_lod, 1.0f);
  Bytes8 want = rgba;
  want.insert(want.end(), {6, 12, 18, 24});
  EXPECT_EQ(ti.bytes, want);
  // Without glGenerateMipmap a mipmap filter finds no chain; a plain filter samples level 0.
  state.generate_mipmap = false;
  expect_incomplete(texture_image_from_rgba8(2, 2, rgba.data(), state, "texture 6"));
  state.min_filter = kLinear;
  ti = texture_image_from_rgba8(2, 2, rgba.data(), state, "texture 6");
  EXPECT_TRUE(ti.complete);
  EXPECT_EQ(ti.image.last_level, 0u);
  EXPECT_EQ(ti.bytes, rgba);
}

// ---------------------------------------------------------------- through the emulator's sampler
using Color = std::array<float, 4>;
using Uv = std::pair<float, float>;

// The colours texture2D(tex, uv) gives at `uvs` in a RADV-compiled pixel shader run on the
// emulator, with `ti` placed in device memory. Lanes form 2x2 quads (top-left, top-right,
// bottom-left, bottom-right) whose uv differences give the sampler its LOD.
std::vector<Color> sample_in_shader(TextureImage ti, const std::vector<Uv>& uvs) {
  static const SpirvProgram sp = compile_to_spirv(
      "attribute vec2 position;\nattribute vec2 tc;\nvarying vec2 uv;\n"
      "void main(){ uv = tc; gl_Position = vec4(position, 0.0, 1.0); }\n",
      "precision mediump float;\nuniform sampler2D tex;\nvarying vec2 uv;\n"
      "void main(){ gl_FragColor = texture2D(tex, uv); }\n",
      {}, "textured");
  static const CompiledPipeline p = compile_pipeline(sp, PipelineKey{}, "textured");
  static const isa::Program program = decode_shader(p.fragment);
  emu::GlobalMemory mem;
  ti.image.base = mem.allocate(ti.bytes.size(), 256, "texture");
  mem.write(ti.image.base, ti.bytes.data(), ti.bytes.size());
  DrawTables tables(mem, sp, p.vertex.args.vertex_inputs);
  tables.bind_sampler("tex", ti.image.encode(), ti.sampler.encode());
  std::vector<PixelLane> pixels(uvs.size());
  for (size_t l = 0; l < uvs.size(); ++l) pixels[l].i = uvs[l].first, pixels[l].j = uvs[l].second;
  emu::Wave w;
  init_pixel_wave(w, p.fragment, tables.bindings(), pixels);
  const float prim[4 * 3] = {0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};  // per channel {P0, P10, P20}: uv = (i, j)
  emu::GraphicsIo io;
  io.param_slots = 1;
  io.lane_params.fill(prim);
  emu::run_graphics_wave(program, w, io, mem, "textured (fragment)");
  std::vector<Color> out(uvs.size());
  for (size_t l = 0; l < uvs.size(); ++l)
    for (int c = 0; c < 4; ++c) out[l][c] = std::bit_cast<float>(io.lanes(emu::kExpMrt0, c)[l]);
  return out;
}

// The colour leaves the shader as fp16 (v_cvt_pkrtz: round toward zero), 11 significant bits.
void expect_color(const Color& got, const Color& want, const std::string& what) {
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(got[c], want[c], want[c] * 1e-3f + 1e-6f) << what << " channel " << c;
}

TEST(TextureImage, ALuminanceTextureSamplesThroughARadvShaderAsGl) {
  // 5x3, not a power of two: texel (x, y) = 10 + 20x + 80y.
  Bytes8 px;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 5; ++x) px.push_back(uint8_t(10 + 20 * x + 80 * y));
  GlTexture t = texture({level(5, 3, kLuminance, kUByte, px)});
  std::vector<Uv> uvs;  // every texel centre, then one more
  for (int i = 0; i < 16; ++i) uvs.push_back({(float(i % 5) + 0.5f) / 5, (float(i / 5 % 3) + 0.5f) / 3});
  const std::vector<Color> point = sample_in_shader(texture_image(t, "t"), uvs);
  for (int i = 0; i < 16; ++i) {
    const float v = float(px[size_t(i / 5 % 3 * 5 + i % 5)]) / 255.0f;
    expect_color(point[size_t(i)], {v, v, v, 1}, "texel " + std::to_string(i));
  }
  // Bilinear, halfway between texels (1, 1) and (2, 1): (110 + 130) / 2.
  t.min_filter = t.mag_filter = kLinear;
  const std::vector<Color> linear = sample_in_shader(texture_image(t, "t"), std::vector<Uv>(4, {2.0f / 5, 1.5f / 3}));
  const float v = 120.0f / 255.0f;
  expect_color(linear[0], {v, v, v, 1}, "bilinear");
}

TEST(TextureImage, A565TextureSamplesItsRedGreenAndBlueExactly) {
  // (31, 0, 1) and (0, 63, 0).
  const TextureImage ti = texture_image(texture({level(2, 1, kRgb, kUShort565, {0x01, 0xF8, 0xE0, 0x07})}), "t");
  const std::vector<Color> got = sample_in_shader(ti, {{0.25f, 0.5f}, {0.75f, 0.5f}, {0.25f, 0.5f}, {0.75f, 0.5f}});
  expect_color(got[0], {1, 0, 1.0f / 31, 1}, "texel 0");
  expect_color(got[1], {0, 1, 0, 1}, "texel 1");
}

TEST(TextureImage, AGeneratedRgbChainIsSampledAtTheLevelTheLodPicksClampedToTheLast) {
  // 4x4 RGB: red the 4x4 of GeneratedMipmapsOfA4x4AreItsRoundedTwoByTwoMeans, green 255 - red, blue 7.
  const Bytes8 red{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 255};
  Bytes8 px;
  for (uint8_t r : red) px.insert(px.end(), {r, uint8_t(255 - r), 7});
  const TextureImage ti = texture_image(generated(level(4, 4, kRgb, kUByte, px), kNearestMipmapNearest), "t");
  // Quads at (0.3, 0.6) spaced d apart: LOD log2(4d) = -2, 1 and 4, which the S# clamps to 2.
  const float kSpacing[] = {1.0f / 16, 0.5f, 4.0f};
  std::vector<Uv> uvs;
  for (float d : kSpacing)
    for (int k = 0; k < 4; ++k) uvs.push_back({0.3f + d * float(k & 1), 0.6f + d * float(k >> 1)});
  const std::vector<Color> got = sample_in_shader(ti, uvs);
  // Every lane of each quad, at the texel its own coordinates pick in the level its quad's LOD
  // selects. Regression: image_sample wrote each lane's colour into registers that were also
  // its quad's coordinates (v[0:3] from v0, v1) before the next lanes took their derivatives.
  std::array<std::vector<int>, 2> level{};  // red and green of the current level, row by row
  for (size_t i = 0; i < red.size(); ++i) level[0].push_back(red[i]), level[1].push_back(255 - red[i]);
  int size = 4;
  for (size_t q = 0; q < 3; ++q) {
    for (int k = 0; k < 4; ++k) {
      const Uv& uv = uvs[4 * q + size_t(k)];
      auto texel = [&](float c) { return std::min(int(c * float(size)), size - 1); };  // clamp to edge, nearest
      const size_t at = size_t(texel(uv.second) * size + texel(uv.first));
      expect_color(got[4 * q + size_t(k)], {float(level[0][at]) / 255, float(level[1][at]) / 255, 7.0f / 255, 1},
                   "quad " + std::to_string(q) + " lane " + std::to_string(k));
    }
    // The next level: each texel the rounded mean of its 2x2 block, halves up.
    for (auto& channel : level) {
      std::vector<int> next;
      for (int y = 0; y < size / 2; ++y)
        for (int x = 0; x < size / 2; ++x) {
          auto v = [&](int dx, int dy) { return channel[size_t((2 * y + dy) * size + 2 * x + dx)]; };
          next.push_back((v(0, 0) + v(1, 0) + v(0, 1) + v(1, 1) + 2) / 4);
        }
      channel = std::move(next);
    }
    size /= 2;
  }
}

}  // namespace
}  // namespace strobe::gfx

namespace strobe::gfx {
namespace {

TEST(TextureImage, AnInternalFormatWithoutAlphaReadsAlphaAsOne) {
  // OpenArena uploads RGBA data into GL_RGB textures: the GL drops the alpha.
  GlTexLevel l{1, 1, 0x1908, 0x1401, 4, std::make_shared<const std::vector<uint8_t>>(std::vector<uint8_t>{9, 8, 7, 0})};
  GlTexture t;
  t.min_filter = 0x2600;
  t.levels = {l};
  EXPECT_EQ(texture_image(t, "t").image.dst_sel[3], emu::SqSel::W);
  t.levels[0].internal_format = 0x1907;  // GL_RGB
  EXPECT_EQ(texture_image(t, "t").image.dst_sel[3], emu::SqSel::One);
  const uint8_t rendered[4] = {1, 2, 3, 0};
  EXPECT_EQ(texture_image_from_rgba8(1, 1, rendered, t, "t").image.dst_sel[3], emu::SqSel::One);
}

}  // namespace
}  // namespace strobe::gfx
