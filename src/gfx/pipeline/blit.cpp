// glBlitFramebuffer as the GL defines it: each destination pixel centre maps back into the source
// rectangle (either may be mirrored), read by nearest or bilinear filtering (depth by nearest
// only), inside the scissor box. No other per-fragment operation applies.
#include <algorithm>
#include <cmath>

#include "gfx/pipeline/draw.h"
#include "gfx/pipeline/render_target.h"

namespace strobe::gfx {
namespace {

// Source channel c at texel (x, y), clamped to the source's edges.
float texel(const RenderTarget& src, int x, int y, int c) {
  return src.channel(std::clamp(x, 0, src.width - 1), std::clamp(y, 0, src.height - 1), c);
}

}  // namespace

void execute_blit(const GlBlit& b, DrawContext& cx) {
  ++cx.stats->blits;
  bool wrote_color = false, wrote_depth = false;
  for (const bool depth : {false, true}) {
    if (!(b.mask & (depth ? kGlDepthBufferBit : kGlColorBufferBit))) continue;
    const RenderTarget* from = depth ? cx.surfaces->depth(b.read) : cx.surfaces->color(b.read);
    RenderTarget* to = depth ? cx.surfaces->depth(b.fixed.target) : cx.surfaces->color(b.fixed.target);
    if (!from || !to || b.dst[0] == b.dst[2] || b.dst[1] == b.dst[3]) continue;
    const RenderTarget copy = from == to ? *from : RenderTarget{};  // a blit within one buffer reads the old pixels
    const RenderTarget& src = from == to ? copy : *from;
    const PixelRect rect = intersect(writable_rect(*to, b.fixed),
                                     PixelRect{std::min(b.dst[0], b.dst[2]), std::min(b.dst[1], b.dst[3]),
                                               std::max(b.dst[0], b.dst[2]), std::max(b.dst[1], b.dst[3])});
    const double sx = double(b.src[2] - b.src[0]) / double(b.dst[2] - b.dst[0]);
    const double sy = double(b.src[3] - b.src[1]) / double(b.dst[3] - b.dst[1]);
    for (int y = rect.y0; y < rect.y1; ++y)
      for (int x = rect.x0; x < rect.x1; ++x) {
        const double u = b.src[0] + (x + 0.5 - b.dst[0]) * sx, v = b.src[1] + (y + 0.5 - b.dst[1]) * sy;
        if (depth || !b.linear) {
          const int ix = int(std::floor(u)), iy = int(std::floor(v));
          if (!src.contains(ix, iy)) continue;  // outside the read buffer: undefined, left alone
          if (depth) {
            to->depth_at(x, y) = src.depth_at(ix, iy);
          } else {
            for (int ch = 0; ch < 4; ++ch) to->set_channel(x, y, ch, src.channel(ix, iy, ch));
          }
          continue;
        }
        const double fu = u - 0.5, fv = v - 0.5;
        const int x0 = int(std::floor(fu)), y0 = int(std::floor(fv));
        const float a = float(fu - x0), c = float(fv - y0);
        for (int ch = 0; ch < 4; ++ch) {
          const float top = (1 - a) * texel(src, x0, y0, ch) + a * texel(src, x0 + 1, y0, ch);
          const float bottom = (1 - a) * texel(src, x0, y0 + 1, ch) + a * texel(src, x0 + 1, y0 + 1, ch);
          to->set_channel(x, y, ch, (1 - c) * top + c * bottom);
        }
      }
    (depth ? wrote_depth : wrote_color) = true;
  }
  cx.surfaces->wrote(b.fixed.target, wrote_color, wrote_depth, b.call);
}

}  // namespace strobe::gfx
