// Clears write whole rectangles row by row; the depth test is a switch on the GL enum, cheap
// enough per fragment that no pre-decoded form is worth having.
#include "gfx/pipeline/render_target.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::gfx {

RenderTarget::RenderTarget(int w, int h, bool float_color) : width(w), height(h), is_float(float_color) {
  if (w < 0 || h < 0) throw InputError(fmt::format("render target {}x{}: negative size", w, h));
  (float_color ? color_f.assign(size_t(w) * size_t(h) * 4, 0.0f) : color.assign(size_t(w) * size_t(h) * 4, 0));
  depth.assign(size_t(w) * size_t(h), 1.0f);
}

void RenderTarget::set_channel(int x, int y, int c, float v) {
  if (is_float) pixel_f(x, y)[c] = v;
  else pixel(x, y)[c] = to_unorm8(v);
}

PixelRect writable_rect(const RenderTarget& rt, const GlFixed& f) {
  PixelRect r{0, 0, rt.width, rt.height};
  if (f.scissor_test) {
    // Widened to 64 bits: x + width of a traced glScissor may overflow an int.
    const int64_t sx = f.scissor[0], sy = f.scissor[1];
    const int64_t ex = sx + std::max<int64_t>(f.scissor[2], 0), ey = sy + std::max<int64_t>(f.scissor[3], 0);
    r.x0 = int(std::clamp<int64_t>(sx, 0, rt.width));
    r.y0 = int(std::clamp<int64_t>(sy, 0, rt.height));
    r.x1 = int(std::clamp<int64_t>(ex, r.x0, rt.width));
    r.y1 = int(std::clamp<int64_t>(ey, r.y0, rt.height));
  }
  return r;
}

void clear(RenderTarget& rt, uint32_t mask, const GlFixed& f) {
  if (mask & ~(kGlColorBufferBit | kGlDepthBufferBit | kGlStencilBufferBit)) return;
  const PixelRect r = writable_rect(rt, f);
  if ((mask & kGlColorBufferBit) && rt.is_float) {
    for (int y = r.y0; y < r.y1; ++y)
      for (int x = r.x0; x < r.x1; ++x)
        for (int c = 0; c < 4; ++c)
          if (f.color_mask[size_t(c)]) rt.pixel_f(x, y)[c] = f.clear_color[size_t(c)];
  } else if (mask & kGlColorBufferBit) {
    uint8_t value[4];
    for (int c = 0; c < 4; ++c) value[c] = to_unorm8(f.clear_color[size_t(c)]);
    for (int y = r.y0; y < r.y1; ++y)
      for (int x = r.x0; x < r.x1; ++x) {
        uint8_t* p = rt.pixel(x, y);
        for (int c = 0; c < 4; ++c)
          if (f.color_mask[size_t(c)]) p[c] = value[c];
      }
  }
  if ((mask & kGlDepthBufferBit) && f.depth_mask) {
    const float d = std::clamp(f.clear_depth, 0.0f, 1.0f);
    for (int y = r.y0; y < r.y1; ++y) std::fill_n(rt.depth.data() + rt.index(r.x0, y), r.x1 - r.x0, d);
  }
  // GL_STENCIL_BUFFER_BIT: no stencil buffer is modelled yet, so there is nothing to clear.
}

bool depth_passes(uint32_t gl_func, float fragment, float stored) {
  switch (gl_func) {
    case kGlNever: return false;
    case kGlLess: return fragment < stored;
    case kGlEqual: return fragment == stored;
    case kGlLequal: return fragment <= stored;
    case kGlGreater: return fragment > stored;
    case kGlNotequal: return fragment != stored;
    case kGlGequal: return fragment >= stored;
    case kGlAlways: return true;
    default: throw InputError(fmt::format("depth function {:#06x}: not a GL comparison function", gl_func));
  }
}

}  // namespace strobe::gfx
