// Graphics waves on the emulator: exp writes the enabled channels of the active lanes into the
// wave's exports (fp16 pairs unpacked), v_interp computes P0 + I*P10 + J*P20 from each lane's
// primitive, and both are faults in a compute kernel or beyond the primitive's parameters.
#include "emu/graphics.h"

#include <bit>
#include <cmath>

#include <gtest/gtest.h>

#include "common/error.h"
#include "emu/emu_test_util.h"
#include "emu/memory.h"

namespace strobe::emu::test {
namespace {

uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }
float fval(uint32_t b) { return std::bit_cast<float>(b); }

// A graphics wave of `vgprs` registers with every lane active, ready to run `source`.
struct GfxRun {
  isa::Program program;
  Wave w;
  GraphicsIo io;
  GlobalMemory mem;
  explicit GfxRun(const std::string& source, uint32_t vgprs = 16) : program(assemble(source)) {
    w.num_vgprs = vgprs;
    w.v.assign(size_t(vgprs) * kWaveSize, 0);
    w.set_exec(~uint64_t{0});
  }
  DispatchStats run() { return run_graphics_wave(program, w, io, mem, "test_shader"); }
};

TEST(GraphicsWave, ExpWritesTheEnabledChannelsOfTheActiveLanesOnly) {
  GfxRun r("exp param3 v0, v1, off, v3\ns_endpgm");
  for (int l = 0; l < kWaveSize; ++l)
    for (int c = 0; c < 4; ++c) r.w.vrow(c)[l] = uint32_t(100 * c + l);
  r.w.set_exec(0xFFFFFFFFull);
  auto stats = r.run();
  EXPECT_EQ(stats.wave_instructions, 2u);
  const int t = kExpParam0 + 3;
  EXPECT_EQ(r.io.written[t], 0b1011);
  for (int l = 0; l < kWaveSize; ++l) {
    const bool active = l < 32;
    EXPECT_EQ(r.io.lanes(t, 0)[l], active ? uint32_t(l) : 0u) << l;
    EXPECT_EQ(r.io.lanes(t, 1)[l], active ? uint32_t(100 + l) : 0u) << l;
    EXPECT_EQ(r.io.lanes(t, 2)[l], 0u) << "channel 2 is off";
    EXPECT_EQ(r.io.lanes(t, 3)[l], active ? uint32_t(300 + l) : 0u) << l;
  }
  EXPECT_EQ(r.io.done_lanes, 0u);
}

TEST(GraphicsWave, CompressedExportUnpacksEachVgprsTwoHalves) {
  // RADV's colour export for an 8-bit target: v_cvt_pkrtz packs (r, g) and (b, a).
  GfxRun r("v_cvt_pkrtz_f16_f32 v2, v4, v5\nv_cvt_pkrtz_f16_f32 v3, v6, v7\n"
           "exp mrt0 v2, v2, v3, v3 done compr vm\ns_endpgm");
  const float in[4] = {1.5f, -2.0f, 0.25f, 0.1f};
  for (int c = 0; c < 4; ++c)
    for (int l = 0; l < kWaveSize; ++l) r.w.vrow(4 + c)[l] = fbits(in[c]);
  r.run();
  EXPECT_EQ(r.io.written[kExpMrt0], 0xF);
  EXPECT_EQ(r.io.done_lanes, ~uint64_t{0});
  EXPECT_EQ(fval(r.io.lanes(kExpMrt0, 0)[7]), 1.5f);
  EXPECT_EQ(fval(r.io.lanes(kExpMrt0, 1)[7]), -2.0f);
  EXPECT_EQ(fval(r.io.lanes(kExpMrt0, 2)[7]), 0.25f);
  // 0.1 in fp16, rounded toward zero by pkrtz: 0x2E66 = 0.0999755859375.
  EXPECT_EQ(fval(r.io.lanes(kExpMrt0, 3)[7]), 0.0999755859375f);
}

TEST(GraphicsWave, InterpolationIsP0PlusIP10PlusJP20FromEachLanesPrimitive) {
  GfxRun r("s_mov_b32 m0, s2\n"
           "v_interp_p1_f32 v2, v0, attr1.z\nv_interp_p2_f32 v2, v1, attr1.z\n"
           "v_interp_mov_f32 v3, p0, attr0.x\nv_interp_mov_f32 v4, p10, attr1.z\nv_interp_mov_f32 v5, p20, attr1.z\n"
           "s_endpgm");
  // Two primitives with two slots each: [slot][channel][P0, P10, P20].
  std::vector<float> prims(2 * 2 * 4 * 3);
  for (size_t i = 0; i < prims.size(); ++i) prims[i] = 0.5f * float(i) - 3.0f;
  r.io.param_slots = 2;
  for (int l = 0; l < kWaveSize; ++l) {
    r.io.lane_params[l] = prims.data() + (l < 16 ? 0 : 2 * 4 * 3);
    r.w.vrow(0)[l] = fbits(0.01f * float(l));
    r.w.vrow(1)[l] = fbits(1.0f - 0.013f * float(l));
  }
  r.run();
  for (int l = 0; l < kWaveSize; ++l) {
    const float* p = r.io.lane_params[l] + (1 * 4 + 2) * 3;
    const float i = 0.01f * float(l), j = 1.0f - 0.013f * float(l);
    const float p1 = p[1] * i + p[0];  // separately rounded, as the emulator computes it
    volatile float prod = p[2] * j;
    EXPECT_EQ(fval(r.w.vrow(2)[l]), prod + p1) << l;
    EXPECT_EQ(fval(r.w.vrow(3)[l]), r.io.lane_params[l][0]) << l;
    EXPECT_EQ(fval(r.w.vrow(4)[l]), p[1]) << l;
    EXPECT_EQ(fval(r.w.vrow(5)[l]), p[2]) << l;
  }
}

TEST(GraphicsWave, AnAttributeBeyondThePrimitivesSlotsFaultsNamingTheShader) {
  GfxRun r("v_interp_mov_f32 v3, p0, attr2.x\ns_endpgm");
  std::vector<float> prim(2 * 4 * 3, 1.0f);
  r.io.param_slots = 2;
  r.io.lane_params.fill(prim.data());
  try {
    r.run();
    FAIL() << "expected a fault";
  } catch (const FaultError& e) {
    EXPECT_NE(std::string(e.what()).find("attr2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("test_shader"), std::string::npos) << e.what();
  }
}

TEST(GraphicsWave, ExpInAComputeKernelIsAFault) {
  AsmLaunch a("exp mrt0 v0, v0, v0, v0\ns_endpgm", KdSpec{}, {64, 1, 1}, {64, 1, 1});
  try {
    a.run();
    FAIL() << "expected a fault";
  } catch (const FaultError& e) {
    EXPECT_NE(std::string(e.what()).find("exp outside a graphics shader"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace strobe::emu::test
