// The T# and S# layouts of GFX8: each field at the bit position Mesa's sid.h gives it, encode
// and decode inverse to each other, and strobe's linear mip layout.
#include "emu/image_desc.h"

#include <gtest/gtest.h>

namespace strobe::emu {
namespace {

TEST(ImageDescriptors, ImageDescriptorFieldsSitAtGfx8BitPositionsAndRoundTrip) {
  ImageDesc d;
  d.base = 0x12'3456'7800;
  d.min_lod = 1.5f;
  d.data_format = ImgDataFormat::F8_8_8_8;
  d.num_format = ImgNumFormat::Srgb;
  d.width = 5, d.height = 3;
  d.dst_sel = {SqSel::Z, SqSel::Y, SqSel::X, SqSel::One};
  d.base_level = 2, d.last_level = 7;
  d.type = ImgType::T2DArray;
  d.depth = 6, d.pitch = 8;
  d.base_array = 1, d.last_array = 4;
  const auto w = d.encode();
  EXPECT_EQ(w[0], 0x12345678u);                                              // address bits 39:8
  EXPECT_EQ(w[1], 0x00u | 384u << 8 | 10u << 20 | 9u << 26);                 // hi, MIN_LOD 1.5*256, formats
  EXPECT_EQ(w[2], 4u | 2u << 14);                                            // WIDTH-1, HEIGHT-1
  EXPECT_EQ(w[3], 6u | 5u << 3 | 4u << 6 | 1u << 9 | 2u << 12 | 7u << 16 | 13u << 28);
  EXPECT_EQ(w[4], 5u | 7u << 13);                                            // DEPTH-1, PITCH-1
  EXPECT_EQ(w[5], 1u | 4u << 13);
  EXPECT_EQ(w[6], 0u);
  EXPECT_EQ(w[7], 0u);
  EXPECT_EQ(ImageDesc::decode(w.data()), d);
  // Bits strobe does not model (PERF_MOD, TILING_INDEX, POW2_PAD) are ignored by decode.
  auto with_extras = w;
  with_extras[2] |= 4u << 28, with_extras[3] |= 9u << 20 | 1u << 25;
  EXPECT_EQ(ImageDesc::decode(with_extras.data()), d);
  ImageDesc high;
  high.base = 0xAB12'0000'0100;  // bits 47:40 land in word1's low byte
  EXPECT_EQ(high.encode()[0], 0x12000001u);
  EXPECT_EQ(high.encode()[1] & 0xFF, 0xABu);
  EXPECT_EQ(ImageDesc::decode(high.encode().data()).base, high.base);
}

TEST(ImageDescriptors, SamplerDescriptorFieldsSitAtGfx8BitPositionsAndRoundTrip) {
  SamplerDesc s;
  s.clamp = {TexClamp::Mirror, TexClamp::ClampBorder, TexClamp::MirrorOnceLastTexel};
  s.force_unnormalized = true;
  s.min_lod = 0.5f, s.max_lod = 12.25f, s.lod_bias = -3.75f;
  s.mag_filter = TexXyFilter::Bilinear;
  s.min_filter = TexXyFilter::Point;
  s.mip_filter = TexMipFilter::Linear;
  s.border = TexBorder::OpaqueWhite;
  const auto w = s.encode();
  EXPECT_EQ(w[0], 1u | 6u << 3 | 3u << 6 | 1u << 15);
  EXPECT_EQ(w[1], 128u | 3136u << 12);                   // u4.8: 0.5, 12.25
  EXPECT_EQ(w[2], (0x4000u - 960u) | 1u << 20 | 2u << 26);  // s5.8 -3.75 in 14 bits
  EXPECT_EQ(w[3], 2u << 30);
  EXPECT_EQ(SamplerDesc::decode(w.data()), s);
  // RADV's GFX8 precision and compatibility bits (COMPAT_MODE, MIP_POINT_PRECLAMP, ...) are ignored.
  auto radv = w;
  radv[0] |= 1u << 31, radv[2] |= 0xFu << 28;
  EXPECT_EQ(SamplerDesc::decode(radv.data()), s);
  SamplerDesc far;
  far.max_lod = 100, far.lod_bias = 40;  // clamped to the fields' ranges
  EXPECT_EQ(SamplerDesc::decode(far.encode().data()).max_lod, 4095.0f / 256);
  EXPECT_EQ(SamplerDesc::decode(far.encode().data()).lod_bias, 8191.0f / 256);
}

TEST(ImageDescriptors, LevelsFollowEachOtherInRowsOfTheHalvedPitch) {
  ImageDesc d;
  d.data_format = ImgDataFormat::F8_8_8_8;
  d.width = 4, d.height = 4, d.pitch = 6, d.last_level = 2;
  EXPECT_EQ(image_level_offset(d, 0), 0u);
  EXPECT_EQ(image_level_offset(d, 1), 6u * 4 * 4);
  EXPECT_EQ(image_level_offset(d, 2), 96u + 3 * 2 * 4);
  EXPECT_EQ(image_bytes(d), 120u + 1 * 1 * 4);
}

}  // namespace
}  // namespace strobe::emu
