// GCN3 image resource (T#, 8 dwords) and sampler (S#, 4 dwords) descriptors: decoded into plain
// fields for the emulator's image_sample, encoded for the graphics pipeline that fills descriptor
// sets. Bit positions are GFX8's, from Mesa's register header (src/amd/common/sid.h at TTimo/mesa
// 0d7d62fa: SQ_IMG_RSRC_WORD0..7 = R_008F10..R_008F2C, SQ_IMG_SAMP_WORD0..3 = R_008F30..R_008F3C);
// every field below names the S_008Fxx_ macro it mirrors. Decoding never throws: values strobe
// cannot sample with are reported by the sampler, as faults naming the instruction.
//
// Texel memory is linear: strobe writes its textures itself, so it lays them out row by row
// where real hardware would tile them (TILING_INDEX is ignored). Mip level L of a 2D image is
// max(1, width >> L) by max(1, height >> L) texels in rows of max(1, pitch >> L) texels, and the
// levels follow one another from the base address without padding (image_level_offset).
#pragma once

#include <array>
#include <cstdint>

namespace strobe::emu {

/// IMG_DATA_FORMAT (sid.h V_008F14_IMG_DATA_FORMAT_*): the texel's bit layout.
enum class ImgDataFormat : uint8_t {
  Invalid = 0x00, F8 = 0x01, F16 = 0x02, F8_8 = 0x03, F32 = 0x04, F16_16 = 0x05,
  F10_11_11 = 0x06, F11_11_10 = 0x07, F10_10_10_2 = 0x08, F2_10_10_10 = 0x09, F8_8_8_8 = 0x0A,
  F32_32 = 0x0B, F16_16_16_16 = 0x0C, F32_32_32 = 0x0D, F32_32_32_32 = 0x0E,
  F5_6_5 = 0x10, F1_5_5_5 = 0x11, F5_5_5_1 = 0x12, F4_4_4_4 = 0x13, F8_24 = 0x14, F24_8 = 0x15,
  X24_8_32 = 0x16, BC1 = 0x23, BC2 = 0x24, BC3 = 0x25, BC4 = 0x26, BC5 = 0x27, BC6 = 0x28, BC7 = 0x29,
};

/// IMG_NUM_FORMAT (sid.h V_008F14_IMG_NUM_FORMAT_*): how each component's bits read as a number.
enum class ImgNumFormat : uint8_t {
  Unorm = 0, Snorm = 1, Uscaled = 2, Sscaled = 3, Uint = 4, Sint = 5, SnormOgl = 6, Float = 7, Srgb = 9,
};

/// SQ_SEL (sid.h V_008F1C_SQ_SEL_*): what a result channel reads (dst_sel swizzle).
enum class SqSel : uint8_t { Zero = 0, One = 1, X = 4, Y = 5, Z = 6, W = 7 };

/// SQ_RSRC_IMG (sid.h V_008F1C_SQ_RSRC_IMG_*): the image's dimensionality.
enum class ImgType : uint8_t {
  T1D = 8, T2D = 9, T3D = 10, Cube = 11, T1DArray = 12, T2DArray = 13, T2DMsaa = 14, T2DMsaaArray = 15,
};

/// SQ_TEX_CLAMP (sid.h V_008F30_SQ_TEX_*): the addressing mode of one coordinate.
enum class TexClamp : uint8_t {
  Wrap = 0, Mirror = 1, ClampLastTexel = 2, MirrorOnceLastTexel = 3,
  ClampHalfBorder = 4, MirrorOnceHalfBorder = 5, ClampBorder = 6, MirrorOnceBorder = 7,
};

/// SQ_TEX_XY_FILTER (sid.h V_008F38_SQ_TEX_XY_FILTER_*).
enum class TexXyFilter : uint8_t { Point = 0, Bilinear = 1, AnisoPoint = 2, AnisoBilinear = 3 };

/// SQ_TEX_Z_FILTER (sid.h V_008F38_SQ_TEX_Z_FILTER_*), also the mip filter's values.
enum class TexMipFilter : uint8_t { None = 0, Point = 1, Linear = 2 };

/// SQ_TEX_BORDER_COLOR (sid.h V_008F3C_SQ_TEX_BORDER_COLOR_*).
enum class TexBorder : uint8_t { TransBlack = 0, OpaqueBlack = 1, OpaqueWhite = 2, Register = 3 };

/// An image resource descriptor (T#). Sizes are the real counts (the words hold count - 1).
struct ImageDesc {
  /// Byte address of level 0, 256-byte aligned: word0 holds bits 39:8, S_008F14_BASE_ADDRESS_HI bits 47:40.
  uint64_t base = 0;
  float min_lod = 0;          ///< S_008F14_MIN_LOD: u4.8 resource LOD clamp
  ImgDataFormat data_format = ImgDataFormat::Invalid;  ///< S_008F14_DATA_FORMAT
  ImgNumFormat num_format = ImgNumFormat::Unorm;       ///< S_008F14_NUM_FORMAT
  uint32_t width = 1;         ///< S_008F18_WIDTH + 1
  uint32_t height = 1;        ///< S_008F18_HEIGHT + 1
  std::array<SqSel, 4> dst_sel{SqSel::X, SqSel::Y, SqSel::Z, SqSel::W};  ///< S_008F1C_DST_SEL_X..W
  uint32_t base_level = 0;    ///< S_008F1C_BASE_LEVEL: first level sampled (LOD 0)
  uint32_t last_level = 0;    ///< S_008F1C_LAST_LEVEL
  ImgType type = ImgType::T2D;  ///< S_008F1C_TYPE
  uint32_t depth = 1;         ///< S_008F20_DEPTH + 1 (3D depth, or the layer count of arrays)
  uint32_t pitch = 1;         ///< S_008F20_PITCH + 1: texels per row of level 0
  uint32_t base_array = 0;    ///< S_008F24_BASE_ARRAY
  uint32_t last_array = 0;    ///< S_008F24_LAST_ARRAY

  /// Reads the 8 dwords of a T#; fields strobe does not model (tiling, DCC, perf hints) drop.
  static ImageDesc decode(const uint32_t* words);
  /// The 8 dwords of this T#; fields strobe does not model are zero.
  std::array<uint32_t, 8> encode() const;
  bool operator==(const ImageDesc&) const = default;
};

/// A sampler descriptor (S#).
struct SamplerDesc {
  std::array<TexClamp, 3> clamp{TexClamp::Wrap, TexClamp::Wrap, TexClamp::Wrap};  ///< S_008F30_CLAMP_X/Y/Z
  uint32_t max_aniso_ratio = 0;     ///< S_008F30_MAX_ANISO_RATIO
  uint32_t depth_compare_func = 0;  ///< S_008F30_DEPTH_COMPARE_FUNC
  bool force_unnormalized = false;  ///< S_008F30_FORCE_UNNORMALIZED: coordinates are in texels
  uint32_t filter_mode = 0;         ///< S_008F30_FILTER_MODE: 0 blend, 1 min, 2 max (reduction)
  float min_lod = 0;                ///< S_008F34_MIN_LOD: u4.8
  float max_lod = 0;                ///< S_008F34_MAX_LOD: u4.8
  float lod_bias = 0;               ///< S_008F38_LOD_BIAS: s5.8
  TexXyFilter mag_filter = TexXyFilter::Point;  ///< S_008F38_XY_MAG_FILTER
  TexXyFilter min_filter = TexXyFilter::Point;  ///< S_008F38_XY_MIN_FILTER
  TexMipFilter z_filter = TexMipFilter::None;   ///< S_008F38_Z_FILTER (3D images)
  TexMipFilter mip_filter = TexMipFilter::None; ///< S_008F38_MIP_FILTER
  uint32_t border_color_ptr = 0;    ///< S_008F3C_BORDER_COLOR_PTR: entry of the border colour table
  TexBorder border = TexBorder::TransBlack;     ///< S_008F3C_BORDER_COLOR_TYPE

  /// Reads the 4 dwords of an S#; fields strobe does not model (aniso tuning, precision hints) drop.
  static SamplerDesc decode(const uint32_t* words);
  /// The 4 dwords of this S#. LODs are truncated to 1/256 within their fields' ranges, as Mesa's S_FIXED does.
  std::array<uint32_t, 4> encode() const;
  bool operator==(const SamplerDesc&) const = default;
};

/// Bytes of one texel of `f`; 0 for block-compressed and unknown formats.
uint32_t image_texel_bytes(ImgDataFormat f);

/// Byte offset of mip level `level` (counted from the resource's level 0, not base_level) from
/// the T#'s base address, in strobe's linear layout: the sum of the sizes of the levels before
/// it, each max(1, pitch >> l) * max(1, height >> l) texels (one layer; 1D images have height 1).
uint64_t image_level_offset(const ImageDesc& d, uint32_t level);

/// Bytes of the whole image in strobe's linear layout: levels 0 to last_level.
inline uint64_t image_bytes(const ImageDesc& d) { return image_level_offset(d, d.last_level + 1); }

/// The mnemonic of a data format ("8_8_8_8", "BC1"), or "?" for reserved values.
const char* img_data_format_name(ImgDataFormat f);

}  // namespace strobe::emu
