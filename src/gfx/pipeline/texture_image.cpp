// GL texture -> strobe T#, S# and linear texels. The level data goes through one intermediate
// form, a Plane of the GL's own per-texel fields (0..255 for bytes, 0..31 for a 5-bit field),
// so that mipmaps are filtered in the texture's own precision before being packed into the
// sampler's format (texture_image.h has the format table and the mipmap rule).
//
// S# MAX_LOD: mimg.cpp clamps the LOD lambda to [MIN_LOD, MAX_LOD] before anything else, and
// picks the magnification filter whenever lambda <= 0. The chain itself is clamped by the T#'s
// LAST_LEVEL (level selection never goes past it). So a mipmapped texture gets MAX_LOD = its
// last level, which is GL's clamp to the chain, but a texture without mipmaps (or a 1x1 chain)
// must not get MAX_LOD 0: every sample would then use the mag filter, even when minified. Those
// get the field's largest value instead, which is GL's default TEXTURE_MAX_LOD (1000) clamped.
#include "gfx/pipeline/texture_image.h"

#include <algorithm>
#include <array>
#include <bit>

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::gfx {
namespace {

using emu::ImgDataFormat;
using emu::SqSel;

constexpr uint32_t kGlAlpha = 0x1906, kGlRgb = 0x1907, kGlRgba = 0x1908, kGlLuminance = 0x1909,
                   kGlLuminanceAlpha = 0x190A;
constexpr uint32_t kGlUnsignedByte = 0x1401, kGlUnsignedShort565 = 0x8363, kGlUnsignedShort4444 = 0x8033,
                   kGlUnsignedShort5551 = 0x8034;
constexpr uint32_t kGlNearest = 0x2600, kGlLinear = 0x2601, kGlNearestMipmapNearest = 0x2700,
                   kGlLinearMipmapNearest = 0x2701, kGlNearestMipmapLinear = 0x2702, kGlLinearMipmapLinear = 0x2703;
constexpr uint32_t kGlRepeat = 0x2901, kGlClampToEdge = 0x812F, kGlMirroredRepeat = 0x8370;

constexpr uint32_t kMaxSide = 16384;              // S_008F18_WIDTH/HEIGHT hold size - 1 in 14 bits
constexpr float kUnclampedLod = 4095.0f / 256.0f;  // S_008F34_MAX_LOD's largest u4.8 value

// How one GL (format, type) pair reads and how strobe stores it.
enum class Kind : uint8_t { Rgba8, Rgb8, L8, La8, A8, Rgb565, Rgba4444, Rgba5551 };
struct Format {
  Kind kind;
  uint32_t gl_bytes;  // bytes of one GL pixel
  uint32_t fields;    // values per texel in a Plane
  ImgDataFormat out;
  std::array<SqSel, 4> sel;
};

// The Format of a GL (format, type) pair; NotImplementedError for any the table does not list.
Format format_of(uint32_t format, uint32_t type, const std::string& name) {
  constexpr std::array<SqSel, 4> kXyzw{SqSel::X, SqSel::Y, SqSel::Z, SqSel::W};
  constexpr std::array<SqSel, 4> kXyz1{SqSel::X, SqSel::Y, SqSel::Z, SqSel::One};
  // Bytes per GL pixel follow the stream layer's one rule (gl_pixel_bytes), shared with sub-uploads.
  const uint32_t b = gl_pixel_bytes(format, type);
  if (type == kGlUnsignedByte) {
    switch (format) {
      case kGlRgba: return {Kind::Rgba8, b, 4, ImgDataFormat::F8_8_8_8, kXyzw};
      case kGlRgb: return {Kind::Rgb8, b, 3, ImgDataFormat::F8_8_8_8, kXyz1};
      case kGlLuminance: return {Kind::L8, b, 1, ImgDataFormat::F8, {SqSel::X, SqSel::X, SqSel::X, SqSel::One}};
      case kGlLuminanceAlpha: return {Kind::La8, b, 2, ImgDataFormat::F8_8, {SqSel::X, SqSel::X, SqSel::X, SqSel::Y}};
      case kGlAlpha: return {Kind::A8, b, 1, ImgDataFormat::F8, {SqSel::Zero, SqSel::Zero, SqSel::Zero, SqSel::X}};
      default: break;
    }
  } else if (format == kGlRgb && type == kGlUnsignedShort565) {
    return {Kind::Rgb565, b, 3, ImgDataFormat::F5_6_5, {SqSel::Z, SqSel::Y, SqSel::X, SqSel::One}};
  } else if (format == kGlRgba && type == kGlUnsignedShort4444) {
    return {Kind::Rgba4444, b, 4, ImgDataFormat::F8_8_8_8, kXyzw};
  } else if (format == kGlRgba && type == kGlUnsignedShort5551) {
    return {Kind::Rgba5551, b, 4, ImgDataFormat::F8_8_8_8, kXyzw};
  }
  throw NotImplementedError(fmt::format("{}: texture format 0x{:04X} with type 0x{:04X}", name, format, type));
}

// One GL pixel's fields (red first).
void unpack(Kind k, const uint8_t* p, uint16_t* c) {
  if (k == Kind::Rgba8 || k == Kind::Rgb8 || k == Kind::La8 || k == Kind::L8 || k == Kind::A8) {
    const uint32_t n = k == Kind::Rgba8 ? 4 : k == Kind::Rgb8 ? 3 : k == Kind::La8 ? 2 : 1;
    for (uint32_t i = 0; i < n; ++i) c[i] = p[i];
    return;
  }
  const uint32_t v = uint32_t(p[0]) | uint32_t(p[1]) << 8;  // a packed 16-bit pixel, first field highest
  auto field = [v](unsigned shift, unsigned bits) { return uint16_t(v >> shift & ((1u << bits) - 1)); };
  if (k == Kind::Rgb565) {
    c[0] = field(11, 5), c[1] = field(5, 6), c[2] = field(0, 5);
  } else if (k == Kind::Rgba4444) {
    c[0] = field(12, 4), c[1] = field(8, 4), c[2] = field(4, 4), c[3] = field(0, 4);
  } else {  // Rgba5551
    c[0] = field(11, 5), c[1] = field(6, 5), c[2] = field(1, 5), c[3] = field(0, 1);
  }
}

// One texel's fields in strobe's format (image_texel_bytes(Format::out) bytes at `out`).
void pack(Kind k, const uint16_t* c, uint8_t* out) {
  switch (k) {
    case Kind::Rgba8: for (int i = 0; i < 4; ++i) out[i] = uint8_t(c[i]); break;
    case Kind::Rgb8: out[0] = uint8_t(c[0]), out[1] = uint8_t(c[1]), out[2] = uint8_t(c[2]), out[3] = 255; break;
    case Kind::La8: out[0] = uint8_t(c[0]), out[1] = uint8_t(c[1]); break;
    case Kind::L8: case Kind::A8: out[0] = uint8_t(c[0]); break;
    case Kind::Rgb565: {
      // The GL's own bit order; the T#'s (Z, Y, X, One) swizzle reads red from bits 15:11.
      const uint32_t v = uint32_t(c[0]) << 11 | uint32_t(c[1]) << 5 | c[2];
      out[0] = uint8_t(v), out[1] = uint8_t(v >> 8);
      break;
    }
    case Kind::Rgba4444:
      for (int i = 0; i < 4; ++i) out[i] = uint8_t(c[i] * 17);  // c/15 == 17c/255 exactly
      break;
    case Kind::Rgba5551:
      for (int i = 0; i < 3; ++i) out[i] = uint8_t((c[i] * 510u + 31u) / 62u);  // round(c * 255 / 31)
      out[3] = c[3] ? 255 : 0;
      break;
  }
}

// A level as GL fields: w * h texels of Format::fields values, row 0 first (GL's t = 0).
struct Plane {
  uint32_t w = 0, h = 0;
  std::vector<uint16_t> v;
};

// The fields of an uploaded level. Rows are padded to unpack_alignment; a level without
// (enough) pixels reads as zeros, as render targets and glTexImage2D(..., NULL) leave it.
Plane decode_level(const GlTexLevel& l, const Format& f, const std::string& name, size_t index) {
  const uint32_t a = l.unpack_alignment;
  if (a != 1 && a != 2 && a != 4 && a != 8)
    throw InputError(fmt::format("{}: level {} has unpack alignment {} (1, 2, 4 or 8)", name, index, a));
  Plane p{l.width, l.height, std::vector<uint16_t>(size_t(l.width) * l.height * f.fields, 0)};
  const uint64_t row = uint64_t(l.width) * f.gl_bytes, stride = (row + a - 1) / a * a;
  const uint64_t need = l.height ? stride * (l.height - 1) + row : 0;
  if (!l.pixels || l.pixels->size() < need) return p;
  const uint8_t* src = l.pixels->data();
  for (uint32_t y = 0; y < l.height; ++y)
    for (uint32_t x = 0; x < l.width; ++x)
      unpack(f.kind, src + y * stride + uint64_t(x) * f.gl_bytes, &p.v[(size_t(y) * l.width + x) * f.fields]);
  return p;
}

// A source texel of an axis and how much of it a destination texel's footprint covers, in
// units of 1/m of a texel (m: the destination's size).
struct Tap {
  uint32_t src, weight;
};

// The taps of each of the m = max(1, n/2) destination texels of an n-texel axis: destination i
// covers source [i*n/m, (i+1)*n/m), so the weights of each sum to n.
std::vector<std::vector<Tap>> footprints(uint32_t n, uint32_t m) {
  std::vector<std::vector<Tap>> taps(m);
  for (uint64_t i = 0; i < m; ++i) {
    const uint64_t lo = i * n, hi = (i + 1) * n;  // in 1/m texels
    for (uint64_t s = lo / m; s * m < hi; ++s)
      taps[i].push_back({uint32_t(s), uint32_t(std::min(hi, (s + 1) * m) - std::max(lo, s * m))});
  }
  return taps;
}

// The next mip level: the area-weighted box filter of texture_image.h, rounded to nearest.
Plane half(const Plane& p, uint32_t fields) {
  Plane out{std::max(1u, p.w / 2), std::max(1u, p.h / 2), {}};
  out.v.resize(size_t(out.w) * out.h * fields);
  const auto fx = footprints(p.w, out.w), fy = footprints(p.h, out.h);
  const uint64_t total = uint64_t(p.w) * p.h;  // the weights of one destination texel
  for (uint32_t y = 0; y < out.h; ++y)
    for (uint32_t x = 0; x < out.w; ++x)
      for (uint32_t c = 0; c < fields; ++c) {
        uint64_t sum = 0;
        for (const Tap& ty : fy[y])
          for (const Tap& tx : fx[x])
            sum += uint64_t(p.v[(size_t(ty.src) * p.w + tx.src) * fields + c]) * tx.weight * ty.weight;
        out.v[(size_t(y) * out.w + x) * fields + c] = uint16_t((sum + total / 2) / total);
      }
  return out;
}

// Levels in a full chain from a w x h level 0 down to 1x1.
uint32_t chain_length(uint32_t w, uint32_t h) { return uint32_t(std::bit_width(std::max(w, h))); }

// The *_MIPMAP_* min filters.
bool uses_mipmaps(uint32_t min_filter) {
  return min_filter >= kGlNearestMipmapNearest && min_filter <= kGlLinearMipmapLinear;
}

// See the file comment: the chain's clamp, or none where a clamp at 0 would disable minification.
float max_lod_for(bool mipmapped, uint32_t last_level) {
  return mipmapped && last_level > 0 ? float(last_level) : kUnclampedLod;
}

// The addressing mode of a GL wrap; `which` (wrap_s, wrap_t) names it in errors.
emu::TexClamp wrap_of(uint32_t wrap, const char* which, const std::string& name) {
  switch (wrap) {
    case kGlRepeat: return emu::TexClamp::Wrap;
    case kGlClampToEdge: return emu::TexClamp::ClampLastTexel;
    case kGlMirroredRepeat: return emu::TexClamp::Mirror;
    default: throw NotImplementedError(fmt::format("{}: texture {} mode 0x{:04X}", name, which, wrap));
  }
}

// gl_sampler_desc with `name` in its errors.
emu::SamplerDesc sampler_of(const GlTexture& t, const std::string& name) {
  emu::SamplerDesc s;
  s.clamp = {wrap_of(t.wrap_s, "wrap_s", name), wrap_of(t.wrap_t, "wrap_t", name), emu::TexClamp::Wrap};
  if (t.mag_filter != kGlNearest && t.mag_filter != kGlLinear)
    throw InputError(fmt::format("{}: mag filter 0x{:04X} is not GL_NEAREST or GL_LINEAR", name, t.mag_filter));
  s.mag_filter = t.mag_filter == kGlLinear ? emu::TexXyFilter::Bilinear : emu::TexXyFilter::Point;
  // GL_<xy>[_MIPMAP_<mip>]: the first word filters within a level, the second between levels.
  using F = emu::TexXyFilter;
  using M = emu::TexMipFilter;
  switch (t.min_filter) {
    case kGlNearest: s.min_filter = F::Point, s.mip_filter = M::None; break;
    case kGlLinear: s.min_filter = F::Bilinear, s.mip_filter = M::None; break;
    case kGlNearestMipmapNearest: s.min_filter = F::Point, s.mip_filter = M::Point; break;
    case kGlLinearMipmapNearest: s.min_filter = F::Bilinear, s.mip_filter = M::Point; break;
    case kGlNearestMipmapLinear: s.min_filter = F::Point, s.mip_filter = M::Linear; break;
    case kGlLinearMipmapLinear: s.min_filter = F::Bilinear, s.mip_filter = M::Linear; break;
    default: throw InputError(fmt::format("{}: min filter 0x{:04X} is not a GL filter", name, t.min_filter));
  }
  const bool sized = !t.levels.empty() && t.levels[0].width && t.levels[0].height;
  const uint32_t last = sized ? chain_length(t.levels[0].width, t.levels[0].height) - 1 : 0;
  s.max_lod = max_lod_for(uses_mipmaps(t.min_filter), last);
  return s;
}

// Level 0 must fit the T#'s size fields.
void check_size(uint32_t w, uint32_t h, const std::string& name) {
  if (w > kMaxSide || h > kMaxSide)
    throw NotImplementedError(
        fmt::format("{}: a {}x{} texture (a T# holds at most {} texels a side)", name, w, h, kMaxSide));
}

// GL ES 2.0's result for an incomplete texture, as a texture: one texel of (0, 0, 0, 1).
TextureImage incomplete(const emu::SamplerDesc& s) {
  TextureImage r;
  r.image.data_format = ImgDataFormat::F8_8_8_8;
  r.sampler = s;
  r.sampler.max_lod = kUnclampedLod;
  r.bytes = {0, 0, 0, 255};
  r.complete = false;
  return r;
}

// Lays a chain of levels (level 0 first, each half the last) out in strobe's linear layout.
TextureImage lay_out(const Format& f, const std::vector<Plane>& chain, const emu::SamplerDesc& s, bool mipmapped) {
  TextureImage r;
  emu::ImageDesc& d = r.image;
  d.data_format = f.out;
  d.num_format = emu::ImgNumFormat::Unorm;
  d.width = d.pitch = chain[0].w;
  d.height = chain[0].h;
  d.dst_sel = f.sel;
  d.last_level = uint32_t(chain.size() - 1);
  r.sampler = s;
  r.sampler.max_lod = max_lod_for(mipmapped, d.last_level);
  r.bytes.assign(emu::image_bytes(d), 0);
  const uint32_t texel = emu::image_texel_bytes(f.out);
  for (uint32_t l = 0; l < chain.size(); ++l) {
    // pitch == width, so each level's rows are exactly its width (max(1, pitch >> l)).
    uint8_t* out = r.bytes.data() + emu::image_level_offset(d, l);
    const Plane& p = chain[l];
    for (size_t i = 0; i < size_t(p.w) * p.h; ++i) pack(f.kind, &p.v[i * f.fields], out + i * texel);
  }
  return r;
}

// Level 0 plus, when the min filter uses mipmaps, the rest of the chain generated from it.
TextureImage from_level0(const Format& f, Plane level0, const GlTexture& state, const emu::SamplerDesc& s) {
  std::vector<Plane> chain;
  chain.push_back(std::move(level0));
  const bool mipmapped = uses_mipmaps(state.min_filter);
  if (mipmapped && state.generate_mipmap)
    while (chain.size() < chain_length(chain[0].w, chain[0].h)) chain.push_back(half(chain.back(), f.fields));
  return lay_out(f, chain, s, mipmapped);
}

}  // namespace

emu::SamplerDesc gl_sampler_desc(const GlTexture& t) { return sampler_of(t, "a GL texture"); }

TextureImage texture_image(const GlTexture& t, const std::string& name) {
  const emu::SamplerDesc s = sampler_of(t, name);
  if (t.levels.empty() || !t.levels[0].width || !t.levels[0].height) return incomplete(s);
  const GlTexLevel& base = t.levels[0];
  check_size(base.width, base.height, name);
  Format f = format_of(base.format, base.type, name);
  if (base.internal_format && !gl_internal_format_has_alpha(base.internal_format)) f.sel[3] = emu::SqSel::One;
  Plane level0 = decode_level(base, f, name, 0);
  if (!uses_mipmaps(t.min_filter) || t.generate_mipmap) return from_level0(f, std::move(level0), t, s);
  // Uploaded mipmaps: GL's completeness rule, each level half the last (rounded down, at least
  // 1) down to 1x1 and of level 0's format and type; levels past the chain are ignored.
  std::vector<Plane> chain;
  chain.push_back(std::move(level0));
  for (uint32_t l = 1; l < chain_length(base.width, base.height); ++l) {
    if (l >= t.levels.size()) return incomplete(s);
    const GlTexLevel& lv = t.levels[l];
    if (lv.width != std::max(1u, base.width >> l) || lv.height != std::max(1u, base.height >> l) ||
        lv.format != base.format || lv.type != base.type)
      return incomplete(s);
    chain.push_back(decode_level(lv, f, name, l));
  }
  return lay_out(f, chain, s, true);
}

TextureImage texture_image_from_rgba8(uint32_t width, uint32_t height, const uint8_t* rgba, const GlTexture& state,
                                      const std::string& name) {
  const emu::SamplerDesc s = sampler_of(state, name);
  if (!width || !height) return incomplete(s);
  check_size(width, height, name);
  // Only level 0 was rendered: a mipmapping min filter without glGenerateMipmap has no chain
  // (GL's classic black render-to-texture).
  if (uses_mipmaps(state.min_filter) && !state.generate_mipmap && chain_length(width, height) > 1) return incomplete(s);
  Format f = format_of(kGlRgba, kGlUnsignedByte, name);
  // A target without alpha kept none of what was drawn into its alpha.
  if (!state.levels.empty() && state.levels[0].internal_format &&
      !gl_internal_format_has_alpha(state.levels[0].internal_format))
    f.sel[3] = emu::SqSel::One;
  Plane level0{width, height, std::vector<uint16_t>(rgba, rgba + size_t(width) * height * 4)};
  return from_level0(f, std::move(level0), state, s);
}

}  // namespace strobe::gfx
