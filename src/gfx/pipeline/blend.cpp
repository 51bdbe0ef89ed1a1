// The GL's blend arithmetic in float on colours normalised to [0,1]: the destination is read
// back from unorm8 as d / 255, and only the final value is rounded, so the result is the one a
// GL implementation that blends in float would store.
#include "gfx/pipeline/blend.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.h"
#include "gfx/pipeline/render_target.h"

namespace strobe::gfx {
namespace {

float clamp01(float v) { return v > 0 ? (v < 1 ? v : 1.0f) : 0.0f; }  // NaN goes to 0

// The weight `f` gives channel `c` (0-2 colour, 3 alpha) for source `s` and destination `d`.
float factor(BlendFactor f, int c, const float s[4], const float d[4]) {
  switch (f) {
    case BlendFactor::Zero: return 0;
    case BlendFactor::One: return 1;
    case BlendFactor::SrcColor: return s[c];
    case BlendFactor::OneMinusSrcColor: return 1 - s[c];
    case BlendFactor::SrcAlpha: return s[3];
    case BlendFactor::OneMinusSrcAlpha: return 1 - s[3];
    case BlendFactor::DstAlpha: return d[3];
    case BlendFactor::OneMinusDstAlpha: return 1 - d[3];
    case BlendFactor::DstColor: return d[c];
    case BlendFactor::OneMinusDstColor: return 1 - d[c];
    // (f, f, f, 1) with f = min(As, 1 - Ad): alpha is weighted by one.
    case BlendFactor::SrcAlphaSaturate: return c == 3 ? 1 : std::min(s[3], 1 - d[3]);
  }
  return 0;
}

float combine(BlendEquation e, float s, float sf, float d, float df) {
  switch (e) {
    case BlendEquation::Add: return s * sf + d * df;
    case BlendEquation::Subtract: return s * sf - d * df;
    case BlendEquation::ReverseSubtract: return d * df - s * sf;
    // GL_MIN and GL_MAX ignore the factors.
    case BlendEquation::Min: return std::min(s, d);
    case BlendEquation::Max: return std::max(s, d);
  }
  return 0;
}

}  // namespace

BlendFactor blend_factor(uint32_t gl_enum) {
  switch (gl_enum) {
    case 0x0000: return BlendFactor::Zero;
    case 0x0001: return BlendFactor::One;
    case 0x0300: return BlendFactor::SrcColor;
    case 0x0301: return BlendFactor::OneMinusSrcColor;
    case 0x0302: return BlendFactor::SrcAlpha;
    case 0x0303: return BlendFactor::OneMinusSrcAlpha;
    case 0x0304: return BlendFactor::DstAlpha;
    case 0x0305: return BlendFactor::OneMinusDstAlpha;
    case 0x0306: return BlendFactor::DstColor;
    case 0x0307: return BlendFactor::OneMinusDstColor;
    case 0x0308: return BlendFactor::SrcAlphaSaturate;
    // glBlendColor is not followed by GlState, so there is no constant to weight by.
    case 0x8001: case 0x8002: case 0x8003: case 0x8004:
      throw NotImplementedError(fmt::format("blend factor {:#06x}: constant-colour factors (glBlendColor)", gl_enum));
    case 0x8589: case 0x88F9: case 0x88FA: case 0x88FB:
      throw NotImplementedError(fmt::format("blend factor {:#06x}: dual-source factors (GL_SRC1_*)", gl_enum));
    default: throw InputError(fmt::format("blend factor {:#06x}: not a GL blend factor", gl_enum));
  }
}

BlendEquation blend_equation(uint32_t gl_enum) {
  switch (gl_enum) {
    case 0x8006: return BlendEquation::Add;
    case 0x800A: return BlendEquation::Subtract;
    case 0x800B: return BlendEquation::ReverseSubtract;
    case 0x8007: return BlendEquation::Min;
    case 0x8008: return BlendEquation::Max;
    default: throw InputError(fmt::format("blend equation {:#06x}: not a GL blend equation", gl_enum));
  }
}

BlendState blend_state(const GlFixed& f) {
  BlendState s;
  s.color_mask = f.color_mask;
  s.enabled = f.blend;
  if (!s.enabled) return s;
  s.src_rgb = blend_factor(f.blend_src_rgb);
  s.dst_rgb = blend_factor(f.blend_dst_rgb);
  s.src_alpha = blend_factor(f.blend_src_alpha);
  s.dst_alpha = blend_factor(f.blend_dst_alpha);
  s.equation_rgb = s.equation_alpha = blend_equation(f.blend_equation);
  return s;
}

void blend_pixel_float(const BlendState& s, const float src[4], float dst[4]) {
  float out[4];
  if (!s.enabled) {
    for (int c = 0; c < 4; ++c) out[c] = src[c];
  } else {
    for (int c = 0; c < 3; ++c)
      out[c] = combine(s.equation_rgb, src[c], factor(s.src_rgb, c, src, dst), dst[c], factor(s.dst_rgb, c, src, dst));
    out[3] = combine(s.equation_alpha, src[3], factor(s.src_alpha, 3, src, dst), dst[3], factor(s.dst_alpha, 3, src, dst));
  }
  for (int c = 0; c < 4; ++c)
    if (s.color_mask[size_t(c)]) dst[c] = out[c];
}

void blend_pixel(const BlendState& s, const float src[4], uint8_t dst[4]) {
  float sc[4], out[4];
  for (int c = 0; c < 4; ++c) sc[c] = clamp01(src[c]);
  if (!s.enabled) {
    for (int c = 0; c < 4; ++c) out[c] = sc[c];
  } else {
    float dc[4];
    // A division, not a multiply by 1/255: it gives 255 -> exactly 1, so ONE_MINUS_DST_* of an
    // opaque pixel is exactly 0.
    for (int c = 0; c < 4; ++c) dc[c] = float(dst[c]) / 255.0f;
    for (int c = 0; c < 3; ++c)
      out[c] = combine(s.equation_rgb, sc[c], factor(s.src_rgb, c, sc, dc), dc[c], factor(s.dst_rgb, c, sc, dc));
    out[3] = combine(s.equation_alpha, sc[3], factor(s.src_alpha, 3, sc, dc), dc[3], factor(s.dst_alpha, 3, sc, dc));
  }
  for (int c = 0; c < 4; ++c)
    if (s.color_mask[size_t(c)]) dst[c] = to_unorm8(out[c]);
}

}  // namespace strobe::gfx
