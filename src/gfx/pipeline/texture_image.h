// A GL 2D texture, as the GL state tracker recorded it, turned into what strobe's image sampler
// (emu/mimg.cpp) reads: every level's texels in strobe's linear layout (emu/image_desc.h), the
// T# that describes them and the S# for the texture's filters and wraps.
//
// Formats. GCN3 has no 24-bit or luminance formats, so the GL formats map onto the sampler's
// with a dst_sel swizzle:
//   RGBA / UNSIGNED_BYTE             -> 8_8_8_8 UNORM, (X, Y, Z, W)
//   RGB / UNSIGNED_BYTE              -> 8_8_8_8 UNORM with alpha 255, (X, Y, Z, One)
//   LUMINANCE / UNSIGNED_BYTE        -> 8 UNORM, (X, X, X, One)
//   LUMINANCE_ALPHA / UNSIGNED_BYTE  -> 8_8 UNORM, (X, X, X, Y)
//   ALPHA / UNSIGNED_BYTE            -> 8 UNORM, (Zero, Zero, Zero, X)
//   RGB / UNSIGNED_SHORT_5_6_5       -> 5_6_5 UNORM, (Z, Y, X, One): the GL's 16-bit value as
//       uploaded. GL puts red in bits 15:11 and blue in 4:0; the sampler reads x from bits 4:0
//       and z from 15:11, so swapping X and Z reads red, green and blue exactly as GL's c/31 and
//       c/63, with no conversion and no precision lost.
//   RGBA / UNSIGNED_SHORT_4_4_4_4    -> 8_8_8_8 UNORM (the sampler has no 4_4_4_4): c * 17,
//       which is exact (c/15 == 17c/255).
//   RGBA / UNSIGNED_SHORT_5_5_5_1    -> 8_8_8_8 UNORM (the sampler has no 5_5_5_1): colour
//       channels round(c * 255 / 31), within half an 8-bit step of c/31; alpha 0 or 255.
// Packed 16-bit pixels are read little-endian, as the captures' x86 hosts stored them. Other
// formats and types (compressed, float, BGRA, ...) are NotImplementedErrors.
//
// Mipmaps. glGenerateMipmap's levels are computed here from level 0 by a box filter: level
// L + 1 is max(1, w/2) x max(1, h/2) and each of its texels is the area-weighted mean of the
// level-L texels its footprint covers, rounded to nearest. For even sizes that is the 2x2 mean;
// along an odd axis of n texels each footprint spans n / (n/2) texels (for 5 -> 2: 1, 1 and half
// of the middle texel), so every source texel counts and counts equally. Packed formats are
// filtered per field (5_6_5 in 5- and 6-bit steps), as the GL keeps a level's format.
// Non-power-of-two textures are complete with every filter and wrap, as with OES_texture_npot
// (core in GL ES 3.0), where bare GL ES 2.0 would call a mipmapped or repeating one incomplete.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emu/image_desc.h"
#include "gfx/stream/gl_state.h"

namespace strobe::gfx {

/// A texture laid out for strobe's image sampler: every level's texels in the linear layout of
/// emu::image_level_offset, and the descriptors that read them (image.base is 0 until placed).
struct TextureImage {
  emu::ImageDesc image;
  emu::SamplerDesc sampler;
  std::vector<uint8_t> bytes;  ///< emu::image_bytes(image) bytes
  /// False when the texture is GL-incomplete (no level 0, or a mipmapping min filter over a
  /// chain with a missing or mis-sized level). GL ES 2.0 samples such a texture as (0, 0, 0, 1);
  /// the image is then a 1x1 RGBA8 texel of exactly that, so binding it as-is gives GL's result.
  bool complete = true;
};

/// Converts a GL texture. `name` labels errors (e.g. "texture 3"): an unsupported format, type
/// or wrap mode is a NotImplementedError, an unknown filter or unpack alignment an InputError.
/// Only level 0 is laid out unless the min filter uses mipmaps; then the whole chain down to
/// 1x1 is, generated from level 0 when t.generate_mipmap, else from the uploaded levels.
TextureImage texture_image(const GlTexture& t, const std::string& name);

/// A texture whose level 0 the pipeline rendered itself (RGBA8, rows bottom-up, tightly packed:
/// width * height * 4 bytes at `rgba`), sampled with `state`'s filters and wraps (its levels are
/// ignored); mipmaps are generated when state.generate_mipmap and the min filter uses them. A
/// mipmapping min filter without state.generate_mipmap leaves it incomplete (above 1x1).
TextureImage texture_image_from_rgba8(uint32_t width, uint32_t height, const uint8_t* rgba, const GlTexture& state,
                                      const std::string& name);

/// The S# for a GL texture's sampler state. max_lod is the last level of a full mip chain for
/// t's level 0 when the min filter uses mipmaps, else unclamped (see texture_image.cpp).
emu::SamplerDesc gl_sampler_desc(const GlTexture& t);

}  // namespace strobe::gfx
