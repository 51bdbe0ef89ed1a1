// MIMG image_sample family: filtered reads of a 1D or 2D image through a T# and an S# held in
// SGPRs (image_desc.h has both layouts and strobe's linear texel layout).
//
// The address VGPRs hold, in order, the shader's bias (_b), the derivatives (_d: ds/dx, dt/dx,
// ds/dy, dt/dy), the coordinates, then the explicit LOD (_l) or the LOD clamp (_cl), as the GCN3
// ISA manual's "image opcodes with a sampler" table and Mesa's ac_build_image_opcode order them.
//
// Filtering follows the GL/Vulkan texture-filtering rules with f32 arithmetic:
// - texel-space coordinate u = s * level width (s itself when unnormalized); point sampling reads
//   texel floor(u), bilinear blends floor(u - 0.5) and its neighbour with weights from the
//   fraction. The weights are exact f32 values, not the hardware's fixed-point sub-texel
//   fractions, so results can differ from a GPU in the last bits of an 8-bit channel.
// - addressing modes act on integer texel indices (mirror modes mirror indices, border modes
//   read the S#'s border colour for indices outside the level); the half-border modes first
//   clamp u to the image ([0, n], or [-n, n] for mirror-once).
// - LOD: implicit from the 2x2 quad (lanes 4q..4q+3 are top-left, top-right, bottom-left,
//   bottom-right; a lane outside EXEC still supplies its coordinates, as RADV's pixel shaders
//   run whole quads under s_wqm), rho = the longer of the x and y derivative vectors in texels of
//   the base level, lambda = log2(rho); or explicit. Then + the S#'s LOD_BIAS (also for explicit
//   and zero LODs, as Vulkan asks of the sampler bias) + the shader's bias, at least the _cl
//   clamp, clamped to [max(S# MIN_LOD, T# MIN_LOD), S# MAX_LOD]. Magnification is lambda <= 0.
// - mip selection relative to BASE_LEVEL: none (the base level), point (nearest level, halves
//   down), linear (the two levels around lambda blended by its fraction; one level when the
//   fraction is 0 or lambda is past the last level).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "emu/float_util.h"
#include "emu/graphics.h"
#include "emu/image_desc.h"
#include "emu/mem_access.h"
#include "emu/semantics.h"

namespace strobe::emu {
namespace {

using isa::Op;

// Address VGPRs an opcode reads besides its coordinates.
enum Extra : unsigned { kBias = 1, kLod = 2, kZeroLod = 4, kDerivs = 8, kClamp = 16 };

struct Texel {
  float c[4];
};

// How the texel bits of a supported format read as floats.
enum class Decode : uint8_t { Unorm8, Srgb8, Unorm565, Float16, Float32 };
struct Format {
  Decode decode;
  uint8_t comps, bytes;
};

// The supported (data format, number format) pairs; false for every other.
bool format_of(const ImageDesc& d, Format& f) {
  using D = ImgDataFormat;
  using N = ImgNumFormat;
  const uint8_t bytes = uint8_t(image_texel_bytes(d.data_format));
  switch (d.data_format) {
    case D::F8: case D::F8_8: case D::F8_8_8_8:
      if (d.num_format != N::Unorm && d.num_format != N::Srgb) return false;
      f = {d.num_format == N::Srgb ? Decode::Srgb8 : Decode::Unorm8, bytes, bytes};
      return true;
    case D::F5_6_5:
      f = {Decode::Unorm565, 3, bytes};
      return d.num_format == N::Unorm;
    case D::F16: case D::F16_16: case D::F16_16_16_16:
      f = {Decode::Float16, uint8_t(bytes / 2), bytes};
      return d.num_format == N::Float;
    case D::F32: case D::F32_32: case D::F32_32_32: case D::F32_32_32_32:
      f = {Decode::Float32, uint8_t(bytes / 4), bytes};
      return d.num_format == N::Float;
    default: return false;
  }
}

// sRGB-encoded byte -> linear value (the sRGB EOTF), for the colour channels of SRGB formats.
const std::array<float, 256>& srgb_table() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int i = 0; i < 256; ++i) {
      const double c = i / 255.0;
      t[i] = float(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
    }
    return t;
  }();
  return table;
}

// Texel bits -> (x, y, z, w); channels the format lacks read 0, except w which reads 1. The
// first component sits in the lowest bits (5_6_5: x in bits 4:0).
Texel decode_texel(const Format& f, const uint8_t* p) {
  Texel t{{0, 0, 0, 1}};
  switch (f.decode) {
    case Decode::Unorm8:
      for (int c = 0; c < f.comps; ++c) t.c[c] = float(p[c]) / 255.0f;
      break;
    case Decode::Srgb8:
      for (int c = 0; c < f.comps; ++c) t.c[c] = c < 3 ? srgb_table()[p[c]] : float(p[c]) / 255.0f;
      break;
    case Decode::Unorm565: {
      const uint32_t v = p[0] | uint32_t(p[1]) << 8;
      t.c[0] = float(v & 31) / 31.0f;
      t.c[1] = float(v >> 5 & 63) / 63.0f;
      t.c[2] = float(v >> 11 & 31) / 31.0f;
      break;
    }
    case Decode::Float16:
      for (int c = 0; c < f.comps; ++c) t.c[c] = fp::h2f(p[2 * c] | uint32_t(p[2 * c + 1]) << 8);
      break;
    case Decode::Float32: std::memcpy(t.c, p, 4u * f.comps); break;
  }
  return t;
}

// One mip level as sampled: where it starts and its size in texels.
struct Level {
  uint64_t addr;
  uint32_t w, h, pitch;
};
constexpr int kMaxLevels = 16;  // S_008F1C_LAST_LEVEL is 4 bits

// Everything one image_sample instruction samples with, validated once for all its lanes.
struct Sampling {
  Wave& w;
  const isa::Inst& in;
  ExecContext& ctx;
  ImageDesc t;
  SamplerDesc s;
  Format f{};
  Level levels[kMaxLevels]{};
  int nlevels = 0;  // base_level..last_level
  bool unnorm = false, one_d = false;
  Texel border{};
  uint64_t first_addr = 0;  // the current lane's first texel address (MemAccessInfo)
  uint32_t fetches = 0;     // texels the current lane read
};

// The index an addressing mode maps texel index i of an n-texel axis to; -1 reads the border.
int64_t address(TexClamp m, int64_t i, int64_t n) {
  switch (m) {
    case TexClamp::Wrap: {
      const int64_t r = i % n;
      return r < 0 ? r + n : r;
    }
    case TexClamp::Mirror: {
      int64_t r = i % (2 * n);
      if (r < 0) r += 2 * n;
      return r < n ? r : 2 * n - 1 - r;
    }
    case TexClamp::ClampLastTexel: return i < 0 ? 0 : i >= n ? n - 1 : i;
    case TexClamp::MirrorOnceLastTexel: {
      const int64_t r = i < 0 ? -1 - i : i;
      return r >= n ? n - 1 : r;
    }
    case TexClamp::ClampHalfBorder: case TexClamp::ClampBorder: return i < 0 || i >= n ? -1 : i;
    case TexClamp::MirrorOnceHalfBorder: case TexClamp::MirrorOnceBorder: {
      const int64_t r = i < 0 ? -1 - i : i;
      return r >= n ? -1 : r;
    }
  }
  return -1;
}

// Point sampling never reaches a half border: the coordinate clamp keeps it on the image, as
// GL_CLAMP's nearest rule does, so those modes act as their last-texel counterparts.
TexClamp point_mode(TexClamp m) {
  return m == TexClamp::ClampHalfBorder        ? TexClamp::ClampLastTexel
         : m == TexClamp::MirrorOnceHalfBorder ? TexClamp::MirrorOnceLastTexel
                                               : m;
}

// Texel-space coordinate made safe for integer conversion (NaN reads as 0), with the
// half-border modes' clamp to the image.
float texel_coord(float u, TexClamp m, uint32_t n) {
  if (std::isnan(u)) u = 0;
  u = std::fmin(std::fmax(u, -1e9f), 1e9f);
  if (m == TexClamp::ClampHalfBorder) u = std::fmin(std::fmax(u, 0.0f), float(n));
  if (m == TexClamp::MirrorOnceHalfBorder) u = std::fmin(std::fmax(u, -float(n)), float(n));
  return u;
}

// Texel (x, y) of a level (x or y -1: the border colour). strobe lays textures out itself, so a
// texel outside every allocation is a descriptor bug and faults; no past-the-end page tolerance
// as for buffers.
Texel fetch(Sampling& sm, const Level& lv, int64_t x, int64_t y, int lane) {
  ++sm.fetches;
  if (x < 0 || y < 0) return sm.border;
  const uint64_t a = lv.addr + (uint64_t(y) * lv.pitch + uint64_t(x)) * sm.f.bytes;
  if (!sm.first_addr) sm.first_addr = a;
  uint8_t raw[16];
  const uint8_t* p = sm.ctx.memory->translate(a, sm.f.bytes);
  if (!p) [[unlikely]] {
    if (!sm.ctx.memory->copy_kernel(a, raw, sm.f.bytes, false, false))
      fault(sm.w, sm.in, sm.ctx, fmt::format("texel ({}, {}) of the image at 0x{:x} (T# in s[{}:{}]), {} bytes at "
                                             "address 0x{:x} (lane {}), is outside every live allocation", x, y,
                                             sm.t.base, sm.in.srsrc, sm.in.srsrc + 7, sm.f.bytes, a, lane));
    p = raw;
  }
  return decode_texel(sm.f, p);
}

// The filtered value of one level at normalized (or, unnormalized, base-level texel) coordinates.
Texel filter_level(Sampling& sm, int level, float s, float t, bool bilinear, int lane) {
  const Level& lv = sm.levels[level];
  // Unnormalized coordinates count texels of the base level.
  auto texels = [&](float c, uint32_t n, uint32_t n0) {
    return sm.unnorm ? (n == n0 ? c : c * float(n) / float(n0)) : c * float(n);
  };
  const float u = texel_coord(texels(s, lv.w, sm.levels[0].w), sm.s.clamp[0], lv.w);
  const float v = sm.one_d ? 0.0f : texel_coord(texels(t, lv.h, sm.levels[0].h), sm.s.clamp[1], lv.h);
  if (!bilinear) {
    const int64_t x = int64_t(std::floor(u)), y = int64_t(std::floor(v));
    return fetch(sm, lv, address(point_mode(sm.s.clamp[0]), x, lv.w),
                 sm.one_d ? 0 : address(point_mode(sm.s.clamp[1]), y, lv.h), lane);
  }
  const float fu = u - 0.5f, fv = v - 0.5f;
  const float x0f = std::floor(fu), y0f = std::floor(fv);
  const float a = fu - x0f, b = fv - y0f;
  const int64_t x0 = int64_t(x0f), y0 = int64_t(y0f);
  const int64_t xs[2] = {address(sm.s.clamp[0], x0, lv.w), address(sm.s.clamp[0], x0 + 1, lv.w)};
  Texel out{};
  if (sm.one_d) {
    const Texel t0 = fetch(sm, lv, xs[0], 0, lane), t1 = fetch(sm, lv, xs[1], 0, lane);
    for (int c = 0; c < 4; ++c) out.c[c] = (1 - a) * t0.c[c] + a * t1.c[c];
    return out;
  }
  const int64_t ys[2] = {address(sm.s.clamp[1], y0, lv.h), address(sm.s.clamp[1], y0 + 1, lv.h)};
  const Texel t00 = fetch(sm, lv, xs[0], ys[0], lane), t10 = fetch(sm, lv, xs[1], ys[0], lane);
  const Texel t01 = fetch(sm, lv, xs[0], ys[1], lane), t11 = fetch(sm, lv, xs[1], ys[1], lane);
  for (int c = 0; c < 4; ++c)
    out.c[c] = (1 - a) * (1 - b) * t00.c[c] + a * (1 - b) * t10.c[c] + (1 - a) * b * t01.c[c] + a * b * t11.c[c];
  return out;
}

const char* type_name(ImgType t) {
  static constexpr const char* kNames[] = {"1D",       "2D",       "3D",      "cube",
                                           "1D array", "2D array", "2D MSAA", "2D MSAA array"};
  return uint8_t(t) >= 8 && uint8_t(t) <= 15 ? kNames[uint8_t(t) - 8] : "reserved-type";
}

bool border_mode(TexClamp m) { return m >= TexClamp::ClampHalfBorder; }

// Reads and checks the T# and S#; faults for anything this sampler does not implement.
void setup(Sampling& sm) {
  const Wave& w = sm.w;
  const isa::Inst& in = sm.in;
  ExecContext& ctx = sm.ctx;
  if (in.d16) fault(w, in, ctx, "not implemented: d16 image results");
  if (in.tfe || in.lwe) fault(w, in, ctx, "not implemented: partially resident textures (tfe/lwe bits)");
  if (in.r128) fault(w, in, ctx, "not implemented: 128-bit image resources (r128 bit)");
  if (in.da) fault(w, in, ctx, "not implemented: array images (da bit)");
  if (in.srsrc + 8u > 128u || in.ssamp + 4u > 128u) fault(w, in, ctx, "image descriptor exceeds the SGPR file");
  sm.t = ImageDesc::decode(&w.s[in.srsrc]);
  sm.s = SamplerDesc::decode(&w.s[in.ssamp]);
  const ImageDesc& t = sm.t;
  const SamplerDesc& s = sm.s;
  if (t.type != ImgType::T1D && t.type != ImgType::T2D)
    fault(w, in, ctx, fmt::format("not implemented: {} images (T# type {})", type_name(t.type), uint32_t(t.type)));
  if (!format_of(t, sm.f))
    fault(w, in, ctx, fmt::format("not implemented: image format {} with number format {}",
                                  img_data_format_name(t.data_format), uint32_t(t.num_format)));
  for (SqSel sel : t.dst_sel)
    if (sel == SqSel(2) || sel == SqSel(3)) fault(w, in, ctx, fmt::format("T# dst_sel {} is reserved", uint32_t(sel)));
  if (t.base_level > t.last_level)
    fault(w, in, ctx, fmt::format("T# base level {} is above its last level {}", t.base_level, t.last_level));
  if (s.mag_filter > TexXyFilter::Bilinear || s.min_filter > TexXyFilter::Bilinear)
    fault(w, in, ctx, "not implemented: anisotropic filtering");
  if (s.mip_filter > TexMipFilter::Linear) fault(w, in, ctx, "S# mip filter 3 is reserved");
  if (s.filter_mode)
    fault(w, in, ctx, fmt::format("not implemented: S# filter mode {} (min/max reduction)", s.filter_mode));
  sm.one_d = t.type == ImgType::T1D;
  const bool borders = border_mode(s.clamp[0]) || (!sm.one_d && border_mode(s.clamp[1]));
  if (borders && s.border == TexBorder::Register)
    fault(w, in, ctx, "not implemented: border colours from the border colour table (S# border type 3)");
  static constexpr Texel kBorders[3] = {{{0, 0, 0, 0}}, {{0, 0, 0, 1}}, {{1, 1, 1, 1}}};
  sm.border = kBorders[s.border == TexBorder::Register ? 0 : int(s.border)];
  sm.unnorm = in.unorm || s.force_unnormalized;
  sm.nlevels = int(t.last_level - t.base_level) + 1;
  for (int i = 0; i < sm.nlevels; ++i) {
    const uint32_t l = t.base_level + uint32_t(i);
    sm.levels[i] = Level{t.base + image_level_offset(t, l), std::max(1u, t.width >> l),
                         sm.one_d ? 1u : std::max(1u, t.height >> l), std::max(1u, t.pitch >> l)};
  }
}

float reg_f32(const Wave& w, uint32_t reg, int lane) { return std::bit_cast<float>(w.vrow(reg)[lane]); }

// Texel-space length of the longer screen-space derivative: GL's scale factor rho.
float rho(const Sampling& sm, float dsdx, float dtdx, float dsdy, float dtdy) {
  const float sw = sm.unnorm ? 1.0f : float(sm.levels[0].w), sh = sm.unnorm ? 1.0f : float(sm.levels[0].h);
  dsdx *= sw, dsdy *= sw, dtdx *= sh, dtdy *= sh;
  if (sm.one_d) dtdx = dtdy = 0;
  return std::fmax(std::sqrt(dsdx * dsdx + dtdx * dtdx), std::sqrt(dsdy * dsdy + dtdy * dtdy));
}

template <unsigned X>
void image_sample(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  Sampling sm{w, in, ctx, {}, {}};
  setup(sm);
  const uint32_t dims = sm.one_d ? 1 : 2;
  // Address VGPR layout: [bias] [derivatives] coordinates [lod | clamp].
  const uint32_t addr = vgpr_index(in.addr);
  const uint32_t bias_reg = addr, deriv_reg = addr + ((X & kBias) ? 1 : 0);
  const uint32_t coord_reg = deriv_reg + ((X & kDerivs) ? 2 * dims : 0);
  const uint32_t last_reg = coord_reg + dims + ((X & (kLod | kClamp)) ? 1 : 0);
  const uint32_t dst = vgpr_index(in.dst), ncomp = uint32_t(std::popcount(unsigned(in.dmask)));
  if (last_reg > w.num_vgprs || dst + ncomp > w.num_vgprs)
    fault(w, in, ctx, fmt::format("image_sample registers beyond the wave's {} VGPRs", w.num_vgprs));
  const uint32_t* s_row = w.vrow(coord_reg);
  const uint32_t* t_row = sm.one_d ? s_row : w.vrow(coord_reg + 1);
  const float lo = std::fmax(sm.s.min_lod, sm.t.min_lod), hi = sm.s.max_lod;
  const int last = sm.nlevels - 1;
  mem_info_begin(ctx, MemAccessInfo::Space::Global, sm.f.bytes, false, false);
  // Results are written only after every lane sampled: the destination may overlap the address
  // registers (RADV writes v[0:3] from v0, v1), and a quad's lanes read each other's coordinates.
  std::array<std::array<uint32_t, 4>, kWaveSize> results;
  for (uint64_t m = w.exec(); m; m &= m - 1) {
    const int l = std::countr_zero(m);
    const float s = std::bit_cast<float>(s_row[l]), t = std::bit_cast<float>(t_row[l]);
    float lambda;
    if constexpr ((X & kLod) != 0) {
      lambda = reg_f32(w, last_reg - 1, l);
    } else if constexpr ((X & kZeroLod) != 0) {
      lambda = 0;
    } else if constexpr ((X & kDerivs) != 0) {
      const float dsdx = reg_f32(w, deriv_reg, l), dsdy = reg_f32(w, deriv_reg + dims, l);
      const float dtdx = sm.one_d ? 0.0f : reg_f32(w, deriv_reg + 1, l);
      const float dtdy = sm.one_d ? 0.0f : reg_f32(w, deriv_reg + 3, l);
      lambda = std::log2(rho(sm, dsdx, dtdx, dsdy, dtdy));
    } else {
      const int q = l & ~3;  // top-left, top-right, bottom-left of the lane's quad
      const float s0 = std::bit_cast<float>(s_row[q]), t0 = std::bit_cast<float>(t_row[q]);
      lambda = std::log2(rho(sm, std::bit_cast<float>(s_row[q + 1]) - s0, std::bit_cast<float>(t_row[q + 1]) - t0,
                             std::bit_cast<float>(s_row[q + 2]) - s0, std::bit_cast<float>(t_row[q + 2]) - t0));
    }
    lambda += sm.s.lod_bias;
    if constexpr ((X & kBias) != 0) lambda += reg_f32(w, bias_reg, l);
    if constexpr ((X & kClamp) != 0) lambda = std::fmax(lambda, reg_f32(w, last_reg - 1, l));
    lambda = std::isnan(lambda) ? lo : std::fmin(std::fmax(lambda, lo), hi);
    const bool bilinear = (lambda <= 0 ? sm.s.mag_filter : sm.s.min_filter) == TexXyFilter::Bilinear;
    // Mip levels relative to the base level: d0 alone, or d0 and d0 + 1 blended by frac.
    int d0 = 0;
    float frac = 0;
    if (sm.s.mip_filter == TexMipFilter::Point) {
      d0 = lambda <= 0.5f ? 0 : std::min(last, int(std::ceil(lambda + 0.5f)) - 1);
    } else if (sm.s.mip_filter == TexMipFilter::Linear && lambda > 0) {
      d0 = std::min(last, int(std::floor(lambda)));
      frac = d0 == last ? 0.0f : lambda - float(d0);
    }
    sm.first_addr = 0;
    sm.fetches = 0;
    Texel r = filter_level(sm, d0, s, t, bilinear, l);
    if (frac > 0) {
      const Texel r1 = filter_level(sm, d0 + 1, s, t, bilinear, l);
      for (int c = 0; c < 4; ++c) r.c[c] = (1 - frac) * r.c[c] + frac * r1.c[c];
    }
    if (sm.first_addr) mem_info_lane(ctx, l, sm.first_addr);
    if (ctx.gfx) {
      const auto kind = size_t(frac > 0  ? TexFilterKind::Trilinear
                               : bilinear ? TexFilterKind::Bilinear
                                          : TexFilterKind::Point);
      ++ctx.gfx->sample_lanes[kind];
      ctx.gfx->texel_fetches[kind] += sm.fetches;
    }
    uint32_t out = 0;
    for (int c = 0; c < 4; ++c) {
      if (!(in.dmask >> c & 1)) continue;
      const SqSel sel = sm.t.dst_sel[c];
      const float v = sel == SqSel::Zero ? 0.0f : sel == SqSel::One ? 1.0f : r.c[uint32_t(sel) - uint32_t(SqSel::X)];
      results[size_t(l)][out++] = std::bit_cast<uint32_t>(v);
    }
  }
  for (uint64_t m = w.exec(); m; m &= m - 1) {
    const int l = std::countr_zero(m);
    for (uint32_t k = 0; k < ncomp; ++k) w.vrow(dst + k)[l] = results[size_t(l)][k];
  }
  if (ctx.gfx && w.exec()) ++ctx.gfx->sample_instructions;
}

}  // namespace

void register_mimg(HandlerTable& t) {
  t.set(Op::IMAGE_SAMPLE, image_sample<0>);
  t.set(Op::IMAGE_SAMPLE_CL, image_sample<kClamp>);
  t.set(Op::IMAGE_SAMPLE_D, image_sample<kDerivs>);
  t.set(Op::IMAGE_SAMPLE_D_CL, image_sample<kDerivs | kClamp>);
  t.set(Op::IMAGE_SAMPLE_L, image_sample<kLod>);
  t.set(Op::IMAGE_SAMPLE_B, image_sample<kBias>);
  t.set(Op::IMAGE_SAMPLE_B_CL, image_sample<kBias | kClamp>);
  t.set(Op::IMAGE_SAMPLE_LZ, image_sample<kZeroLod>);
  // Depth compare (_c), offsets (_o), gather4, get_lod and the coarse-derivative (_cd) forms stay
  // unset: they fault as not implemented.
}

}  // namespace strobe::emu
