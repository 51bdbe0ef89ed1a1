// The functional order of a draw follows the GL's: every vertex is shaded once per draw (the
// post-transform cache of a real GPU only changes how often, not what), primitives go in order,
// and fragments reach the depth test and the blender in primitive order. Early Z tests a draw's
// quads before shading when the pixel shader cannot change depth or coverage; otherwise each
// wave's fragments are tested after it ran (late Z). Pixel waves are packed tile by tile, as a
// tile-based GPU shades them: a wave never spans two tiles, and within a tile quads keep
// primitive order, so every pixel still sees its fragments in order. With a FrameRecording, each
// draw's waves and per-tile counts are recorded for the timing model.
#include "gfx/pipeline/draw.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <exception>
#include <limits>
#include <map>
#include <numeric>
#include <span>
#include <unordered_map>

#include <fmt/format.h>

#include "common/error.h"
#include "emu/memory.h"
#include "gfx/pipeline/blend.h"
#include "gfx/pipeline/frame_recording.h"
#include "gfx/pipeline/shading.h"
#include "gfx/pipeline/raster.h"
#include "gfx/pipeline/render_target.h"
#include "gfx/pipeline/shader_wave.h"
#include "gfx/pipeline/uniforms.h"

namespace strobe::gfx {
namespace {

constexpr uint32_t kLines = 1, kLineLoop = 2, kLineStrip = 3, kTriangles = 4, kTriangleStrip = 5, kTriangleFan = 6;
constexpr uint32_t kUnsignedByte = 0x1401, kUnsignedShort = 0x1403, kUnsignedInt = 0x1405;
constexpr int kSampler2D = 0x8B5E;
constexpr uint32_t kFront = 0x0404, kBack = 0x0405, kFrontAndBack = 0x0408, kCcw = 0x0901;

float fval(uint32_t b) { return std::bit_cast<float>(b); }

const char* mode_name(uint32_t mode) {
  static const char* names[] = {"GL_POINTS", "GL_LINES", "GL_LINE_LOOP", "GL_LINE_STRIP",
                                "GL_TRIANGLES", "GL_TRIANGLE_STRIP", "GL_TRIANGLE_FAN"};
  return mode < 7 ? names[mode] : "an unknown mode";
}

uint32_t type_bytes(uint32_t gl_type) {
  switch (gl_type) {
    case 0x1400: case 0x1401: return 1;
    case 0x1402: case 0x1403: return 2;
    default: return 4;
  }
}

// The vertex each of the draw's `count` positions names.
std::vector<uint32_t> draw_indices(const GlDraw& d) {
  std::vector<uint32_t> out(d.count);
  if (d.index_type == 0) {
    for (uint32_t k = 0; k < d.count; ++k) out[k] = d.first + k;
    return out;
  }
  const uint32_t size = d.index_type == kUnsignedByte ? 1 : d.index_type == kUnsignedShort ? 2 : d.index_type == kUnsignedInt ? 4 : 0;
  if (!size) throw InputError(fmt::format("call {}: index type 0x{:X}", d.call, d.index_type));
  if (!d.indices || d.index_offset + uint64_t(d.count) * size > d.indices->size())
    throw InputError(fmt::format("call {}: {} indices at offset {} lie past the {}-byte index data", d.call, d.count,
                                 d.index_offset, d.indices ? d.indices->size() : 0));
  const uint8_t* p = d.indices->data() + d.index_offset;
  for (uint32_t k = 0; k < d.count; ++k) {
    uint32_t v = 0;
    std::memcpy(&v, p + size_t(k) * size, size);
    out[k] = v;
  }
  return out;
}

// The draw's primitives as positions into its index list, in the GL's order and winding; a line
// segment (a, b) is (a, b, b).
std::vector<std::array<uint32_t, 3>> assemble(uint32_t mode, uint32_t count, uint64_t call) {
  std::vector<std::array<uint32_t, 3>> t;
  if (mode == kLines) {
    for (uint32_t k = 0; k + 1 < count; k += 2) t.push_back({k, k + 1, k + 1});
  } else if (mode == kLineStrip || mode == kLineLoop) {
    for (uint32_t k = 0; k + 1 < count; ++k) t.push_back({k, k + 1, k + 1});
    if (mode == kLineLoop && count > 2) t.push_back({count - 1, 0, 0});
  } else if (mode == kTriangles) {
    for (uint32_t k = 0; k + 2 < count; k += 3) t.push_back({k, k + 1, k + 2});
  } else if (mode == kTriangleStrip) {
    for (uint32_t k = 0; k + 2 < count; ++k) t.push_back(k % 2 ? std::array{k + 1, k, k + 2} : std::array{k, k + 1, k + 2});
  } else if (mode == kTriangleFan) {
    for (uint32_t k = 1; k + 1 < count; ++k) t.push_back({0, k, k + 1});
  } else {
    throw NotImplementedError(fmt::format("call {}: drawing {} (triangles and lines are rasterised)", call, mode_name(mode)));
  }
  return t;
}

// Entirely outside one of the six clip planes.
bool outside_frustum(const std::array<ClipVertex, 3>& v) {
  auto all = [&](auto outside) { return outside(v[0]) && outside(v[1]) && outside(v[2]); };
  return all([](const ClipVertex& p) { return p.x < -p.w; }) || all([](const ClipVertex& p) { return p.x > p.w; }) ||
         all([](const ClipVertex& p) { return p.y < -p.w; }) || all([](const ClipVertex& p) { return p.y > p.w; }) ||
         all([](const ClipVertex& p) { return p.z < -p.w; }) || all([](const ClipVertex& p) { return p.z > p.w; });
}

bool needs_clipping(const std::array<ClipVertex, 3>& v) {
  for (const auto& p : v)
    if (p.z < -p.w || p.z > p.w || !(p.w > 0)) return true;
  return false;
}

int32_t int_uniform(const GlDraw& d, const std::string& name) {
  if (!d.uniforms) return 0;
  auto it = d.uniforms->find(name);
  if (it == d.uniforms->end() || it->second.size() < 4) return 0;
  int32_t v;
  std::memcpy(&v, it->second.data(), 4);
  return v;
}

// Binds the program's vertex inputs, uniforms and samplers for `d`.
void bind_inputs(const GlDraw& d, const ProgramEntry& pe, DrawTables& tables, DrawContext& cx) {
  const SpirvProgram& sp = pe.spirv;
  for (const auto& [name, location] : sp.slots.attributes) {
    auto it = d.attribs.find(location);
    if (it == d.attribs.end() || !it->second.enabled) {
      const GlAttrib current;
      const auto& value = it == d.attribs.end() ? current.current : it->second.current;
      tables.bind_attribute(location, value.data(), sizeof value, 0, sizeof value);
      continue;
    }
    const GlAttrib& a = it->second;
    if (!a.data)
      throw InputError(fmt::format("call {}: attribute '{}' reads buffer {}, which holds no data", d.call, name, a.buffer));
    auto [slot, fresh] = cx.placed.try_emplace(a.data.get(), 0);
    if (fresh) {
      slot->second = cx.mem->allocate(std::max<size_t>(a.data->size(), 4), 256, "vertex data");
      cx.mem->write(slot->second, a.data->data(), a.data->size());
    }
    const uint32_t element = uint32_t(a.size) * type_bytes(a.type);
    const uint32_t stride = a.stride ? a.stride : element;
    const uint64_t available = a.data->size() > a.offset ? a.data->size() - a.offset : 0;
    const uint64_t records = available >= element ? (available - element) / stride + 1 : 0;
    tables.bind_attribute_buffer(location, slot->second + a.offset, stride, uint32_t(std::min<uint64_t>(records, UINT32_MAX)));
  }
  if (sp.uniform_block_bytes) {
    static const std::map<std::string, std::vector<uint8_t>> none;
    tables.bind_uniforms(pack_uniform_block(sp, d.uniforms ? *d.uniforms : none, pe.name));
  }
  for (const auto& [name, binding] : sp.slots.samplers) {
    auto type = sp.sampler_gl_types.find(name);
    if (type != sp.sampler_gl_types.end() && type->second != kSampler2D)
      throw NotImplementedError(fmt::format("call {}: {}: sampler '{}' of GL type 0x{:X} (only sampler2D textures are "
                                            "bound)", d.call, pe.name, name, type->second));
    auto t = d.textures.find(int_uniform(d, name));
    const TextureDescriptors td =
        cx.textures->bind(t == d.textures.end() ? nullptr : t->second, *cx.surfaces, *cx.mem);
    tables.bind_sampler(name, td.image, td.sampler);
  }
}

// The draw's work, appended to its pass of the recording.
void record_draw(FrameRecording& rec, const ReadyPipeline& rp, const GlTarget& target,
                 std::unique_ptr<StageExecutor> vx, std::unique_ptr<StageExecutor> px, std::vector<float> tri_params,
                 size_t block, uint32_t slots, size_t primitives, std::vector<timing::PixelWaveWork> pixel_waves,
                 const std::map<uint32_t, timing::TileWork>& tile_work, DrawContext& cx) {
  const RenderTarget* color = cx.surfaces->color(target);
  const RenderTarget* depth = cx.surfaces->depth(target);
  const RenderTarget* any = color ? color : depth;
  timing::PassWork& pass = rec.pass_for(color, depth, uint32_t(any->width), uint32_t(any->height),
                                        color ? (color->is_float ? 8u : 4u) : 0u, depth ? 4u : 0u, true);
  timing::DrawWork w;
  px->set_parameters(std::move(tri_params), block, slots);
  w.vs = {vx.get(), &rp.vertex, rp.code.vertex.vgprs, rp.code.vertex.sgprs, vx->waves()};
  w.ps = {px.get(), &rp.fragment, rp.code.fragment.vgprs, rp.code.fragment.sgprs, px->waves()};
  w.primitives = primitives;
  w.pixel_waves = std::move(pixel_waves);
  uint32_t next_wave = 0;  // a tile without waves starts where the next one does
  for (const auto& [tile, tw] : tile_work) {
    w.tiles.push_back(tw);
    w.tiles.back().tile = tile;
    if (!tw.waves) w.tiles.back().first_wave = next_wave;
    next_wave = w.tiles.back().first_wave + tw.waves;
  }
  pass.draws.push_back(std::move(w));
  rec.executors.push_back(std::move(vx));
  rec.executors.push_back(std::move(px));
}

}  // namespace

void HizCache::begin(const RenderTarget& t) {
  target = &t;
  blocks_x = (t.width + kBlock - 1) / kBlock;
  blocks_y = (t.height + kBlock - 1) / kBlock;
  farthest.resize(size_t(blocks_x) * size_t(blocks_y));
  valid.assign(farthest.size(), 0);
}

float HizCache::farthest_at(int x, int y) {
  const size_t b = block_of(x, y);
  if (!valid[b]) {
    const int x0 = x / kBlock * kBlock, y0 = y / kBlock * kBlock;
    float f = -std::numeric_limits<float>::infinity();
    for (int yy = y0; yy < std::min(y0 + kBlock, target->height); ++yy)
      for (int xx = x0; xx < std::min(x0 + kBlock, target->width); ++xx) f = std::max(f, target->depth_at(xx, yy));
    farthest[b] = f;
    valid[b] = 1;
  }
  return farthest[b];
}

void execute_draw(const GlDraw& d, DrawContext& cx) {
  FrameStats& st = *cx.stats;
  ++st.draws;
  st.vertices += d.count;
  if (!d.program)
    throw NotImplementedError(fmt::format("call {}: a draw without a GLSL program (fixed-function GL)", d.call));
  const GlTarget& target = d.fixed.target;
  RenderTarget* color = cx.surfaces->color(target);
  RenderTarget* depth = d.fixed.depth_test ? cx.surfaces->depth(target) : nullptr;
  if (!color && !cx.surfaces->depth(target)) return;  // an incomplete framebuffer draws nothing
  const auto triangles = assemble(d.mode, d.count, d.call);
  const ReadyPipeline& rp = cx.pipelines->get(d.program, d);
  const ProgramEntry& pe = cx.pipelines->program(d.program);
  DrawTables tables(*cx.mem, pe.spirv, rp.code.vertex.args.vertex_inputs);
  bind_inputs(d, pe, tables, cx);
  const ShaderBindings bindings = tables.bindings();

  // Vertex shading: each distinct index once, 64 to a wave.
  const std::vector<uint32_t> indices = draw_indices(d);
  std::vector<uint32_t> ids, slot(indices.size());
  std::unordered_map<uint32_t, uint32_t> seen;
  for (size_t k = 0; k < indices.size(); ++k) {
    auto [it, fresh] = seen.try_emplace(indices[k], uint32_t(ids.size()));
    if (fresh) ids.push_back(indices[k]);
    slot[k] = it->second;
  }
  const CompiledShader& vs = rp.code.vertex;
  const size_t nvs = vs.args.param_locations.size();
  FrameRecording* rec = cx.recording;
  std::unique_ptr<StageExecutor> vx, px;
  if (rec) {
    vx = std::make_unique<StageExecutor>(*cx.mem, rp.vertex, vs, bindings, pe.name + " (vertex)", false);
    px = std::make_unique<StageExecutor>(*cx.mem, rp.fragment, rp.code.fragment, bindings, pe.name + " (pixel)", true);
  }
  std::vector<ClipVertex> pos(ids.size());
  std::vector<float> vparams(ids.size() * nvs * 4);
  // Each wave writes its own vertices' positions and parameters, so waves run on the host
  // threads; their counts and the recording are taken in wave order afterwards.
  const size_t vwaves = (ids.size() + emu::kWaveSize - 1) / emu::kWaveSize;
  std::vector<WaveCounts> vcounts(vwaves);
  auto shade_vertices = [&](uint64_t w, ShadingSlot& sl) {
    const size_t base = size_t(w) * emu::kWaveSize, n = std::min<size_t>(emu::kWaveSize, ids.size() - base);
    init_vertex_wave(sl.wave, vs, bindings, std::span(ids.data() + base, n));
    sl.io.clear_exports();
    vcounts[w] = run_counted_wave(rp.vertex, sl, *cx.mem, pe.name.c_str());
    const emu::GraphicsIo& io = sl.io;
    if ((io.written[emu::kExpPos0] & 0xF) != 0xF)
      throw InputError(fmt::format("{}: the vertex shader exported no position", pe.name));
    for (size_t l = 0; l < n; ++l) {
      pos[base + l] = {fval(io.lanes(emu::kExpPos0, 0)[l]), fval(io.lanes(emu::kExpPos0, 1)[l]),
                       fval(io.lanes(emu::kExpPos0, 2)[l]), fval(io.lanes(emu::kExpPos0, 3)[l])};
      for (size_t m = 0; m < nvs; ++m)
        for (int c = 0; c < 4; ++c) {
          const int t = emu::kExpParam0 + int(m);
          vparams[((base + l) * nvs + m) * 4 + size_t(c)] = io.written[t] >> c & 1 ? fval(io.lanes(t, c)[l]) : 0.0f;
        }
    }
  };
  if (cx.shading_slots.size() < cx.threads) cx.shading_slots.resize(cx.threads);
  if (cx.pool && vwaves > 1 && cx.mem->concurrent_kernels_allowed()) {
    const emu::ConcurrentScope concurrent(*cx.mem);  // shared memory state is read-only meanwhile
    std::exception_ptr fault;
    cx.pool->run(vwaves, [&](uint64_t w, uint32_t sl) { shade_vertices(w, cx.shading_slots[sl]); }, &fault);
    if (fault) std::rethrow_exception(fault);
  } else {
    for (size_t w = 0; w < vwaves; ++w) shade_vertices(w, cx.shading_slots[0]);
  }
  ShaderCounts& vcount = st.vertex_shaders[pe.name];
  for (size_t w = 0; w < vwaves; ++w) {
    const size_t base = w * emu::kWaveSize, n = std::min<size_t>(emu::kWaveSize, ids.size() - base);
    vcounts[w].add_to(vcount, st);
    vcount.invocations += n;
    if (vx) vx->add_vertex_wave(std::span(ids.data() + base, n));
  }
  st.vs_invocations += ids.size();

  // Assembly, clipping, culling, rasterisation.
  const Viewport vp{d.fixed.viewport[0], d.fixed.viewport[1], d.fixed.viewport[2], d.fixed.viewport[3],
                    d.fixed.depth_range[0], d.fixed.depth_range[1]};
  PixelRect bounds{0, 0, int(target.width), int(target.height)};
  bounds = intersect(bounds, PixelRect{vp.x, vp.y, vp.x + vp.width, vp.y + vp.height});
  if (d.fixed.scissor_test) {
    const auto& s = d.fixed.scissor;
    bounds = intersect(bounds, PixelRect{s[0], s[1], s[0] + s[2], s[1] + s[3]});
  }
  CullState cull;
  cull.enabled = d.fixed.cull;
  cull.cull_front = d.fixed.cull_face == kFront || d.fixed.cull_face == kFrontAndBack;
  cull.cull_back = d.fixed.cull_face == kBack || d.fixed.cull_face == kFrontAndBack;
  cull.front_ccw = d.fixed.front_face == kCcw;
  if (d.fixed.polygon_offset_fill) {
    cull.offset_factor = d.fixed.polygon_offset_factor;
    cull.offset_units = d.fixed.polygon_offset_units;
  }
  const bool lines = d.mode == kLines || d.mode == kLineStrip || d.mode == kLineLoop;
  const CullState no_cull;  // face culling applies to polygons only
  const size_t nps = rp.vs_param.size();
  const size_t block = nps * 4 * 3;  // one triangle's parameter-cache entry: [slot][channel]{P0, P10, P20}
  std::vector<float> tri_params;
  const uint32_t tiles_x = (target.width + uint32_t(cx.tile_size) - 1) / uint32_t(cx.tile_size);
  auto tile_of = [&](const Quad& q) { return uint32_t(q.y / cx.tile_size) * tiles_x + uint32_t(q.x / cx.tile_size); };
  std::map<uint32_t, timing::TileWork> tile_work;  // recording only: the draw's work per tile
  std::vector<Quad> quads;
  std::vector<uint32_t> quad_tri;      // each quad's triangle (index into tri_front and tri_params blocks)
  std::vector<uint8_t> tri_front;
  for (const auto& t : triangles) {
    ++st.primitives;
    const uint32_t v[3] = {slot[t[0]], slot[t[1]], slot[t[2]]};
    const std::array<ClipVertex, 3> clip{pos[v[0]], pos[v[1]], pos[v[2]]};
    if (outside_frustum(clip)) {
      ++st.frustum_culled;
      continue;
    }
    if (needs_clipping(clip)) ++st.clipped;
    const size_t before = quads.size();
    bool culled = false, front = true;
    if (lines) {
      for (const auto& half : expand_line(clip[0], clip[1], vp, 1.0f))
        for (const auto& part : clip_triangle(half)) rasterize_quads(part, vp, bounds, no_cull, quads);
    } else {
      for (const auto& part : clip_triangle(clip)) {
        const RasterResult r = rasterize_quads(part, vp, bounds, cull, quads);
        culled = culled || r.culled;
        front = r.front;
      }
    }
    if (culled) ++st.face_culled;
    if (quads.size() == before) continue;
    ++st.rasterized;
    int x0 = INT32_MAX, y0 = INT32_MAX, x1 = INT32_MIN, y1 = INT32_MIN;
    for (size_t q = before; q < quads.size(); ++q) {
      x0 = std::min(x0, quads[q].x), y0 = std::min(y0, quads[q].y);
      x1 = std::max(x1, quads[q].x + 1), y1 = std::max(y1, quads[q].y + 1);
    }
    st.bin_entries += uint64_t(x1 / cx.tile_size - x0 / cx.tile_size + 1) * uint64_t(y1 / cx.tile_size - y0 / cx.tile_size + 1);
    if (rec)
      for (int ty = y0 / cx.tile_size; ty <= y1 / cx.tile_size; ++ty)
        for (int tx = x0 / cx.tile_size; tx <= x1 / cx.tile_size; ++tx)
          ++tile_work[uint32_t(ty) * tiles_x + uint32_t(tx)].bin_entries;
    const uint32_t tri = uint32_t(tri_front.size());
    tri_front.push_back(front);
    quad_tri.resize(quads.size(), tri);
    tri_params.resize(tri_params.size() + block);
    float* p = tri_params.data() + size_t(tri) * block;
    for (size_t s = 0; s < nps; ++s) {
      if (rp.vs_param[s] < 0) continue;
      for (int c = 0; c < 4; ++c) {
        auto at = [&](int k) { return vparams[(v[k] * nvs + size_t(rp.vs_param[s])) * 4 + size_t(c)]; };
        float* e = p + (s * 4 + size_t(c)) * 3;
        e[0] = at(0), e[1] = at(1) - at(0), e[2] = at(2) - at(0);
      }
    }
  }

  // Early Z: drop the fragments that fail before any shading.
  const bool write_depth = depth && d.fixed.depth_mask;
  const bool early = depth && !rp.late_z;
  // Hierarchical Z before early Z, for the depth functions whose rejection a block's farthest
  // depth decides: a triangle's quads in a block are rejected when its nearest fragment there
  // would fail against the block's farthest stored depth.
  const uint32_t func = d.fixed.depth_func;
  const bool hiz = early && (func == kGlLess || func == kGlLequal);
  if (hiz) cx.hiz.begin(*depth);
  struct BlockTest {
    float nearest;
    bool reject;
  };
  std::unordered_map<uint32_t, BlockTest> blocks;
  size_t kept = 0;
  bool wrote_depth = false;
  for (size_t q = 0; q < quads.size(); ++q) {
    Quad& quad = quads[q];
    st.quads += 1;
    if (rec) ++tile_work[tile_of(quad)].quads;
    st.fragments += uint64_t(std::popcount(quad.mask));
    if (hiz && (q == 0 || quad_tri[q] != quad_tri[q - 1])) {  // a triangle's first quad: test its blocks
      blocks.clear();
      for (size_t r = q; r < quads.size() && quad_tri[r] == quad_tri[q]; ++r)
        for (int k = 0; k < 4; ++k) {
          if (!(quads[r].mask >> k & 1)) continue;
          const int x = quads[r].x + (k & 1), y = quads[r].y + (k >> 1);
          auto [it, fresh] = blocks.try_emplace(cx.hiz.block_of(x, y), BlockTest{quads[r].z[size_t(k)], false});
          if (!fresh) it->second.nearest = std::min(it->second.nearest, quads[r].z[size_t(k)]);
        }
      for (auto& [b, t] : blocks) {
        const int bx = int(b % uint32_t(cx.hiz.blocks_x)) * HizCache::kBlock;
        const int by = int(b / uint32_t(cx.hiz.blocks_x)) * HizCache::kBlock;
        const float farthest = cx.hiz.farthest_at(bx, by);
        t.reject = func == kGlLess ? t.nearest >= farthest : t.nearest > farthest;
      }
    }
    if (hiz && quad.mask) {
      auto it = blocks.find(cx.hiz.block_of(quad.x, quad.y));
      if (it != blocks.end() && it->second.reject) {
        ++st.hiz_rejected_quads;
        if (rec) ++tile_work[tile_of(quad)].hiz_quads;
        continue;
      }
    }
    if (early) {
      for (int k = 0; k < 4; ++k) {
        if (!(quad.mask >> k & 1)) continue;
        ++st.early_z_tested;
        float& stored = depth->depth_at(quad.x + (k & 1), quad.y + (k >> 1));
        if (!depth_passes(d.fixed.depth_func, quad.z[size_t(k)], stored)) {
          quad.mask = uint8_t(quad.mask & ~(1u << k));
          continue;
        }
        ++st.early_z_passed;
        if (write_depth) {
          stored = quad.z[size_t(k)], wrote_depth = true;
          if (hiz) cx.hiz.wrote(quad.x + (k & 1), quad.y + (k >> 1));
        }
      }
      if (!quad.mask) continue;
    }
    quads[kept] = quad;
    quad_tri[kept++] = quad_tri[q];
  }
  quads.resize(kept);
  quad_tri.resize(kept);

  // Tile order: a stable sort by tile keeps primitive order within each tile.
  std::vector<uint32_t> qtile(quads.size());
  for (size_t q = 0; q < quads.size(); ++q) qtile[q] = tile_of(quads[q]);
  if (!std::is_sorted(qtile.begin(), qtile.end())) {
    std::vector<uint32_t> order(quads.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return qtile[a] < qtile[b]; });
    std::vector<Quad> q2(quads.size());
    std::vector<uint32_t> t2(quads.size()), k2(quads.size());
    for (size_t k = 0; k < order.size(); ++k) q2[k] = quads[order[k]], t2[k] = quad_tri[order[k]], k2[k] = qtile[order[k]];
    quads.swap(q2), quad_tri.swap(t2), qtile.swap(k2);
  }

  // Pixel shading, up to 16 quads of one tile to a wave, in batches of waves shaded on the host
  // threads; then, wave by wave, late Z and blending in primitive order.
  const BlendState blend = blend_state(d.fixed);
  ShaderCounts& pcount = st.pixel_shaders[pe.name];
  bool wrote_color = false;
  std::vector<timing::PixelWaveWork> pixel_waves;
  const PixelShader shader{&rp.fragment, &rp.code.fragment, bindings, uint32_t(nps), pe.name.c_str()};
  const size_t batch = cx.threads > 1 ? kPixelWavesPerThread * cx.threads : 1;
  if (cx.pixel_waves.size() < batch) cx.pixel_waves.resize(batch);
  for (size_t q0 = 0; q0 < quads.size();) {
    size_t waves = 0;
    for (; waves < batch && q0 < quads.size(); ++waves) {
      PixelWave& pw = cx.pixel_waves[waves];
      uint32_t n = 1;
      while (n < emu::kWaveSize / 4 && q0 + n < quads.size() && qtile[q0 + n] == qtile[q0]) ++n;
      pw.quads = n;
      pw.tile = qtile[q0];
      pw.live = 0;
      for (uint32_t qi = 0; qi < n; ++qi) {
        const Quad& quad = quads[q0 + qi];
        const uint32_t tri = quad_tri[q0 + qi];
        for (int k = 0; k < 4; ++k) {
          const size_t l = qi * 4 + size_t(k);
          pw.lanes[l] = PixelLane{quad.i[size_t(k)], quad.j[size_t(k)], float(quad.x + (k & 1)) + 0.5f,
                                  float(quad.y + (k >> 1)) + 0.5f, quad.z[size_t(k)], quad.inv_w[size_t(k)],
                                  tri_front[tri] != 0};
          pw.params[l] = tri_params.data() + size_t(tri) * block;
          pw.primitive[l] = tri;
          if (quad.mask >> k & 1) pw.live |= uint64_t{1} << l;
        }
      }
      q0 += n;
    }
    shade_pixel_waves(std::span(cx.pixel_waves.data(), waves), shader, *cx.mem, cx.pool.get(), cx.shading_slots);
    for (size_t w = 0; w < waves; ++w) {
      const PixelWave& pw = cx.pixel_waves[w];
      const uint64_t written0 = st.pixels_written;
      const uint64_t lanes = uint64_t(pw.quads) * 4, live = uint64_t(std::popcount(pw.live));
      pw.counts.add_to(pcount, st);
      pcount.invocations += live;
      st.ps_invocations += live;
      st.helper_lanes += lanes - live;
      const uint64_t done = pw.done & pw.live;
      st.discarded += uint64_t(std::popcount(pw.live & ~done));
      for (uint64_t m = done; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        const int x = int(pw.lanes[size_t(l)].x), y = int(pw.lanes[size_t(l)].y);
        if (depth && !early) {
          const float z = pw.exported_z ? pw.z[size_t(l)] : pw.lanes[size_t(l)].z;
          ++st.late_z_tested;
          float& stored = depth->depth_at(x, y);
          if (!depth_passes(d.fixed.depth_func, z, stored)) continue;
          ++st.late_z_passed;
          if (write_depth) stored = z, wrote_depth = true;
        }
        if (!color) continue;
        float src[4];
        for (int c = 0; c < 4; ++c) src[c] = pw.color_channels >> c & 1 ? pw.color[size_t(c)][size_t(l)] : (c == 3 ? 1.0f : 0.0f);
        if (color->is_float) blend_pixel_float(blend, src, color->pixel_f(x, y));
        else blend_pixel(blend, src, color->pixel(x, y));
        ++st.pixels_written;
        if (blend.enabled) ++st.blended_pixels;
        wrote_color = true;
      }
      if (rec) {
        timing::TileWork& tw = tile_work[pw.tile];
        if (!tw.waves) tw.first_wave = uint32_t(pixel_waves.size());
        ++tw.waves;
        px->add_pixel_wave(std::span(pw.lanes.data(), lanes), pw.live, std::span(pw.primitive.data(), lanes));
        pixel_waves.push_back({uint16_t(pw.quads), uint16_t(st.pixels_written - written0)});
      }
    }
  }
  if (rec) record_draw(*rec, rp, target, std::move(vx), std::move(px), std::move(tri_params), block, uint32_t(nps),
                       triangles.size(), std::move(pixel_waves), tile_work, cx);
  cx.surfaces->wrote(target, wrote_color, wrote_depth, d.call);
}

void execute_clear(const GlClear& c, DrawContext& cx) {
  ++cx.stats->clears;
  RenderTarget* color = cx.surfaces->color(c.fixed.target);
  RenderTarget* depth = cx.surfaces->depth(c.fixed.target);
  if (FrameRecording* rec = cx.recording; rec && (color || depth)) {
    // A clear before any draw of its pass spares the tiles their load; after draws it starts a
    // pass of its own. A scissored clear covers part of the target only, so the tiles still load.
    const RenderTarget* any = color ? color : depth;
    const bool fresh = !rec->work.passes.empty() && rec->work.passes.back().draws.empty();
    timing::PassWork& p = rec->pass_for(color, depth, uint32_t(any->width), uint32_t(any->height),
                                        color ? (color->is_float ? 8u : 4u) : 0u, depth ? 4u : 0u, fresh);
    const bool whole = !c.fixed.scissor_test;
    if (whole && (c.mask & kGlColorBufferBit)) p.color_cleared = true;
    if (whole && (c.mask & kGlDepthBufferBit)) p.depth_cleared = true;
  }
  if (color && color == depth) {
    clear(*color, c.mask, c.fixed);
  } else {
    if (color) clear(*color, c.mask & ~kGlDepthBufferBit, c.fixed);
    if (depth) clear(*depth, c.mask & ~kGlColorBufferBit, c.fixed);
  }
  cx.surfaces->wrote(c.fixed.target, c.mask & kGlColorBufferBit, c.mask & kGlDepthBufferBit, c.call);
}

}  // namespace strobe::gfx
