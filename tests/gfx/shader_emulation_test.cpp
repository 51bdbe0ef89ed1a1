// RADV's compiled graphics shaders run on strobe's emulator with the launch state strobe read
// back from RADV: a pixel shader interpolates its varyings and exports its colour.
#include <bit>
#include <cmath>

#include <gtest/gtest.h>

#include "emu/graphics.h"
#include "emu/memory.h"
#include "gfx/shader/radv.h"
#include "isa/program.h"

namespace strobe::gfx {
namespace {

float fval(uint32_t b) { return std::bit_cast<float>(b); }
uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }

TEST(ShaderEmulation, APixelShaderRadvCompiledInterpolatesAndExportsItsColour) {
  auto sp = compile_to_spirv("attribute vec3 position;\nattribute vec3 color;\nvarying vec3 c;\n"
                             "void main(){ c = color; gl_Position = vec4(position, 1.0); }\n",
                             "precision mediump float;\nvarying vec3 c;\nvoid main(){ gl_FragColor = vec4(c * 0.5, 1.0); }\n",
                             {}, "t");
  auto p = compile_pipeline(sp, PipelineKey{}, "t");
  const CompiledShader& ps = p.fragment;
  ASSERT_EQ(ps.args.param_locations.size(), 1u);
  auto program = isa::decode_program(
      {reinterpret_cast<const uint8_t*>(ps.code.data()), ps.code.size() * 4}, 0);

  emu::Wave w;
  w.num_vgprs = ps.vgprs;
  w.v.assign(size_t(ps.vgprs) * emu::kWaveSize, 0);
  w.set_exec(~uint64_t{0});
  auto bary = [](int l) { return std::pair{0.01f * float(l), 0.3f - 0.004f * float(l)}; };
  bool have_bary = false;
  for (const auto& a : ps.args.args) {
    if (a.kind == ArgKind::PerspCenter) {
      have_bary = true;
      for (int l = 0; l < emu::kWaveSize; ++l) {
        w.vrow(a.reg)[l] = fbits(bary(l).first);
        w.vrow(a.reg + 1)[l] = fbits(bary(l).second);
      }
    }
  }
  ASSERT_TRUE(have_bary);
  // One triangle whose vertices carry c = (0.2, 0.4, 0.8), (1, 0, 0.5), (0, 1, 0.25).
  const float v[3][3] = {{0.2f, 0.4f, 0.8f}, {1.0f, 0.0f, 0.5f}, {0.0f, 1.0f, 0.25f}};
  std::vector<float> prim(4 * 3, 0.0f);
  for (int ch = 0; ch < 3; ++ch) prim[size_t(ch) * 3 + 0] = v[0][ch], prim[size_t(ch) * 3 + 1] = v[1][ch] - v[0][ch],
                                 prim[size_t(ch) * 3 + 2] = v[2][ch] - v[0][ch];
  emu::GraphicsIo io;
  io.param_slots = 1;
  io.lane_params.fill(prim.data());
  emu::GlobalMemory mem;
  auto stats = emu::run_graphics_wave(program, w, io, mem, "t (fragment)");
  EXPECT_EQ(stats.wave_instructions, program.insts.size()) << "straight-line code runs each instruction once";
  ASSERT_EQ(io.written[emu::kExpMrt0], 0xF);
  EXPECT_EQ(io.done_lanes, ~uint64_t{0});
  for (int l = 0; l < emu::kWaveSize; ++l) {
    auto [i, j] = bary(l);
    for (int ch = 0; ch < 3; ++ch) {
      const float want = 0.5f * (v[0][ch] + i * (v[1][ch] - v[0][ch]) + j * (v[2][ch] - v[0][ch]));
      // The colour leaves as fp16 (v_cvt_pkrtz: round toward zero), 11 significant bits.
      EXPECT_NEAR(fval(io.lanes(emu::kExpMrt0, ch)[l]), want, std::fabs(want) * 1e-3 + 1e-6) << "lane " << l << " ch " << ch;
    }
    EXPECT_EQ(fval(io.lanes(emu::kExpMrt0, 3)[l]), 1.0f);
  }
}

}  // namespace
}  // namespace strobe::gfx
