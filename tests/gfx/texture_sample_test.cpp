// A RADV-compiled pixel shader that samples a texture runs on strobe's emulator with strobe's own
// T# and S# (emu/image_desc.h) in descriptor set 0 and its texels in strobe's linear layout, and
// exports what a plain CPU bilinear sample computes.
#include <bit>
#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "emu/graphics.h"
#include "emu/image_desc.h"
#include "emu/memory.h"
#include "gfx/pipeline/shader_wave.h"
#include "gfx/shader/descriptors.h"
#include "gfx/shader/radv.h"
#include "isa/program.h"

namespace strobe::gfx {
namespace {

float fval(uint32_t b) { return std::bit_cast<float>(b); }

constexpr int kTexW = 5, kTexH = 3;  // not powers of two: wrapping must use the real sizes

// RGBA8 texel (x, y) of the test texture.
uint32_t texel(int x, int y) {
  return uint32_t(17 + 40 * x) | uint32_t(200 - 60 * y) << 8 | uint32_t(13 * (x + y) + 7) << 16 |
         uint32_t(255 - 11 * x * y) << 24;
}

// GL_REPEAT bilinear sample of channel `c` at (s, t), in floats, by the GL spec's formula.
float cpu_bilinear(float s, float t, int c) {
  auto wrap = [](int i, int n) { return ((i % n) + n) % n; };
  auto value = [&](int x, int y) { return float(texel(wrap(x, kTexW), wrap(y, kTexH)) >> (8 * c) & 0xFF) / 255.0f; };
  const float u = s * kTexW - 0.5f, v = t * kTexH - 0.5f;
  const int x0 = int(std::floor(u)), y0 = int(std::floor(v));
  const float a = u - std::floor(u), b = v - std::floor(v);
  return (1 - a) * (1 - b) * value(x0, y0) + a * (1 - b) * value(x0 + 1, y0) + (1 - a) * b * value(x0, y0 + 1) +
         a * b * value(x0 + 1, y0 + 1);
}

TEST(TextureSample, ARadvCompiledTexture2DSamplesStrobesDescriptorsBilinearly) {
  auto sp = compile_to_spirv("attribute vec2 position;\nattribute vec2 tc;\nvarying vec2 uv;\n"
                             "void main(){ uv = tc; gl_Position = vec4(position, 0.0, 1.0); }\n",
                             "precision mediump float;\nuniform sampler2D tex;\nvarying vec2 uv;\n"
                             "void main(){ gl_FragColor = texture2D(tex, uv); }\n",
                             {}, "textured");
  auto p = compile_pipeline(sp, PipelineKey{}, "textured");
  const CompiledShader& ps = p.fragment;
  ASSERT_NE(ps.assembly.find("image_sample"), std::string::npos) << ps.assembly;
  auto program = decode_shader(ps);
  emu::GlobalMemory mem;

  // The texture: one RGBA8 level in strobe's linear layout, rows padded to a pitch of 8 texels.
  emu::ImageDesc t;
  t.data_format = emu::ImgDataFormat::F8_8_8_8;
  t.num_format = emu::ImgNumFormat::Unorm;
  t.width = kTexW, t.height = kTexH, t.pitch = 8;
  t.base = mem.allocate(emu::image_bytes(t), 256, "tex");
  std::vector<uint32_t> texels(size_t(t.pitch) * kTexH, 0xDEADBEEF);
  for (int y = 0; y < kTexH; ++y)
    for (int x = 0; x < kTexW; ++x) texels[size_t(y) * t.pitch + x] = texel(x, y);
  mem.write(t.base, texels.data(), texels.size() * 4);
  emu::SamplerDesc s;  // GL's defaults but linear: REPEAT, bilinear, no mips
  s.mag_filter = s.min_filter = emu::TexXyFilter::Bilinear;

  DrawTables tables(mem, sp, p.vertex.args.vertex_inputs);
  tables.bind_sampler("tex", t.encode(), s.encode());

  // 64 pixels as 16 2x2 quads over an 8x8 block; uv = (i, j) (the triangle's uvs are (0,0),
  // (1,0), (0,1)), running from -0.3 to 1.4 so that the sample wraps on every side.
  auto bary = [](int l) {
    const int q = l / 4, x = 2 * (q % 4) + (l & 1), y = 2 * (q / 4) + (l >> 1 & 1);
    return std::pair{-0.3f + 0.21f * (float(x) + 0.5f), -0.3f + 0.2f * (float(y) + 0.5f)};
  };
  std::vector<PixelLane> pixels(emu::kWaveSize);
  for (int l = 0; l < emu::kWaveSize; ++l) std::tie(pixels[l].i, pixels[l].j) = bary(l);
  emu::Wave w;
  init_pixel_wave(w, ps, tables.bindings(), pixels);
  const float prim[4 * 3] = {0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};  // slot 0: {P0, P10, P20} per channel
  emu::GraphicsIo io;
  io.param_slots = 1;
  io.lane_params.fill(prim);
  emu::run_graphics_wave(program, w, io, mem, "textured (fragment)");

  ASSERT_EQ(io.written[emu::kExpMrt0], 0xF);
  for (int l = 0; l < emu::kWaveSize; ++l) {
    auto [u, v] = bary(l);
    for (int c = 0; c < 4; ++c) {
      const float want = cpu_bilinear(u, v, c);
      // The colour leaves as fp16 (v_cvt_pkrtz: round toward zero), 11 significant bits.
      EXPECT_NEAR(fval(io.lanes(emu::kExpMrt0, c)[l]), want, want * 1e-3 + 1e-6) << "lane " << l << " channel " << c;
    }
  }
  // Each lane sampled once, bilinearly: 4 texels.
  EXPECT_EQ(io.sample_lanes[size_t(emu::TexFilterKind::Bilinear)], 64u);
  EXPECT_EQ(io.texel_fetches[size_t(emu::TexFilterKind::Bilinear)], 256u);
  EXPECT_EQ(io.sample_lanes[size_t(emu::TexFilterKind::Point)], 0u);
  EXPECT_EQ(io.sample_lanes[size_t(emu::TexFilterKind::Trilinear)], 0u);
}

}  // namespace
}  // namespace strobe::gfx
