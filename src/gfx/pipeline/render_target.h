// The framebuffer a frame is drawn into, and the per-pixel operations on it that need no shader:
// glClear and the depth test. Colour is RGBA8 unorm and depth one float per pixel; rows are in
// GL window order (row 0 at the bottom), as the rasteriser's fragments address them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gfx/pipeline/raster.h"
#include "gfx/stream/gl_state.h"

namespace strobe::gfx {

/// GL enums glClear's mask and glDepthFunc take.
inline constexpr uint32_t kGlColorBufferBit = 0x4000;
inline constexpr uint32_t kGlDepthBufferBit = 0x0100;
inline constexpr uint32_t kGlStencilBufferBit = 0x0400;
inline constexpr uint32_t kGlNever = 0x0200, kGlLess = 0x0201, kGlEqual = 0x0202, kGlLequal = 0x0203,
                          kGlGreater = 0x0204, kGlNotequal = 0x0205, kGlGequal = 0x0206, kGlAlways = 0x0207;

/// A colour and depth buffer of width x height pixels. The colour is RGBA8 unorm, or 32-bit
/// float for a floating-point attachment (GL_RGBA16F, ...), whose values the GL never clamps.
struct RenderTarget {
  int width = 0, height = 0;
  bool is_float = false;         ///< colour lives in color_f rather than color
  std::vector<uint8_t> color;    ///< RGBA8, 4 bytes per pixel, row 0 = bottom row (GL window coordinates)
  std::vector<float> color_f;    ///< RGBA float, 4 per pixel, same order (floating-point targets)
  std::vector<float> depth;      ///< one per pixel, same order

  RenderTarget() = default;
  /// A target cleared to transparent black and depth 1.0 (the GL's initial clear values); a
  /// negative size is an InputError.
  RenderTarget(int width, int height, bool float_color = false);
  /// A floating-point target's pixel: 4 floats (unchecked, per fragment).
  float* pixel_f(int x, int y) { return color_f.data() + 4 * index(x, y); }
  /// A floating-point target's pixel, read-only.
  const float* pixel_f(int x, int y) const { return color_f.data() + 4 * index(x, y); }
  /// Channel `c` of pixel (x, y) as a float: unorm bytes over 255, float targets as stored.
  float channel(int x, int y, int c) const { return is_float ? pixel_f(x, y)[c] : float(pixel(x, y)[c]) / 255.0f; }
  /// Sets channel `c` of pixel (x, y): a unorm target clamps and rounds, a float one stores.
  void set_channel(int x, int y, int c, float v);

  /// Whether (x, y) lies inside the target.
  bool contains(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
  /// The pixel's index in depth (and a quarter of its offset in color); (x, y) must be inside.
  size_t index(int x, int y) const { return size_t(y) * size_t(width) + size_t(x); }
  /// The pixel's 4 RGBA bytes; (x, y) must be inside (unchecked: this is the per-fragment path).
  uint8_t* pixel(int x, int y) { return color.data() + 4 * index(x, y); }
  /// The pixel's 4 RGBA bytes, read-only.
  const uint8_t* pixel(int x, int y) const { return color.data() + 4 * index(x, y); }
  /// The pixel's stored depth.
  float& depth_at(int x, int y) { return depth[index(x, y)]; }
  /// The pixel's stored depth, read-only.
  float depth_at(int x, int y) const { return depth[index(x, y)]; }
};

/// The pixels per-fragment operations and clears may write: the whole target, cut to the scissor
/// box when the scissor test is on (empty when they do not overlap).
PixelRect writable_rect(const RenderTarget& rt, const GlFixed& f);

/// glClear(mask) with the state in `f`: colour to clear_color (clamped to [0,1], rounded to the
/// nearest unorm8) in the channels color_mask enables; depth to clear_depth (clamped) when
/// depth_mask allows; both only inside writable_rect. GL_STENCIL_BUFFER_BIT is accepted and does
/// nothing, as there is no stencil buffer yet. A mask with any other bit is GL_INVALID_VALUE, for
/// which the GL clears nothing, and nor does this.
void clear(RenderTarget& rt, uint32_t mask, const GlFixed& f);

/// Whether a fragment at depth `fragment` passes glDepthFunc(gl_func) against `stored`.
/// An enum outside GL_NEVER..GL_ALWAYS is an InputError naming it.
bool depth_passes(uint32_t gl_func, float fragment, float stored);

/// `v` clamped to [0,1] (NaN to 0) and rounded to the nearest unorm8, as the GL converts a colour
/// for a fixed-point buffer.
inline uint8_t to_unorm8(float v) {
  const float c = v > 0 ? (v < 1 ? v : 1.0f) : 0.0f;  // written so that NaN ends at 0
  return uint8_t(c * 255.0f + 0.5f);
}

}  // namespace strobe::gfx
