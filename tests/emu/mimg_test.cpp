// image_sample on the emulator against a CPU reference written from the GL filtering rules:
// point/bilinear/trilinear filtering of every supported format, every addressing mode, explicit,
// zero, biased, clamped, derivative and quad-derived LODs, dmask and swizzles, the texel
// counters, and faults for what the sampler does not implement. Descriptors are held in SGPRs.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "common/error.h"
#include "emu/emu_test_util.h"
#include "emu/graphics.h"
#include "emu/image_desc.h"
#include "emu/memory.h"

namespace strobe::emu::test {
namespace {

using Color = std::array<float, 4>;
float fval(uint32_t b) { return std::bit_cast<float>(b); }
uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }

// ---------------------------------------------------------------- the CPU reference
struct Fmt {
  ImgDataFormat df;
  ImgNumFormat nf;
  int comps, bytes;
  const char* name;
};
const Fmt kFormats[] = {
    {ImgDataFormat::F8, ImgNumFormat::Unorm, 1, 1, "8 unorm"},
    {ImgDataFormat::F8_8, ImgNumFormat::Unorm, 2, 2, "8_8 unorm"},
    {ImgDataFormat::F8_8_8_8, ImgNumFormat::Unorm, 4, 4, "8_8_8_8 unorm"},
    {ImgDataFormat::F8_8_8_8, ImgNumFormat::Srgb, 4, 4, "8_8_8_8 srgb"},
    {ImgDataFormat::F5_6_5, ImgNumFormat::Unorm, 3, 2, "5_6_5 unorm"},
    {ImgDataFormat::F16_16_16_16, ImgNumFormat::Float, 4, 8, "16_16_16_16 float"},
    {ImgDataFormat::F32, ImgNumFormat::Float, 1, 4, "32 float"},
    {ImgDataFormat::F32_32_32_32, ImgNumFormat::Float, 4, 16, "32_32_32_32 float"},
};

float half_to_float(uint32_t h) {
  const int e = int(h >> 10 & 31), m = int(h & 1023);
  const float v = e == 0 ? std::ldexp(float(m), -24) : std::ldexp(float(m + 1024), e - 25);
  return h & 0x8000 ? -v : v;
}

// A texel's bytes as (x, y, z, w); absent channels are 0, 0, 0, 1.
Color ref_decode(const Fmt& f, const uint8_t* p) {
  Color c{0, 0, 0, 1};
  if (f.df == ImgDataFormat::F5_6_5) {
    const int v = p[0] | p[1] << 8;
    return {float(v & 31) / 31, float(v >> 5 & 63) / 63, float(v >> 11) / 31, 1};
  }
  for (int i = 0; i < f.comps; ++i) {
    if (f.nf == ImgNumFormat::Float && f.bytes / f.comps == 2) c[i] = half_to_float(p[2 * i] | p[2 * i + 1] << 8);
    else if (f.nf == ImgNumFormat::Float) std::memcpy(&c[i], p + 4 * i, 4);
    else c[i] = float(p[i]) / 255.0f;
    if (f.nf == ImgNumFormat::Srgb && i < 3) {
      const double v = p[i] / 255.0;
      c[i] = float(v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4));
    }
  }
  return c;
}

struct RefLevel {
  int w, h;
  std::vector<Color> texels;
};
struct RefSampler {
  TexClamp cx = TexClamp::Wrap, cy = TexClamp::Wrap;
  bool mag_linear = false, min_linear = false;
  TexMipFilter mip = TexMipFilter::None;
  Color border{0, 0, 0, 0};
};

// Index i of an n-texel axis under mode m; sets `border` when the border colour is read instead.
long ref_wrap(TexClamp m, long i, long n, bool& border) {
  const long mirrored = i < 0 ? -i - 1 : i;
  switch (m) {
    case TexClamp::Wrap: return ((i % n) + n) % n;
    case TexClamp::Mirror: {
      const long p = ((i % (2 * n)) + 2 * n) % (2 * n);
      return p < n ? p : 2 * n - 1 - p;
    }
    case TexClamp::ClampLastTexel: return std::clamp(i, 0L, n - 1);
    case TexClamp::MirrorOnceLastTexel: return std::min(mirrored, n - 1);
    case TexClamp::ClampHalfBorder: case TexClamp::ClampBorder: border |= i < 0 || i >= n; return i;
    case TexClamp::MirrorOnceHalfBorder: case TexClamp::MirrorOnceBorder: border |= mirrored >= n; return mirrored;
  }
  return 0;
}

Color ref_texel(const RefLevel& lv, const RefSampler& smp, long x, long y) {
  bool border = false;
  x = ref_wrap(smp.cx, x, lv.w, border);
  y = ref_wrap(smp.cy, y, lv.h, border);
  return border ? smp.border : lv.texels[size_t(y) * lv.w + x];
}

// GL's point or bilinear sample of one level at normalized (s, t).
Color ref_filter(const RefLevel& lv, RefSampler smp, float s, float t, bool linear) {
  float u = s * float(lv.w), v = t * float(lv.h);
  if (!linear) {
    // A half border is only reached by blending: point sampling clamps to the image.
    auto point = [](TexClamp m) {
      return m == TexClamp::ClampHalfBorder ? TexClamp::ClampLastTexel
             : m == TexClamp::MirrorOnceHalfBorder ? TexClamp::MirrorOnceLastTexel : m;
    };
    smp.cx = point(smp.cx), smp.cy = point(smp.cy);
    return ref_texel(lv, smp, long(std::floor(u)), long(std::floor(v)));
  }
  if (smp.cx == TexClamp::ClampHalfBorder) u = std::clamp(u, 0.0f, float(lv.w));
  if (smp.cx == TexClamp::MirrorOnceHalfBorder) u = std::clamp(u, -float(lv.w), float(lv.w));
  if (smp.cy == TexClamp::ClampHalfBorder) v = std::clamp(v, 0.0f, float(lv.h));
  if (smp.cy == TexClamp::MirrorOnceHalfBorder) v = std::clamp(v, -float(lv.h), float(lv.h));
  const float x = u - 0.5f, y = v - 0.5f;
  const long x0 = long(std::floor(x)), y0 = long(std::floor(y));
  const float a = x - std::floor(x), b = y - std::floor(y);
  Color out;
  for (int c = 0; c < 4; ++c)
    out[c] = (1 - a) * (1 - b) * ref_texel(lv, smp, x0, y0)[c] + a * (1 - b) * ref_texel(lv, smp, x0 + 1, y0)[c] +
             (1 - a) * b * ref_texel(lv, smp, x0, y0 + 1)[c] + a * b * ref_texel(lv, smp, x0 + 1, y0 + 1)[c];
  return out;
}

// GL's sample of a mipmapped texture at LOD `lambda` (already biased and clamped).
Color ref_sample(const std::vector<RefLevel>& levels, const RefSampler& smp, float s, float t, float lambda) {
  const bool linear = lambda <= 0 ? smp.mag_linear : smp.min_linear;
  const int last = int(levels.size()) - 1;
  if (smp.mip == TexMipFilter::None || lambda <= 0) return ref_filter(levels[0], smp, s, t, linear);
  if (smp.mip == TexMipFilter::Point) {
    const int d = lambda <= 0.5f ? 0 : std::min(last, int(std::ceil(lambda + 0.5f)) - 1);
    return ref_filter(levels[d], smp, s, t, linear);
  }
  if (lambda >= float(last)) return ref_filter(levels[last], smp, s, t, linear);
  const int d = int(std::floor(lambda));
  const float f = lambda - float(d);
  const Color lo = ref_filter(levels[d], smp, s, t, linear), hi = ref_filter(levels[d + 1], smp, s, t, linear);
  Color out;
  for (int c = 0; c < 4; ++c) out[c] = (1 - f) * lo[c] + f * hi[c];
  return out;
}

// ---------------------------------------------------------------- textures and runs
// A texture in device memory (strobe's linear layout, rows padded to width + 3) and its reference.
struct Texture {
  ImageDesc desc;
  std::vector<RefLevel> levels;
};

using TexelGen = std::function<void(uint32_t level, uint8_t* texel)>;

Texture make_texture(GlobalMemory& mem, const Fmt& f, uint32_t w, uint32_t h, uint32_t nlevels, const TexelGen& gen) {
  Texture t;
  t.desc.data_format = f.df;
  t.desc.num_format = f.nf;
  t.desc.width = w, t.desc.height = h, t.desc.pitch = w + 3;
  t.desc.last_level = nlevels - 1;
  t.desc.base = mem.allocate(image_bytes(t.desc), 256, "texture");
  for (uint32_t l = 0; l < nlevels; ++l) {
    const uint32_t lw = std::max(1u, w >> l), lh = std::max(1u, h >> l), pitch = std::max(1u, t.desc.pitch >> l);
    RefLevel ref{int(lw), int(lh), {}};
    std::vector<uint8_t> bytes(size_t(pitch) * lh * f.bytes, 0xA5);
    for (uint32_t y = 0; y < lh; ++y)
      for (uint32_t x = 0; x < lw; ++x) {
        uint8_t* p = &bytes[(size_t(y) * pitch + x) * f.bytes];
        gen(l, p);
        ref.texels.push_back(ref_decode(f, p));
      }
    mem.write(t.desc.base + image_level_offset(t.desc, l), bytes.data(), bytes.size());
    t.levels.push_back(std::move(ref));
  }
  return t;
}

// Random texel bytes that decode to finite values.
TexelGen random_texels(const Fmt& f, std::mt19937& rng) {
  return [&f, &rng](uint32_t, uint8_t* p) {
    for (int c = 0; c < f.comps; ++c) {
      if (f.nf != ImgNumFormat::Float) {
        for (int b = 0; b < f.bytes; ++b) p[b] = uint8_t(rng());
      } else if (f.bytes / f.comps == 2) {
        const uint16_t h = uint16_t((rng() & 0x8000) | (10 + rng() % 8) << 10 | (rng() & 1023));
        std::memcpy(p + 2 * c, &h, 2);
      } else {
        const float v = std::uniform_real_distribution<float>(-4, 4)(rng);
        std::memcpy(p + 4 * c, &v, 4);
      }
    }
  };
}

// One R8 value per level (level l reads kLevelValue[l] / 255): which level a sample used.
constexpr uint8_t kLevelValue[] = {20, 120, 220};
TexelGen level_marks() {
  return [](uint32_t level, uint8_t* p) { *p = kLevelValue[level]; };
}
int level_of(float v) {
  for (int l = 0; l < 3; ++l)
    if (v == float(kLevelValue[l]) / 255.0f) return l;
  return -1;
}

// A graphics wave running one sampling snippet: T# in s[8:15], S# in s[4:7], results from v4.
struct SampleRun {
  isa::Program program;
  Wave w;
  GraphicsIo io;
  GlobalMemory& mem;
  SampleRun(const std::string& source, GlobalMemory& m) : program(assemble(source + "\ns_endpgm")), mem(m) {
    w.num_vgprs = 16;
    w.v.assign(size_t(w.num_vgprs) * kWaveSize, 0);
    w.set_exec(~uint64_t{0});
  }
  void bind(const ImageDesc& t, const SamplerDesc& s) {
    const auto tw = t.encode();
    const auto sw = s.encode();
    std::copy(tw.begin(), tw.end(), &w.s[8]);
    std::copy(sw.begin(), sw.end(), &w.s[4]);
  }
  void set(uint32_t reg, int lane, float v) { w.vrow(reg)[lane] = fbits(v); }
  float get(uint32_t reg, int lane) const { return fval(w.vrow(reg)[lane]); }
  void run() { run_graphics_wave(program, w, io, mem, "sampler_test"); }
};

constexpr const char* kSample = "image_sample v[4:7], v[0:1], s[8:15], s[4:7] dmask:0xf";
constexpr const char* kSampleL = "image_sample_l v[4:7], v[0:2], s[8:15], s[4:7] dmask:0xf";
constexpr const char* kSampleLz = "image_sample_lz v[4:7], v[0:1], s[8:15], s[4:7] dmask:0xf";
constexpr const char* kSampleB = "image_sample_b v[4:7], v[0:2], s[8:15], s[4:7] dmask:0xf";

SamplerDesc sampler_of(const RefSampler& r) {
  SamplerDesc s;
  s.clamp = {r.cx, r.cy, TexClamp::Wrap};
  s.mag_filter = r.mag_linear ? TexXyFilter::Bilinear : TexXyFilter::Point;
  s.min_filter = r.min_linear ? TexXyFilter::Bilinear : TexXyFilter::Point;
  s.mip_filter = r.mip;
  s.max_lod = 15;
  return s;
}

void expect_color(const Color& got, const Color& want, const std::string& what) {
  for (int c = 0; c < 4; ++c)
    EXPECT_NEAR(got[c], want[c], 2e-6f + 1e-6f * std::fabs(want[c])) << what << " channel " << c;
}
Color result(const SampleRun& r, int lane) { return {r.get(4, lane), r.get(5, lane), r.get(6, lane), r.get(7, lane)}; }

// ---------------------------------------------------------------- filtering
TEST(Mimg, PointAndBilinearSamplesOfEverySupportedFormatMatchTheReference) {
  std::mt19937 rng(7);
  for (const Fmt& f : kFormats) {
    for (bool linear : {false, true}) {
      GlobalMemory mem;
      const Texture tex = make_texture(mem, f, 4, 4, 1, random_texels(f, rng));
      RefSampler smp;
      smp.mag_linear = smp.min_linear = linear;
      SampleRun r(kSample, mem);
      r.bind(tex.desc, sampler_of(smp));
      std::uniform_real_distribution<float> coord(-1.5f, 2.5f);
      for (int l = 0; l < kWaveSize; ++l) r.set(0, l, coord(rng)), r.set(1, l, coord(rng));
      r.run();
      for (int l = 0; l < kWaveSize; ++l)
        expect_color(result(r, l), ref_sample(tex.levels, smp, r.get(0, l), r.get(1, l), 0),
                     std::string(f.name) + (linear ? " bilinear" : " point") + " lane " + std::to_string(l));
    }
  }
}

TEST(Mimg, EveryAddressingModeMapsTexelIndicesAsGlDoes) {
  // Point samples at texel centres i + 0.5 of a 4-wide axis, i = -6..9 (B: the border colour).
  constexpr int B = -1;
  const std::pair<TexClamp, std::array<int, 16>> kModes[] = {
      {TexClamp::Wrap, {2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1}},
      {TexClamp::Mirror, {2, 3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0, 1}},
      {TexClamp::ClampLastTexel, {0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3}},
      {TexClamp::MirrorOnceLastTexel, {3, 3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3}},
      {TexClamp::ClampHalfBorder, {0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3}},
      {TexClamp::MirrorOnceHalfBorder, {3, 3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3}},
      {TexClamp::ClampBorder, {B, B, B, B, B, B, 0, 1, 2, 3, B, B, B, B, B, B}},
      {TexClamp::MirrorOnceBorder, {B, B, 3, 2, 1, 0, 0, 1, 2, 3, B, B, B, B, B, B}},
  };
  const Fmt& r8 = kFormats[0];
  for (const auto& [mode, want] : kModes) {
    for (int axis = 0; axis < 2; ++axis) {
      GlobalMemory mem;
      int n = 0;  // texel k of the 4x4 image holds 10 * (its index along `axis`) + 5
      const Texture tex = make_texture(mem, r8, 4, 4, 1, [&](uint32_t, uint8_t* p) {
        const int x = n % 4, y = n / 4;
        *p = uint8_t(10 * (axis ? y : x) + 5), ++n;
      });
      SamplerDesc s;
      s.clamp = {axis ? TexClamp::Wrap : mode, axis ? mode : TexClamp::Wrap, TexClamp::Wrap};
      s.border = TexBorder::OpaqueWhite;
      SampleRun r(kSample, mem);
      r.bind(tex.desc, s);
      for (int l = 0; l < 16; ++l) {
        const float along = (float(l - 6) + 0.5f) / 4, across = 0.375f;
        r.set(0, l, axis ? across : along), r.set(1, l, axis ? along : across);
      }
      r.run();
      for (int l = 0; l < 16; ++l)
        EXPECT_EQ(r.get(4, l), want[l] == B ? 1.0f : float(10 * want[l] + 5) / 255.0f)
            << "mode " << int(mode) << " axis " << axis << " index " << l - 6;
    }
  }
  // Bilinear against the reference at random points, every mode on both axes.
  std::mt19937 rng(11);
  for (const auto& [mode, want] : kModes) {
    GlobalMemory mem;
    const Texture tex = make_texture(mem, kFormats[2], 4, 4, 1, random_texels(kFormats[2], rng));
    RefSampler smp;
    smp.cx = smp.cy = mode;
    smp.mag_linear = smp.min_linear = true;
    smp.border = {0, 0, 0, 1};
    SamplerDesc s = sampler_of(smp);
    s.border = TexBorder::OpaqueBlack;
    SampleRun r(kSample, mem);
    r.bind(tex.desc, s);
    std::uniform_real_distribution<float> coord(-1.5f, 2.5f);
    for (int l = 0; l < kWaveSize; ++l) r.set(0, l, coord(rng)), r.set(1, l, coord(rng));
    r.run();
    for (int l = 0; l < kWaveSize; ++l)
      expect_color(result(r, l), ref_sample(tex.levels, smp, r.get(0, l), r.get(1, l), 0),
                   "bilinear mode " + std::to_string(int(mode)) + " lane " + std::to_string(l));
  }
}

TEST(Mimg, HalfBorderBlendsHalfTheBorderAtTheImageEdge) {
  GlobalMemory mem;
  const Texture tex = make_texture(mem, kFormats[0], 4, 1, 1, [](uint32_t, uint8_t* p) { *p = 0; });
  SamplerDesc s;
  s.clamp = {TexClamp::ClampHalfBorder, TexClamp::ClampLastTexel, TexClamp::Wrap};
  s.mag_filter = s.min_filter = TexXyFilter::Bilinear;
  s.border = TexBorder::OpaqueWhite;
  SampleRun r(kSample, mem);
  r.bind(tex.desc, s);
  r.set(0, 0, -3.0f), r.set(0, 1, 0.0f), r.set(0, 2, 0.5f), r.set(0, 3, 7.0f);  // clamped to 0, 0, -, 1
  r.run();
  EXPECT_EQ(r.get(4, 0), 0.5f);
  EXPECT_EQ(r.get(4, 1), 0.5f);
  EXPECT_EQ(r.get(4, 2), 0.0f);
  EXPECT_EQ(r.get(4, 3), 0.5f);
}

TEST(Mimg, TrilinearAndMipPointSamplesAtExplicitLodsMatchTheReference) {
  std::mt19937 rng(3);
  const Fmt& f = kFormats[2];
  for (TexMipFilter mip : {TexMipFilter::None, TexMipFilter::Point, TexMipFilter::Linear}) {
    GlobalMemory mem;
    const Texture tex = make_texture(mem, f, 4, 4, 3, random_texels(f, rng));  // 4x4, 2x2, 1x1
    RefSampler smp;
    smp.mag_linear = smp.min_linear = true;
    smp.mip = mip;
    SampleRun r(kSampleL, mem);
    r.bind(tex.desc, sampler_of(smp));
    const float kLods[] = {-1, 0, 0.25f, 0.5f, 0.75f, 1, 1.3f, 1.5f, 2, 3.5f};
    std::uniform_real_distribution<float> coord(-0.5f, 1.5f);
    for (int l = 0; l < kWaveSize; ++l) r.set(0, l, coord(rng)), r.set(1, l, coord(rng)), r.set(2, l, kLods[l % 10]);
    r.run();
    for (int l = 0; l < kWaveSize; ++l)
      expect_color(result(r, l), ref_sample(tex.levels, smp, r.get(0, l), r.get(1, l), kLods[l % 10]),
                   "mip filter " + std::to_string(int(mip)) + " lod " + std::to_string(kLods[l % 10]));
  }
}

// ---------------------------------------------------------------- LOD selection
struct LevelRun {
  GlobalMemory mem;
  Texture tex;
  SamplerDesc s;
  LevelRun() : tex(make_texture(mem, kFormats[0], 4, 4, 3, level_marks())) {
    s.mip_filter = TexMipFilter::Point;
    s.max_lod = 15;
  }
  // Puts each quad's right column `dx` texels and its bottom row `dy` texels from its top-left
  // corner at (0.3, 0.6); the bottom-right lane lies 16 texels further, which the derivatives
  // (top-right minus top-left, bottom-left minus top-left) must not see.
  static void quads(SampleRun& r, float dx, float dy, uint32_t s_reg) {
    for (int l = 0; l < kWaveSize; ++l) {
      r.set(s_reg, l, 0.3f + (l & 1) * dx / 4 + (l % 4 == 3 ? 4.0f : 0.0f));
      r.set(s_reg + 1, l, 0.6f + (l >> 1 & 1) * dy / 4);
    }
  }
  static void quads(SampleRun& r, float step, uint32_t s_reg) { quads(r, step, step, s_reg); }
};

TEST(Mimg, ImplicitLodComesFromTheQuadsTexelStep) {
  for (auto [step, level] : {std::pair{0.25f, 0}, std::pair{2.0f, 1}, std::pair{4.0f, 2}}) {
    LevelRun lr;
    SampleRun r(kSample, lr.mem);
    r.bind(lr.tex.desc, lr.s);
    LevelRun::quads(r, step, 0);
    r.run();
    for (int l = 0; l < kWaveSize; ++l) EXPECT_EQ(level_of(r.get(4, l)), level) << "step " << step << " lane " << l;
  }
  // The longer of the two derivatives decides.
  for (auto [dx, dy, level] : {std::tuple{2.0f, 0.25f, 1}, std::tuple{0.25f, 4.0f, 2}, std::tuple{0.5f, 0.0f, 0}}) {
    LevelRun lr;
    SampleRun r(kSample, lr.mem);
    r.bind(lr.tex.desc, lr.s);
    LevelRun::quads(r, dx, dy, 0);
    r.run();
    for (int l = 0; l < kWaveSize; ++l) EXPECT_EQ(level_of(r.get(4, l)), level) << dx << " x " << dy << " lane " << l;
  }
}

TEST(Mimg, LanesOutsideExecStillSupplyTheirQuadsCoordinates) {
  LevelRun lr;
  SampleRun r(kSample, lr.mem);
  r.bind(lr.tex.desc, lr.s);
  LevelRun::quads(r, 2.0f, 0);
  r.w.set_exec(0x1111'1111'1111'1111ull);  // only each quad's top-left lane
  r.run();
  for (int l = 0; l < kWaveSize; ++l) EXPECT_EQ(level_of(r.get(4, l)), l % 4 ? -1 : 1) << "lane " << l;
}

TEST(Mimg, BiasLodAndZeroLodOpcodesChooseTheirLevel) {
  {  // _b: a 1/4-texel quad (lambda -2) biased by +3 reads level 1
    LevelRun lr;
    SampleRun r(kSampleB, lr.mem);
    r.bind(lr.tex.desc, lr.s);
    LevelRun::quads(r, 0.25f, 1);
    for (int l = 0; l < kWaveSize; ++l) r.set(0, l, 3.0f);
    r.run();
    for (int l = 0; l < kWaveSize; ++l) EXPECT_EQ(level_of(r.get(4, l)), 1) << l;
  }
  {  // _lz: level 0 whatever the quad's step
    LevelRun lr;
    SampleRun r(kSampleLz, lr.mem);
    r.bind(lr.tex.desc, lr.s);
    LevelRun::quads(r, 4.0f, 0);
    r.run();
    for (int l = 0; l < kWaveSize; ++l) EXPECT_EQ(level_of(r.get(4, l)), 0) << l;
  }
  {  // _l: the lane's own LOD, rounding halves down
    LevelRun lr;
    SampleRun r(kSampleL, lr.mem);
    r.bind(lr.tex.desc, lr.s);
    const float kLods[] = {0.5f, 0.51f, 1.5f, 1.6f, 9.0f, -4.0f};
    const int kLevels[] = {0, 1, 1, 2, 2, 0};
    for (int l = 0; l < 6; ++l) r.set(0, l, 0.5f), r.set(1, l, 0.5f), r.set(2, l, kLods[l]);
    r.run();
    for (int l = 0; l < 6; ++l) EXPECT_EQ(level_of(r.get(4, l)), kLevels[l]) << "lod " << kLods[l];
  }
}

TEST(Mimg, ExplicitDerivativesAndTheLodClampChooseTheLevel) {
  {  // _d: ds/dx, dt/dx, ds/dy, dt/dy, then s, t; lane l's x derivative spans 2^(l % 3) texels
    LevelRun lr;
    SampleRun r("image_sample_d v[8:11], v[0:7], s[8:15], s[4:7] dmask:0xf", lr.mem);
    r.bind(lr.tex.desc, lr.s);
    for (int l = 0; l < kWaveSize; ++l) {
      r.set(0, l, float(1 << (l % 3)) / 4), r.set(1, l, 0), r.set(2, l, 0), r.set(3, l, 0.25f / 4);
      r.set(4, l, 0.5f), r.set(5, l, 0.5f);
    }
    r.run();
    for (int l = 0; l < kWaveSize; ++l) EXPECT_EQ(level_of(r.get(8, l)), l % 3) << l;
  }
  {  // _cl: a 1/4-texel quad (lambda -2) clamped to at least 1 reads level 1
    LevelRun lr;
    SampleRun r("image_sample_cl v[4:7], v[0:2], s[8:15], s[4:7] dmask:0xf", lr.mem);
    r.bind(lr.tex.desc, lr.s);
    LevelRun::quads(r, 0.25f, 0);
    for (int l = 0; l < kWaveSize; ++l) r.set(2, l, 1.0f);
    r.run();
    for (int l = 0; l < kWaveSize; ++l) EXPECT_EQ(level_of(r.get(4, l)), 1) << l;
  }
}

TEST(Mimg, SamplerAndResourceLodLimitsAndTheBaseLevelApply) {
  auto level_with = [](const std::function<void(LevelRun&)>& edit, float lod) {
    LevelRun lr;
    edit(lr);
    SampleRun r(kSampleL, lr.mem);
    r.bind(lr.tex.desc, lr.s);
    r.set(0, 0, 0.5f), r.set(1, 0, 0.5f), r.set(2, 0, lod);
    r.run();
    return level_of(r.get(4, 0));
  };
  EXPECT_EQ(level_with([](LevelRun& lr) { lr.s.min_lod = 1; }, 0), 1);
  EXPECT_EQ(level_with([](LevelRun& lr) { lr.s.max_lod = 1; }, 5), 1);
  EXPECT_EQ(level_with([](LevelRun& lr) { lr.tex.desc.min_lod = 2; }, 0), 2);
  EXPECT_EQ(level_with([](LevelRun& lr) { lr.s.lod_bias = 1; }, 0), 1) << "the S# bias applies to explicit LODs";
  EXPECT_EQ(level_with([](LevelRun& lr) { lr.tex.desc.base_level = 1; }, 0), 1) << "LOD 0 is the base level";
  EXPECT_EQ(level_with([](LevelRun& lr) { lr.tex.desc.last_level = 1; }, 5), 1);
  EXPECT_EQ(level_with([](LevelRun& lr) { lr.s.mip_filter = TexMipFilter::None; }, 2), 0);
}

// ---------------------------------------------------------------- results and counters
TEST(Mimg, DmaskPacksTheEnabledChannelsOfTheSwizzledResult) {
  GlobalMemory mem;
  const Texture tex = make_texture(mem, kFormats[2], 1, 1, 1, [](uint32_t, uint8_t* p) {
    p[0] = 51, p[1] = 102, p[2] = 153, p[3] = 204;
  });
  ImageDesc t = tex.desc;
  t.dst_sel = {SqSel::Z, SqSel::One, SqSel::X, SqSel::Zero};
  SampleRun r("image_sample v[4:5], v[0:1], s[8:15], s[4:7] dmask:0xa", mem);
  r.bind(t, SamplerDesc{});
  for (int l = 0; l < kWaveSize; ++l) r.set(6, l, 42.0f);
  r.run();
  EXPECT_EQ(r.get(4, 0), 1.0f) << "y = One";
  EXPECT_EQ(r.get(5, 0), 0.0f) << "w = Zero";
  EXPECT_EQ(r.get(6, 0), 42.0f) << "only two registers are written";
  SampleRun z("image_sample v4, v[0:1], s[8:15], s[4:7] dmask:0x1", mem);
  z.bind(t, SamplerDesc{});
  z.run();
  EXPECT_EQ(z.get(4, 0), 0.6f) << "x = Z";
}

TEST(Mimg, OneDimensionalImagesReadOneCoordinate) {
  GlobalMemory mem;
  int n = 0;
  Texture tex = make_texture(mem, kFormats[0], 4, 1, 1, [&](uint32_t, uint8_t* p) { *p = uint8_t(50 * n++); });
  tex.desc.type = ImgType::T1D;
  SampleRun r("image_sample v[4:7], v0, s[8:15], s[4:7] dmask:0xf", mem);
  r.bind(tex.desc, SamplerDesc{});
  for (int l = 0; l < 4; ++l) r.set(0, l, (float(l) + 0.5f) / 4), r.set(1, l, 99.0f);
  r.run();
  for (int l = 0; l < 4; ++l) EXPECT_EQ(r.get(4, l), float(50 * l) / 255.0f) << l;
}

TEST(Mimg, TexelFetchesAreCountedByFilterKind) {
  LevelRun lr;
  lr.s.mag_filter = lr.s.min_filter = TexXyFilter::Bilinear;
  lr.s.mip_filter = TexMipFilter::Linear;
  SampleRun r(kSampleL, lr.mem);
  r.bind(lr.tex.desc, lr.s);
  for (int l = 0; l < kWaveSize; ++l) r.set(0, l, 0.5f), r.set(1, l, 0.5f), r.set(2, l, l < 32 ? 0.5f : 0.0f);
  r.w.set_exec(0xFFFF'FFFF'FFFF'0000ull);  // 16 trilinear lanes, 32 bilinear
  r.run();
  EXPECT_EQ(r.io.sample_lanes, (std::array<uint64_t, 3>{0, 32, 16}));
  EXPECT_EQ(r.io.texel_fetches, (std::array<uint64_t, 3>{0, 128, 128}));
  LevelRun pr;
  SampleRun p(kSampleLz, pr.mem);
  p.bind(pr.tex.desc, pr.s);
  p.run();
  EXPECT_EQ(p.io.sample_lanes, (std::array<uint64_t, 3>{64, 0, 0}));
  EXPECT_EQ(p.io.texel_fetches, (std::array<uint64_t, 3>{64, 0, 0}));
}

// ---------------------------------------------------------------- faults
std::string fault_of(const std::string& source, const std::function<void(SampleRun&, Texture&)>& edit = {}) {
  GlobalMemory mem;
  Texture tex = make_texture(mem, kFormats[2], 4, 4, 1, [](uint32_t, uint8_t* p) { std::memset(p, 0, 4); });
  SampleRun r(source, mem);
  if (edit) edit(r, tex);
  r.bind(tex.desc, SamplerDesc{});
  try {
    r.run();
  } catch (const FaultError& e) {
    return e.what();
  }
  return "no fault";
}

TEST(Mimg, UnsupportedFormatsTypesAndBitsFaultAsNotImplemented) {
  auto has = [](const std::string& text, const char* what) { return text.find(what) != std::string::npos; };
  const std::string bc1 = fault_of(kSample, [](SampleRun&, Texture& t) { t.desc.data_format = ImgDataFormat::BC1; });
  EXPECT_TRUE(has(bc1, "not implemented: image format BC1")) << bc1;
  EXPECT_TRUE(has(bc1, "sampler_test")) << bc1;
  const std::string snorm = fault_of(kSample, [](SampleRun&, Texture& t) { t.desc.num_format = ImgNumFormat::Snorm; });
  EXPECT_TRUE(has(snorm, "not implemented: image format 8_8_8_8 with number format 1")) << snorm;
  const std::string cube = fault_of(kSample, [](SampleRun&, Texture& t) { t.desc.type = ImgType::Cube; });
  EXPECT_TRUE(has(cube, "not implemented: cube images")) << cube;
  const std::string three = fault_of(kSample, [](SampleRun&, Texture& t) { t.desc.type = ImgType::T3D; });
  EXPECT_TRUE(has(three, "not implemented: 3D images")) << three;
  const std::string d16 = fault_of(kSample, [](SampleRun& r, Texture&) { r.program.insts[0].d16 = 1; });
  EXPECT_TRUE(has(d16, "not implemented: d16")) << d16;
  const std::string array = fault_of("image_sample v[4:7], v[0:2], s[8:15], s[4:7] dmask:0xf da");
  EXPECT_TRUE(has(array, "not implemented: array images")) << array;
  const std::string compare = fault_of("image_sample_c v[4:7], v[0:2], s[8:15], s[4:7] dmask:0xf");
  EXPECT_TRUE(has(compare, "not implemented: image_sample_c")) << compare;
  const std::string gather = fault_of("image_gather4 v[4:7], v[0:1], s[8:15], s[4:7] dmask:0x1");
  EXPECT_TRUE(has(gather, "not implemented: image_gather4")) << gather;
}

TEST(Mimg, AnImageOutsideDeviceMemoryFaultsNamingTheImage) {
  const std::string e = fault_of(kSample, [](SampleRun&, Texture& t) { t.desc.base = 0x7700'0000'0000ull; });
  EXPECT_NE(e.find("image at 0x770000000000"), std::string::npos) << e;
  EXPECT_NE(e.find("T# in s[8:15]"), std::string::npos) << e;
  EXPECT_NE(e.find("outside every live allocation"), std::string::npos) << e;
}

}  // namespace
}  // namespace strobe::emu::test
