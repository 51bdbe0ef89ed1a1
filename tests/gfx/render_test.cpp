// The functional pipeline renders constructed frames as the GL specifies: every pixel a draw
// covers gets the colour its RADV-compiled shaders compute, the depth test keeps the nearest
// surface in either draw order, blending and render-to-texture work, and each stage's counts
// add up.
#include "gfx/pipeline/renderer.h"
#include "gfx/pipeline/pipeline_cache.h"

#include <cmath>
#include <cstring>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/error.h"

namespace strobe::gfx {
namespace {

constexpr uint32_t kFloat = 0x1406, kTriangles = 4, kTriangleStrip = 5, kPoints = 0;
constexpr int kW = 16, kH = 12;

const char* kColorVs =
    "attribute vec3 position;\nattribute vec4 color;\nvarying vec4 c;\n"
    "void main(){ c = color; gl_Position = vec4(position, 1.0); }\n";
const char* kColorFs = "precision mediump float;\nvarying vec4 c;\nvoid main(){ gl_FragColor = c; }\n";

std::shared_ptr<const GlProgram> program(const char* vs, const char* fs, uint64_t id) {
  auto p = std::make_shared<GlProgram>();
  p->id = id;
  p->link_call = id;
  p->vertex = vs;
  p->fragment = fs;
  p->attribute_locations = {{"position", 0}, {"color", 1}};
  return p;
}

GlAttrib array_of(std::vector<float> v, int size) {
  GlAttrib a;
  a.enabled = true;
  a.size = size;
  a.type = kFloat;
  a.data = std::make_shared<const std::vector<uint8_t>>(reinterpret_cast<const uint8_t*>(v.data()),
                                                         reinterpret_cast<const uint8_t*>(v.data() + v.size()));
  return a;
}

GlAttrib constant(float r, float g, float b, float a) {
  GlAttrib x;
  x.current = {r, g, b, a};
  return x;
}

GlFixed window_state() {
  GlFixed f;
  f.viewport = {0, 0, kW, kH};
  f.target.width = kW;
  f.target.height = kH;
  return f;
}

// A draw of `positions` (xyz per vertex) in one colour with the colour program.
GlDraw colored(std::vector<float> positions, uint32_t mode, std::array<float, 4> rgba, uint64_t call) {
  static auto p = program(kColorVs, kColorFs, 1);
  GlDraw d;
  d.call = call;
  d.mode = mode;
  d.count = uint32_t(positions.size() / 3);
  d.program = p;
  d.uniforms = std::make_shared<const std::map<std::string, std::vector<uint8_t>>>();
  d.attribs[0] = array_of(std::move(positions), 3);
  d.attribs[1] = constant(rgba[0], rgba[1], rgba[2], rgba[3]);
  d.fixed = window_state();
  return d;
}

std::vector<float> full_screen(float z) { return {-1, -1, z, 1, -1, z, -1, 1, z, 1, 1, z}; }

// A full-window draw (program and call `id`) whose colour is `expression` of sampler `tex` at
// uv, with texture `t` on unit 0.
GlDraw sampling(std::shared_ptr<const GlTexture> t, const std::string& expression, uint64_t id) {
  GlDraw d = colored(full_screen(0), kTriangleStrip, {0, 0, 0, 1}, id);
  auto p = std::make_shared<GlProgram>(*program("attribute vec3 position;\nvarying vec2 uv;\n"
                                                "void main(){ uv = position.xy * 0.5 + 0.5; gl_Position = vec4(position, 1.0); }\n",
                                                "", id));
  p->fragment = "precision mediump float;\nuniform sampler2D tex;\nvarying vec2 uv;\nvoid main(){ gl_FragColor = " +
                expression + "; }\n";
  d.program = p;
  d.attribs.erase(1);
  d.textures[0] = std::move(t);
  return d;
}

GlClear clear_all(std::array<float, 4> rgba, uint64_t call) {
  GlClear c;
  c.call = call;
  c.mask = 0x4100;  // colour and depth
  c.fixed = window_state();
  c.fixed.clear_color = rgba;
  return c;
}

std::array<int, 4> pixel(const Renderer& r, int x, int y) {
  const uint8_t* p = r.window().pixel(x, y);
  return {p[0], p[1], p[2], p[3]};
}

TEST(Render, AFullScreenStripCoversEveryPixelOnceAndShadesEachVertexOnce) {
  GlFrame f;
  f.ops.emplace_back(clear_all({0, 0, 1, 1}, 1));
  f.ops.emplace_back(colored(full_screen(0), kTriangleStrip, {1, 0, 0, 1}, 2));
  Renderer r;
  const FrameStats s = r.render(f, 0);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) ASSERT_EQ(pixel(r, x, y), (std::array<int, 4>{255, 0, 0, 255})) << x << "," << y;
  EXPECT_EQ(s.draws, 1u);
  EXPECT_EQ(s.clears, 1u);
  EXPECT_EQ(s.vs_invocations, 4u);
  EXPECT_EQ(s.primitives, 2u);
  EXPECT_EQ(s.rasterized, 2u);
  EXPECT_EQ(s.fragments, uint64_t(kW * kH)) << "the shared diagonal must not cover a pixel twice";
  EXPECT_EQ(s.ps_invocations, uint64_t(kW * kH));
  EXPECT_EQ(s.pixels_written, uint64_t(kW * kH));
  // Quads the diagonal crosses are shaded once for each triangle: at most one per quad row and column.
  EXPECT_GT(s.quads, uint64_t(kW * kH / 4));
  EXPECT_LE(s.quads, uint64_t(kW * kH / 4 + kW / 2 + kH / 2));
  EXPECT_EQ(s.helper_lanes, 4 * s.quads - s.ps_invocations);
  EXPECT_EQ(s.vertex_shaders.size(), 1u);
  EXPECT_EQ(s.pixel_shaders.begin()->second.invocations, uint64_t(kW * kH));
}

TEST(Render, ColoursInterpolatePerspectiveCorrectlyAcrossATriangle) {
  GlDraw d = colored({-1, -1, 0, 3, -1, 0, -1, 3, 0}, kTriangles, {0, 0, 0, 1}, 2);
  d.attribs[1] = array_of({1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1}, 4);  // red, green, blue corners
  GlFrame f;
  f.ops.emplace_back(std::move(d));
  Renderer r;
  r.render(f, 0);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      // Window (x + 0.5, y + 0.5) in the triangle spanning (0,0), (2W,0), (0,2H).
      const float g = (float(x) + 0.5f) / float(2 * kW), b = (float(y) + 0.5f) / float(2 * kH);
      const auto p = pixel(r, x, y);
      EXPECT_NEAR(p[0], 255 * (1 - g - b), 1.01) << x << "," << y;
      EXPECT_NEAR(p[1], 255 * g, 1.01) << x << "," << y;
      EXPECT_NEAR(p[2], 255 * b, 1.01) << x << "," << y;
    }
}

TEST(Render, TheDepthTestKeepsTheNearerSurfaceInEitherDrawOrderAndHierarchicalZRejectsHiddenBlocks) {
  for (bool near_first : {false, true}) {
    GlDraw far = colored(full_screen(0.5f), kTriangleStrip, {0, 1, 0, 1}, 2);
    GlDraw near = colored(full_screen(-0.5f), kTriangleStrip, {1, 0, 0, 1}, 3);
    for (GlDraw* d : {&far, &near}) d->fixed.depth_test = true;
    GlFrame f;
    f.ops.emplace_back(clear_all({0, 0, 0, 1}, 1));
    f.ops.emplace_back(near_first ? near : far);
    f.ops.emplace_back(near_first ? far : near);
    Renderer r;
    const FrameStats s = r.render(f, 0);
    EXPECT_EQ(pixel(r, 3, 7), (std::array<int, 4>{255, 0, 0, 255})) << "near first: " << near_first;
    EXPECT_EQ(r.window().depth_at(3, 7), 0.25f);
    // Drawn after the near surface, the far one lies behind every block's farthest depth:
    // hierarchical Z rejects all its quads and early Z tests none of its pixels.
    const uint64_t far_quads = s.quads / 2;
    EXPECT_EQ(s.hiz_rejected_quads, near_first ? far_quads : 0u);
    EXPECT_EQ(s.early_z_tested, uint64_t((near_first ? 1 : 2) * kW * kH));
    EXPECT_EQ(s.early_z_passed, uint64_t((near_first ? 1 : 2) * kW * kH));
    EXPECT_EQ(s.ps_invocations, s.early_z_passed) << "fragments failing early Z are never shaded";
  }
}

TEST(Render, ARecordedFrameListsEveryWaveByTileAndItsPassesByTarget) {
  // 16x12 pixels in 8-pixel tiles: a 2x2 grid. Two passes: a clear and a draw, then a draw
  // after a clear of the same target (a new pass that needs no tile load).
  GlFrame f;
  f.ops.emplace_back(clear_all({0, 0, 0, 1}, 1));
  f.ops.emplace_back(colored(full_screen(0), kTriangleStrip, {1, 0, 0, 1}, 2));
  f.ops.emplace_back(clear_all({0, 0, 0, 1}, 3));
  f.ops.emplace_back(colored({-1, -1, 0, 1, -1, 0, -1, 1, 0}, kTriangles, {0, 1, 0, 1}, 4));
  RendererOptions o;
  o.tile_size = 8;
  o.record = true;
  Renderer r(o);
  const FrameStats s = r.render(f, 7);
  const FrameRecording* rec = r.recording();
  ASSERT_NE(rec, nullptr);
  EXPECT_EQ(rec->work.frame, 7u);
  EXPECT_EQ(rec->work.tile_size, 8u);
  ASSERT_EQ(rec->work.passes.size(), 2u);
  uint64_t ps_waves = 0, vs_waves = 0, quads = 0, pixels = 0, bins = 0;
  for (const auto& p : rec->work.passes) {
    EXPECT_TRUE(p.color_cleared && p.depth_cleared);
    EXPECT_EQ(p.width, uint32_t(kW));
    EXPECT_EQ(p.target, 0u) << "both passes render into the window";
    ASSERT_EQ(p.draws.size(), 1u);
    const timing::DrawWork& d = p.draws[0];
    vs_waves += d.vs.waves;
    ps_waves += d.ps.waves;
    uint32_t next_wave = 0, last_tile = 0;
    for (const auto& tw : d.tiles) {
      EXPECT_LT(tw.tile, 4u);
      EXPECT_GE(tw.tile, last_tile);
      last_tile = tw.tile;
      EXPECT_EQ(tw.first_wave, next_wave) << "a draw's waves run tile by tile";
      next_wave += tw.waves;
      quads += tw.quads;
      bins += tw.bin_entries;
      for (uint32_t w = tw.first_wave; w < tw.first_wave + tw.waves; ++w) {
        EXPECT_LE(d.pixel_waves[w].quads, 16u);
        EXPECT_LE(d.pixel_waves[w].quads * 4u, 64u);
        pixels += d.pixel_waves[w].pixels;
      }
    }
    EXPECT_EQ(next_wave, d.ps.waves);
  }
  EXPECT_EQ(ps_waves, s.pixel_shaders.begin()->second.waves);
  EXPECT_EQ(vs_waves, s.vertex_shaders.begin()->second.waves);
  EXPECT_EQ(quads, s.quads);
  EXPECT_EQ(pixels, s.pixels_written);
  EXPECT_EQ(bins, s.bin_entries);
  // Without recording nothing is kept.
  Renderer plain;
  plain.render(f, 0);
  EXPECT_EQ(plain.recording(), nullptr);
}

TEST(Render, AlphaBlendingMixesWithWhatIsInTheTarget) {
  GlDraw d = colored(full_screen(0), kTriangleStrip, {1, 0, 0, 0.5f}, 2);
  d.fixed.blend = true;
  d.fixed.blend_src_rgb = d.fixed.blend_src_alpha = 0x0302;  // GL_SRC_ALPHA
  d.fixed.blend_dst_rgb = d.fixed.blend_dst_alpha = 0x0303;  // GL_ONE_MINUS_SRC_ALPHA
  GlFrame f;
  f.ops.emplace_back(clear_all({0, 0, 1, 1}, 1));
  f.ops.emplace_back(std::move(d));
  Renderer r;
  const FrameStats s = r.render(f, 0);
  const auto p = pixel(r, 5, 5);
  EXPECT_NEAR(p[0], 128, 1);
  EXPECT_EQ(p[1], 0);
  EXPECT_NEAR(p[2], 128, 1);
  EXPECT_EQ(s.blended_pixels, uint64_t(kW * kH));
}

TEST(Render, BackFacingTrianglesAreCulledAndOffScreenOnesNeverRasterised) {
  GlDraw back = colored({-1, -1, 0, -1, 1, 0, 1, -1, 0}, kTriangles, {1, 1, 1, 1}, 2);  // clockwise
  back.fixed.cull = true;
  GlDraw away = colored({2, 2, 0, 3, 2, 0, 2, 3, 0}, kTriangles, {1, 1, 1, 1}, 3);
  GlFrame f;
  f.ops.emplace_back(std::move(back));
  f.ops.emplace_back(std::move(away));
  Renderer r;
  const FrameStats s = r.render(f, 0);
  EXPECT_EQ(s.primitives, 2u);
  EXPECT_EQ(s.face_culled, 1u);
  EXPECT_EQ(s.frustum_culled, 1u);
  EXPECT_EQ(s.fragments, 0u);
  EXPECT_EQ(s.ps_invocations, 0u);
}

TEST(Render, GlFrontFacingTellsFrontFromBackFaces) {
  // Regression: back faces read as front, because ACO tests the register against 0 and strobe
  // wrote -1.0 for them. OpenArena lights its models from the normal gl_FrontFacing picks.
  auto p = program(kColorVs,
                   "precision mediump float;\nvarying vec4 c;\n"
                   "void main(){ gl_FragColor = gl_FrontFacing ? vec4(1.0) : vec4(0.0, 0.0, 1.0, 1.0); }\n",
                   6);
  GlDraw ccw = colored({-1, -1, 0, 0, -1, 0, -1, 1, 0}, kTriangles, {0, 0, 0, 1}, 2);  // left, front
  GlDraw cw = colored({1, -1, 0, 0, -1, 0, 1, 1, 0}, kTriangles, {0, 0, 0, 1}, 3);     // right, back
  ccw.program = cw.program = p;
  GlFrame f;
  f.ops.emplace_back(std::move(ccw));
  f.ops.emplace_back(std::move(cw));
  Renderer r;
  r.render(f, 0);
  EXPECT_EQ(pixel(r, 1, 1), (std::array<int, 4>{255, 255, 255, 255}));
  EXPECT_EQ(pixel(r, kW - 2, 1), (std::array<int, 4>{0, 0, 255, 255}));
}

TEST(Render, ADiscardingShaderIsDepthTestedAfterShading) {
  auto p = program(kColorVs,
                   "precision mediump float;\nvarying vec4 c;\n"
                   "void main(){ if (gl_FragCoord.x < 8.0) discard; gl_FragColor = c; }\n",
                   2);
  GlDraw d = colored(full_screen(0), kTriangleStrip, {0, 1, 0, 1}, 2);
  d.program = p;
  d.fixed.depth_test = true;
  GlFrame f;
  f.ops.emplace_back(clear_all({0, 0, 0, 1}, 1));
  f.ops.emplace_back(std::move(d));
  Renderer r;
  const FrameStats s = r.render(f, 0);
  EXPECT_EQ(s.early_z_tested, 0u);
  EXPECT_EQ(s.discarded, uint64_t(8 * kH));
  EXPECT_EQ(s.late_z_tested, uint64_t(8 * kH));
  EXPECT_EQ(pixel(r, 3, 3), (std::array<int, 4>{0, 0, 0, 255}));
  EXPECT_EQ(pixel(r, 12, 3), (std::array<int, 4>{0, 255, 0, 255}));
  EXPECT_EQ(r.window().depth_at(3, 3), 1.0f) << "a discarded fragment writes no depth";
  EXPECT_EQ(r.window().depth_at(12, 3), 0.5f);
}

TEST(Render, ADrawSamplesWhatAnEarlierDrawRenderedIntoItsTexture) {
  // Draw 1 fills texture 5 (8x8, attached to framebuffer 1) with yellow; draw 2 samples it.
  auto tex = std::make_shared<GlTexture>();
  tex->name = 5;
  tex->version = 1;
  tex->min_filter = tex->mag_filter = 0x2600;  // GL_NEAREST: no mipmaps, one texel a sample
  tex->levels.push_back(GlTexLevel{8, 8, 0x1908, 0x1401, 4, nullptr});
  GlDraw fill = colored(full_screen(0), kTriangleStrip, {1, 1, 0, 1}, 2);
  fill.fixed.framebuffer = 1;
  fill.fixed.viewport = {0, 0, 8, 8};
  fill.fixed.target = GlTarget{1, 5, 0, 0, true, false, 8, 8};
  GlDraw show = sampling(tex, "texture2D(tex, uv)", 3);
  GlFrame f;
  f.ops.emplace_back(clear_all({0, 0, 0, 1}, 1));
  f.ops.emplace_back(std::move(fill));
  f.ops.emplace_back(std::move(show));
  Renderer r;
  const FrameStats s = r.render(f, 0);
  EXPECT_EQ(pixel(r, 9, 4), (std::array<int, 4>{255, 255, 0, 255}));
  // GL_NEAREST reads one texel a sample; helper lanes sample too (the derivatives need them).
  EXPECT_EQ(s.sample_lanes[1] + s.sample_lanes[2], 0u);
  EXPECT_GE(s.sample_lanes[0], s.pixel_shaders.at("program 3 (linked at call 3)").invocations);
  EXPECT_EQ(s.pixel_shaders.at("program 3 (linked at call 3)").invocations, uint64_t(kW * kH));
}

/// The window's pixels, the frame's counts without its seconds, and each recorded draw's pixel
/// waves, after rendering `f` on `threads` host threads.
struct Rendered {
  std::vector<std::array<int, 4>> pixels;
  nlohmann::json stats;
  std::vector<std::pair<uint32_t, uint32_t>> waves;  // per pixel wave: quads, pixels written
};

Rendered render_on(const GlFrame& f, uint32_t threads) {
  RendererOptions o;
  o.tile_size = 8;
  o.record = true;
  o.threads = threads;
  Renderer r(o);
  Rendered out;
  out.stats = to_json(r.render(f, 0));
  out.stats.erase("seconds");
  out.stats.erase("cpu_seconds");
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) out.pixels.push_back(pixel(r, x, y));
  for (const auto& p : r.recording()->work.passes)
    for (const auto& d : p.draws)
      for (const auto& w : d.pixel_waves) out.waves.emplace_back(w.quads, w.pixels);
  return out;
}

TEST(Render, AFrameOnThreeHostThreadsIsTheOneOneThreadRenders) {
  // Overlapping blended and depth-tested draws, and one that samples a texture: several pixel
  // waves a draw, so the threads share each draw's waves.
  auto tex = std::make_shared<GlTexture>();
  tex->name = 5;
  tex->version = 1;
  tex->min_filter = tex->mag_filter = 0x2601;  // GL_LINEAR
  std::vector<uint8_t> texels(4 * 4 * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t(i * 37);
  tex->levels.push_back(GlTexLevel{4, 4, 0x1908, 0x1401, 4, std::make_shared<const std::vector<uint8_t>>(texels), 0});
  GlDraw back = colored({-1, -1, 0.5f, 1, -1, -0.5f, -1, 1, 0.2f}, kTriangles, {1, 0, 0, 1}, 2);
  GlDraw front = colored(full_screen(0), kTriangleStrip, {0, 1, 0, 0.5f}, 3);
  front.fixed.blend = true;
  front.fixed.blend_src_rgb = front.fixed.blend_src_alpha = 0x0302;  // GL_SRC_ALPHA
  front.fixed.blend_dst_rgb = front.fixed.blend_dst_alpha = 0x0303;  // GL_ONE_MINUS_SRC_ALPHA
  for (GlDraw* d : {&back, &front}) d->fixed.depth_test = true;
  GlDraw textured = sampling(tex, "texture2D(tex, uv) * 0.5 + gl_FragCoord.xyxy / 32.0", 4);
  textured.fixed.blend = true;
  textured.fixed.blend_src_rgb = textured.fixed.blend_src_alpha = 1;  // GL_ONE
  textured.fixed.blend_dst_rgb = textured.fixed.blend_dst_alpha = 1;
  GlFrame f;
  f.ops.emplace_back(clear_all({0, 0, 1, 1}, 1));
  f.ops.emplace_back(std::move(back));
  f.ops.emplace_back(std::move(front));
  f.ops.emplace_back(std::move(textured));
  const Rendered one = render_on(f, 1), three = render_on(f, 3);
  EXPECT_EQ(three.pixels, one.pixels);
  EXPECT_EQ(three.stats, one.stats);
  EXPECT_EQ(three.waves, one.waves);
  const nlohmann::json fetches = one.stats["texel_fetches"];
  uint64_t fetched = 0;
  for (const auto& [filter, n] : fetches.items()) fetched += n.get<uint64_t>();
  EXPECT_GT(fetched, 0u);  // summed over the threads' counters
  EXPECT_GE(one.waves.size(), 6u);  // at least two waves a draw
}

TEST(Render, ALineStripCoversOnePixelRowAndInterpolatesAlongTheLine) {
  // Window row 5 (centre y = 5.5), from x = 0 to 16: red at the left end, green at the right.
  const float y = 5.5f / kH * 2 - 1;
  GlDraw d = colored({-1, y, 0, 0, y, 0, 1, y, 0}, 3 /* GL_LINE_STRIP */, {0, 0, 0, 1}, 2);
  d.attribs[1] = array_of({1, 0, 0, 1, 0.5f, 0.5f, 0, 1, 0, 1, 0, 1}, 4);
  GlFrame f;
  f.ops.emplace_back(std::move(d));
  Renderer r;
  const FrameStats s = r.render(f, 0);
  EXPECT_EQ(s.primitives, 2u);
  EXPECT_EQ(s.fragments, uint64_t(kW)) << "one pixel per column, the shared end drawn once";
  for (int x = 0; x < kW; ++x) {
    const auto p = pixel(r, x, 5);
    EXPECT_NEAR(p[1], 255.0 * (x + 0.5) / kW, 1.01) << x;
    EXPECT_EQ(pixel(r, x, 4)[3], 0) << "row 4 untouched";
  }
}

TEST(Render, ABlitCopiesAFramebufferToTheWindowScaled) {
  // Framebuffer 1 renders 8x6 into renderbuffer storage: red.
  GlDraw fill = colored(full_screen(0), kTriangleStrip, {1, 0, 0, 1}, 2);
  fill.fixed.framebuffer = 1;
  fill.fixed.viewport = {0, 0, 8, 6};
  fill.fixed.depth_test = true;
  fill.fixed.depth_range = {0.5f, 1.0f};
  fill.fixed.target = GlTarget{1, 0, 0, 0, true, true, 8, 6};
  GlBlit blit;
  blit.call = 3;
  blit.src = {0, 0, 8, 6};
  blit.dst = {0, 0, kW, kH};  // twice the size
  blit.mask = 0x4000;
  blit.read = fill.fixed.target;
  blit.fixed = window_state();
  GlFrame f;
  f.ops.emplace_back(clear_all({0, 0, 1, 1}, 1));
  f.ops.emplace_back(std::move(fill));
  f.ops.emplace_back(blit);
  Renderer r;
  const FrameStats s = r.render(f, 0);
  EXPECT_EQ(s.blits, 1u);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) ASSERT_EQ(pixel(r, x, y), (std::array<int, 4>{255, 0, 0, 255})) << x << "," << y;
  EXPECT_EQ(r.window().depth_at(0, 0), 1.0f) << "a colour blit leaves depth alone";
}

TEST(Render, AFloatTargetKeepsValuesAboveOneThatALaterDrawSamples) {
  // Two additive draws of 0.75 into an RGBA16F texture make 1.5; sampled at half, 0.75 again.
  auto tex = std::make_shared<GlTexture>();
  tex->name = 7;
  tex->version = 1;
  tex->min_filter = tex->mag_filter = 0x2600;
  tex->levels.push_back(GlTexLevel{8, 8, 0x1908, 0x1401, 4, nullptr, 0x881A});
  const GlTarget hdr{1, 7, 0, 0, true, false, 8, 8, true};
  GlFrame f;
  for (uint64_t call : {2, 3}) {
    GlDraw d = colored(full_screen(0), kTriangleStrip, {0.75f, 0.25f, 0, 1}, call);
    d.fixed.viewport = {0, 0, 8, 8};
    d.fixed.target = hdr;
    d.fixed.blend = true;
    d.fixed.blend_src_rgb = d.fixed.blend_src_alpha = d.fixed.blend_dst_rgb = d.fixed.blend_dst_alpha = 1;  // GL_ONE
    f.ops.emplace_back(std::move(d));
  }
  f.ops.emplace_back(sampling(tex, "texture2D(tex, uv) * 0.5", 4));
  Renderer r;
  r.render(f, 0);
  const auto p = pixel(r, 5, 5);
  EXPECT_NEAR(p[0], 191, 1) << "1.5 / 2 = 0.75: the float target did not clamp at 1";
  EXPECT_NEAR(p[1], 64, 1);
}

TEST(Render, ACubeMapSamplerIsRefusedAsNotImplemented) {
  GlDraw d = colored(full_screen(0), kTriangleStrip, {0, 0, 0, 1}, 2);
  d.program = program("attribute vec3 position;\nvarying vec3 dir;\n"
                      "void main(){ dir = position; gl_Position = vec4(position, 1.0); }\n",
                      "precision mediump float;\nuniform samplerCube sky;\nvarying vec3 dir;\n"
                      "void main(){ gl_FragColor = textureCube(sky, dir); }\n",
                      5);
  d.attribs.erase(1);
  GlFrame f;
  f.ops.emplace_back(std::move(d));
  Renderer r;
  try {
    r.render(f, 0);
    FAIL() << "no error";
  } catch (const NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("sampler 'sky'"), std::string::npos) << e.what();
  }
}

TEST(Render, PointsAreRefusedAsNotImplemented) {
  GlFrame f;
  f.ops.emplace_back(colored({0, 0, 0}, kPoints, {1, 1, 1, 1}, 2));
  Renderer r;
  EXPECT_THROW(r.render(f, 0), NotImplementedError);
}

}  // namespace
}  // namespace strobe::gfx

namespace strobe::gfx {
namespace {

TEST(WarmFrames, WidenEachRangeBackwardsAndMergeWhereTheyMeet) {
  const std::vector<FrameRange> asked{{5, 6}, {10, 10}, {30, 31}};
  const auto warm = with_warm_frames(asked, 4);
  ASSERT_EQ(warm.size(), 2u);
  EXPECT_EQ(warm[0].first, 1u);
  EXPECT_EQ(warm[0].last, 10u) << "6 and 6..10 meet";
  EXPECT_EQ(warm[1].first, 26u);
  EXPECT_EQ(with_warm_frames(asked, UINT64_MAX)[0].first, 0u);
  EXPECT_EQ(with_warm_frames(asked, UINT64_MAX).size(), 1u);
  EXPECT_EQ(with_warm_frames(asked, 0).size(), 3u);
}

TEST(VertexFormat, GlArraysMapToTheirVulkanFormats) {
  auto fmt = [](int size, uint32_t type, bool normalized) {
    GlAttrib a;
    a.size = size, a.type = type, a.normalized = normalized;
    return vertex_format(a);
  };
  // Regression: four normalised unsigned bytes (colours) mapped to B8G8R8_UNORM (30).
  EXPECT_EQ(fmt(4, 0x1401, true), 37u);   // R8G8B8A8_UNORM
  EXPECT_EQ(fmt(3, 0x1401, true), 23u);   // R8G8B8_UNORM
  EXPECT_EQ(fmt(4, 0x1400, false), 40u);  // R8G8B8A8_SSCALED
  EXPECT_EQ(fmt(2, 0x1400, true), 17u);   // R8G8_SNORM
  EXPECT_EQ(fmt(4, 0x1403, true), 91u);   // R16G16B16A16_UNORM
  EXPECT_EQ(fmt(4, 0x1402, true), 92u);   // R16G16B16A16_SNORM
  EXPECT_EQ(fmt(1, 0x1402, false), 73u);  // R16_SSCALED
  EXPECT_EQ(fmt(3, 0x1406, false), 106u); // R32G32B32_SFLOAT
  EXPECT_EQ(fmt(4, 0x1406, false), 109u); // R32G32B32A32_SFLOAT
  EXPECT_THROW(fmt(4, 0x140B, false), NotImplementedError);  // GL_HALF_FLOAT
}

TEST(FrameStatsJson, CountsReadBackAsWritten) {
  FrameStats s;
  s.frame = 7;
  s.primitives = 30, s.frustum_culled = 4, s.face_culled = 6, s.fragments = 1234;
  s.sample_lanes = {1, 2, 3};
  s.texel_fetches = {1, 8, 24};
  s.vertex_shaders["v"] = {10, 1, 40, 0, 0, 0};
  s.pixel_shaders["p"] = {64, 2, 90, 3, 96, 384};
  s.seconds = 0.25;
  const FrameStats back = frame_stats_from_json(to_json(s));
  EXPECT_EQ(to_json(back), to_json(s));
  EXPECT_DOUBLE_EQ(back.pixel_shaders.at("p").texture_weighted_instructions(), 90 + 3 * (384.0 / 96 - 1));
  EXPECT_THROW((void)frame_stats_from_json(nlohmann::json{{"primitives", "many"}}), nlohmann::json::exception);
}

}  // namespace
}  // namespace strobe::gfx
