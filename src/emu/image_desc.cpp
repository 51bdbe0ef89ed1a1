// T# and S# bit layouts of GFX8. Every shift and width below is the one of the sid.h macro named
// beside it (Mesa src/amd/common/sid.h, TTimo/mesa 0d7d62fa; R_008F10..R_008F3C).
#include "emu/image_desc.h"

#include <algorithm>
#include <cmath>

namespace strobe::emu {
namespace {

constexpr uint32_t get(uint32_t word, unsigned shift, unsigned bits) { return (word >> shift) & ((1u << bits) - 1); }
constexpr uint32_t put(uint32_t value, unsigned shift, unsigned bits) { return (value & ((1u << bits) - 1)) << shift; }

// Unsigned 4.8 fixed point (S_008F14_MIN_LOD, S_008F34_MIN_LOD/MAX_LOD): 12 bits, [0, 16).
float from_u4_8(uint32_t v) { return float(v) / 256.0f; }
uint32_t to_u4_8(float f) {
  const float c = std::clamp(std::isnan(f) ? 0.0f : f, 0.0f, 4095.0f / 256.0f);
  return uint32_t(c * 256.0f);  // truncation, as Mesa's S_FIXED
}

// Signed 5.8 fixed point in 14 bits (S_008F38_LOD_BIAS): [-32, 32).
float from_s5_8(uint32_t v) { return float(int32_t(v << 18) >> 18) / 256.0f; }
uint32_t to_s5_8(float f) {
  const float c = std::clamp(std::isnan(f) ? 0.0f : f, -32.0f, 8191.0f / 256.0f);
  return uint32_t(int32_t(c * 256.0f)) & 0x3FFF;
}

}  // namespace

ImageDesc ImageDesc::decode(const uint32_t* w) {
  ImageDesc d;
  // word0: address bits 39:8; S_008F14_BASE_ADDRESS_HI (word1 [7:0]): bits 47:40.
  d.base = (uint64_t(w[0]) | uint64_t(get(w[1], 0, 8)) << 32) << 8;
  d.min_lod = from_u4_8(get(w[1], 8, 12));                   // S_008F14_MIN_LOD [19:8]
  d.data_format = ImgDataFormat(get(w[1], 20, 6));           // S_008F14_DATA_FORMAT [25:20]
  d.num_format = ImgNumFormat(get(w[1], 26, 4));             // S_008F14_NUM_FORMAT [29:26]
  d.width = get(w[2], 0, 14) + 1;                            // S_008F18_WIDTH [13:0]
  d.height = get(w[2], 14, 14) + 1;                          // S_008F18_HEIGHT [27:14]
  for (int c = 0; c < 4; ++c) d.dst_sel[c] = SqSel(get(w[3], 3 * c, 3));  // S_008F1C_DST_SEL_X..W [11:0]
  d.base_level = get(w[3], 12, 4);                           // S_008F1C_BASE_LEVEL [15:12]
  d.last_level = get(w[3], 16, 4);                           // S_008F1C_LAST_LEVEL [19:16]
  d.type = ImgType(get(w[3], 28, 4));                        // S_008F1C_TYPE [31:28]
  d.depth = get(w[4], 0, 13) + 1;                            // S_008F20_DEPTH [12:0]
  d.pitch = get(w[4], 13, 14) + 1;                           // S_008F20_PITCH [26:13]
  d.base_array = get(w[5], 0, 13);                           // S_008F24_BASE_ARRAY [12:0]
  d.last_array = get(w[5], 13, 13);                          // S_008F24_LAST_ARRAY [25:13]
  return d;
}

std::array<uint32_t, 8> ImageDesc::encode() const {
  std::array<uint32_t, 8> w{};
  w[0] = uint32_t(base >> 8);
  w[1] = put(uint32_t(base >> 40), 0, 8) | put(to_u4_8(min_lod), 8, 12) | put(uint32_t(data_format), 20, 6) |
         put(uint32_t(num_format), 26, 4);
  w[2] = put(width - 1, 0, 14) | put(height - 1, 14, 14);
  for (int c = 0; c < 4; ++c) w[3] |= put(uint32_t(dst_sel[c]), 3 * c, 3);
  w[3] |= put(base_level, 12, 4) | put(last_level, 16, 4) | put(uint32_t(type), 28, 4);
  w[4] = put(depth - 1, 0, 13) | put(pitch - 1, 13, 14);
  w[5] = put(base_array, 0, 13) | put(last_array, 13, 13);
  return w;
}

SamplerDesc SamplerDesc::decode(const uint32_t* w) {
  SamplerDesc s;
  for (int c = 0; c < 3; ++c) s.clamp[c] = TexClamp(get(w[0], 3 * c, 3));  // S_008F30_CLAMP_X/Y/Z [8:0]
  s.max_aniso_ratio = get(w[0], 9, 3);                       // S_008F30_MAX_ANISO_RATIO [11:9]
  s.depth_compare_func = get(w[0], 12, 3);                   // S_008F30_DEPTH_COMPARE_FUNC [14:12]
  s.force_unnormalized = get(w[0], 15, 1);                   // S_008F30_FORCE_UNNORMALIZED [15]
  s.filter_mode = get(w[0], 29, 2);                          // S_008F30_FILTER_MODE [30:29]
  s.min_lod = from_u4_8(get(w[1], 0, 12));                   // S_008F34_MIN_LOD [11:0]
  s.max_lod = from_u4_8(get(w[1], 12, 12));                  // S_008F34_MAX_LOD [23:12]
  s.lod_bias = from_s5_8(get(w[2], 0, 14));                  // S_008F38_LOD_BIAS [13:0]
  s.mag_filter = TexXyFilter(get(w[2], 20, 2));              // S_008F38_XY_MAG_FILTER [21:20]
  s.min_filter = TexXyFilter(get(w[2], 22, 2));              // S_008F38_XY_MIN_FILTER [23:22]
  s.z_filter = TexMipFilter(get(w[2], 24, 2));               // S_008F38_Z_FILTER [25:24]
  s.mip_filter = TexMipFilter(get(w[2], 26, 2));             // S_008F38_MIP_FILTER [27:26]
  s.border_color_ptr = get(w[3], 0, 12);                     // S_008F3C_BORDER_COLOR_PTR [11:0]
  s.border = TexBorder(get(w[3], 30, 2));                    // S_008F3C_BORDER_COLOR_TYPE [31:30]
  return s;
}

std::array<uint32_t, 4> SamplerDesc::encode() const {
  std::array<uint32_t, 4> w{};
  for (int c = 0; c < 3; ++c) w[0] |= put(uint32_t(clamp[c]), 3 * c, 3);
  w[0] |= put(max_aniso_ratio, 9, 3) | put(depth_compare_func, 12, 3) | put(force_unnormalized, 15, 1) |
          put(filter_mode, 29, 2);
  w[1] = put(to_u4_8(min_lod), 0, 12) | put(to_u4_8(max_lod), 12, 12);
  w[2] = put(to_s5_8(lod_bias), 0, 14) | put(uint32_t(mag_filter), 20, 2) | put(uint32_t(min_filter), 22, 2) |
         put(uint32_t(z_filter), 24, 2) | put(uint32_t(mip_filter), 26, 2);
  w[3] = put(border_color_ptr, 0, 12) | put(uint32_t(border), 30, 2);
  return w;
}

uint32_t image_texel_bytes(ImgDataFormat f) {
  switch (f) {
    case ImgDataFormat::F8: return 1;
    case ImgDataFormat::F16: case ImgDataFormat::F8_8: case ImgDataFormat::F5_6_5: case ImgDataFormat::F1_5_5_5:
    case ImgDataFormat::F5_5_5_1: case ImgDataFormat::F4_4_4_4: return 2;
    case ImgDataFormat::F32: case ImgDataFormat::F16_16: case ImgDataFormat::F10_11_11: case ImgDataFormat::F11_11_10:
    case ImgDataFormat::F10_10_10_2: case ImgDataFormat::F2_10_10_10: case ImgDataFormat::F8_8_8_8:
    case ImgDataFormat::F8_24: case ImgDataFormat::F24_8: return 4;
    case ImgDataFormat::F32_32: case ImgDataFormat::F16_16_16_16: case ImgDataFormat::X24_8_32: return 8;
    case ImgDataFormat::F32_32_32: return 12;
    case ImgDataFormat::F32_32_32_32: return 16;
    default: return 0;
  }
}

uint64_t image_level_offset(const ImageDesc& d, uint32_t level) {
  const uint64_t texel = image_texel_bytes(d.data_format);
  const bool one_row = d.type == ImgType::T1D || d.type == ImgType::T1DArray;
  uint64_t offset = 0;
  for (uint32_t l = 0; l < level; ++l) {
    const uint64_t pitch = std::max(1u, d.pitch >> l), rows = one_row ? 1 : std::max(1u, d.height >> l);
    offset += pitch * rows * texel;
  }
  return offset;
}

const char* img_data_format_name(ImgDataFormat f) {
  static constexpr const char* kNames[] = {
      "INVALID", "8", "16", "8_8", "32", "16_16", "10_11_11", "11_11_10", "10_10_10_2", "2_10_10_10", "8_8_8_8",
      "32_32", "16_16_16_16", "32_32_32", "32_32_32_32", "?", "5_6_5", "1_5_5_5", "5_5_5_1", "4_4_4_4", "8_24",
      "24_8", "X24_8_32", "?", "ETC2_RGB", "ETC2_RGBA", "ETC2_R", "ETC2_RG", "ETC2_RGBA1", "?", "?", "?", "GB_GR",
      "BG_RG", "5_9_9_9", "BC1", "BC2", "BC3", "BC4", "BC5", "BC6", "BC7"};
  return size_t(f) < std::size(kNames) ? kNames[size_t(f)] : "?";
}

}  // namespace strobe::emu
