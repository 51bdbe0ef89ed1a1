// GL state followed through a trace: each draw's snapshot holds what it read when it was made.
#include "gfx/stream/frame_stream.h"
#include "gfx/stream/gl_state.h"

#include <cstring>

#include <gtest/gtest.h>

#include "common/error.h"
#include "trace_builder.h"

namespace strobe::gfx {
namespace {

using trace::TempFile;
using trace::TraceBuilder;

constexpr uint32_t kArrayBuffer = 0x8892, kElementArrayBuffer = 0x8893, kFloat = 0x1406, kTriangles = 4;
constexpr uint32_t kUnsignedShort = 0x1403, kTexture2D = 0x0DE1, kDepthTest = 0x0B71;

// A trace written call by call; signatures are defined at their first use.
struct Calls {
  TraceBuilder t;
  uint64_t n = 0;
  std::map<std::string, uint64_t> sigs;
  TraceBuilder& enter(const std::string& name, const std::vector<std::string>& args) {
    auto it = sigs.find(name);
    if (it != sigs.end()) return t.enter(0, it->second);
    const uint64_t id = sigs.size() + 1;
    sigs[name] = id;
    return t.enter(0, id, name, args);
  }
  void leave() { t.leave(n++).end(); }
  void leave_ret(uint64_t v) { t.leave(n++).ret().uint_value(v).end(); }
};

std::string floats(std::initializer_list<float> v) {
  std::string s(v.size() * 4, '\0');
  std::memcpy(s.data(), std::data(v), s.size());
  return s;
}

TEST(GlState, ADrawKeepsTheBufferContentsAndUniformsItReadWhenItWasMade) {
  Calls c;
  c.enter("glBindBuffer", {"target", "buffer"}).arg(0).uint_value(kArrayBuffer).arg(1).uint_value(5).end();
  c.leave();
  c.enter("glBufferData", {"target", "size", "data", "usage"}).arg(0).uint_value(kArrayBuffer).arg(1).uint_value(12);
  c.t.arg(2).blob(floats({1, 2, 3})).end();
  c.leave();
  c.enter("glVertexAttribPointer", {"index", "size", "type", "normalized", "stride", "pointer"}).arg(0).uint_value(2);
  c.t.arg(1).uint_value(1).arg(2).uint_value(kFloat).arg(3).uint_value(0).arg(4).uint_value(4).arg(5).uint_value(0).end();
  c.leave();
  c.enter("glEnableVertexAttribArray", {"index"}).arg(0).uint_value(2).end();
  c.leave();
  c.enter("glUseProgram", {"program"}).arg(0).uint_value(7).end();
  c.leave();
  c.enter("glGetUniformLocation", {"program", "name"}).arg(0).uint_value(7).arg(1).string("tint").end();
  c.leave_ret(3);
  c.enter("glUniform4f", {"location", "v0", "v1", "v2", "v3"}).arg(0).uint_value(3);
  c.t.arg(1).f32(0.5f).arg(2).f32(0.25f).arg(3).f32(1).arg(4).f32(0).end();
  c.leave();
  c.enter("glEnable", {"cap"}).arg(0).uint_value(kDepthTest).end();
  c.leave();
  c.enter("glDrawArrays", {"mode", "first", "count"}).arg(0).uint_value(kTriangles).arg(1).uint_value(0);
  c.t.arg(2).uint_value(3).end();
  c.leave();
  // Changed after the draw: the draw's snapshot must not see it.
  c.enter("glBufferSubData", {"target", "offset", "size", "data"}).arg(0).uint_value(kArrayBuffer).arg(1).uint_value(4);
  c.t.arg(2).uint_value(4).arg(3).blob(floats({9})).end();
  c.leave();
  c.enter("glDisable", {"cap"}).arg(0).uint_value(kDepthTest).end();
  c.leave();
  c.enter("glDrawArrays", {}).arg(0).uint_value(kTriangles).arg(1).uint_value(0).arg(2).uint_value(3).end();
  c.leave();
  c.enter("glXSwapBuffers", {"dpy", "drawable"}).end();
  c.leave();
  TempFile f("state.trace", c.t.file());
  auto frames = read_frames(f.path(), 0, 0);
  ASSERT_EQ(frames.size(), 1u);
  ASSERT_EQ(frames[0].ops.size(), 2u);
  ASSERT_TRUE(std::holds_alternative<GlDraw>(frames[0].ops[0]));
  ASSERT_TRUE(std::holds_alternative<GlDraw>(frames[0].ops[1]));
  const GlDraw& a = std::get<GlDraw>(frames[0].ops[0]);
  const GlDraw& b = std::get<GlDraw>(frames[0].ops[1]);
  EXPECT_EQ(a.count, 3u);
  ASSERT_TRUE(a.attribs.at(2).enabled);
  float seen[3];
  std::memcpy(seen, a.attribs.at(2).data->data(), 12);
  EXPECT_EQ(seen[1], 2.0f) << "the first draw keeps the contents it read";
  std::memcpy(seen, b.attribs.at(2).data->data(), 12);
  EXPECT_EQ(seen[1], 9.0f) << "the second draw reads the buffer object as it is now, as the GL does";
  EXPECT_TRUE(a.fixed.depth_test);
  EXPECT_FALSE(b.fixed.depth_test);
  ASSERT_EQ(a.uniforms->count("tint"), 1u);
  float tint[4];
  std::memcpy(tint, a.uniforms->at("tint").data(), 16);
  EXPECT_EQ(tint[1], 0.25f);
}

TEST(GlState, IndexedDrawsReadTheElementBufferAndTexturesTheirUnitsState) {
  Calls c;
  c.enter("glBindBuffer", {"target", "buffer"}).arg(0).uint_value(kElementArrayBuffer).arg(1).uint_value(2).end();
  c.leave();
  c.enter("glBufferData", {"target", "size", "data", "usage"}).arg(0).uint_value(kElementArrayBuffer).arg(1).uint_value(6);
  c.t.arg(2).blob(std::string("\0\0\1\0\2\0", 6)).end();
  c.leave();
  c.enter("glActiveTexture", {"texture"}).arg(0).uint_value(0x84C0 + 1).end();
  c.leave();
  c.enter("glBindTexture", {"target", "texture"}).arg(0).uint_value(kTexture2D).arg(1).uint_value(4).end();
  c.leave();
  c.enter("glTexImage2D", {"target", "level", "internalformat", "width", "height", "border", "format", "type", "pixels"});
  c.t.arg(0).uint_value(kTexture2D).arg(1).uint_value(0).arg(2).uint_value(0x1908).arg(3).uint_value(2).arg(4).uint_value(1);
  c.t.arg(5).uint_value(0).arg(6).uint_value(0x1908).arg(7).uint_value(0x1401).arg(8).blob(std::string(8, '\x7f')).end();
  c.leave();
  c.enter("glTexParameteri", {"target", "pname", "param"}).arg(0).uint_value(kTexture2D).arg(1).uint_value(0x2801);
  c.t.arg(2).uint_value(0x2601).end();
  c.leave();
  c.enter("glDrawElements", {"mode", "count", "type", "indices"}).arg(0).uint_value(kTriangles).arg(1).uint_value(3);
  c.t.arg(2).uint_value(kUnsignedShort).arg(3).uint_value(0).end();
  c.leave();
  c.enter("glClear", {"mask"}).arg(0).uint_value(0x4100).end();
  c.leave();
  c.enter("glXSwapBuffers", {"dpy", "drawable"}).end();
  c.leave();
  TempFile f("indexed.trace", c.t.file());
  auto frames = read_frames(f.path(), 0, 0);
  ASSERT_EQ(frames[0].ops.size(), 2u);
  ASSERT_TRUE(std::holds_alternative<GlDraw>(frames[0].ops[0]));
  const GlDraw& d = std::get<GlDraw>(frames[0].ops[0]);
  EXPECT_EQ(d.index_type, kUnsignedShort);
  ASSERT_TRUE(d.indices);
  EXPECT_EQ(d.indices->size(), 6u);
  EXPECT_EQ((*d.indices)[4], 2);
  ASSERT_EQ(d.textures.count(1), 1u);
  EXPECT_EQ(d.textures.at(1)->levels.at(0).width, 2u);
  EXPECT_EQ(d.textures.at(1)->min_filter, 0x2601u);
  ASSERT_TRUE(std::holds_alternative<GlClear>(frames[0].ops[1]));
  EXPECT_EQ(std::get<GlClear>(frames[0].ops[1]).mask, 0x4100u);
}

// glTexImage2D of an empty RGBA level `w` x `h` on the bound texture.
void tex_image(Calls& c, uint64_t w, uint64_t h) {
  c.enter("glTexImage2D", {"target", "level", "internalformat", "width", "height", "border", "format", "type", "pixels"});
  c.t.arg(0).uint_value(kTexture2D).arg(1).uint_value(0).arg(2).uint_value(0x1908).arg(3).uint_value(w).arg(4).uint_value(h);
  c.t.arg(5).uint_value(0).arg(6).uint_value(0x1908).arg(7).uint_value(0x1401).arg(8).null().end();
  c.leave();
}

void bind_texture(Calls& c, uint64_t name) {
  c.enter("glBindTexture", {"target", "texture"}).arg(0).uint_value(kTexture2D).arg(1).uint_value(name).end();
  c.leave();
}

void clear(Calls& c) {
  c.enter("glClear", {"mask"}).arg(0).uint_value(0x4000).end();
  c.leave();
}

TEST(GlState, ClearsAndDrawsKnowTheirTargetTheWindowsSizeOrTheAttachedTextures) {
  Calls c;
  // apitrace records the drawable's size as a viewport after MakeCurrent; the window is that big.
  c.enter("glViewport", {"x", "y", "width", "height"}).arg(0).uint_value(0).arg(1).uint_value(0).arg(2).uint_value(320);
  c.t.arg(3).uint_value(200).end();
  c.leave();
  c.enter("glViewport", {}).arg(0).uint_value(0).arg(1).uint_value(0).arg(2).uint_value(64).arg(3).uint_value(64).end();
  c.leave();
  clear(c);
  bind_texture(c, 3);
  tex_image(c, 128, 32);
  c.enter("glBindFramebuffer", {"target", "framebuffer"}).arg(0).uint_value(0x8D40).arg(1).uint_value(7).end();
  c.leave();
  c.enter("glFramebufferTexture2D", {"target", "attachment", "textarget", "texture", "level"}).arg(0).uint_value(0x8D40);
  c.t.arg(1).uint_value(0x8CE0).arg(2).uint_value(kTexture2D).arg(3).uint_value(3).arg(4).uint_value(0).end();
  c.leave();
  clear(c);
  c.enter("glDeleteFramebuffers", {"n", "framebuffers"}).arg(0).uint_value(1).arg(1).array(1).uint_value(7).end();
  c.leave();
  clear(c);  // deleting the bound framebuffer binds the window again
  c.enter("glXSwapBuffers", {"dpy", "drawable"}).end();
  c.leave();
  TempFile f("targets.trace", c.t.file());
  auto frames = read_frames(f.path(), 0, 0);
  ASSERT_EQ(frames[0].ops.size(), 3u);
  const GlTarget window = std::get<GlClear>(frames[0].ops[0]).fixed.target;
  EXPECT_EQ(window.framebuffer, 0u);
  EXPECT_EQ(window.width, 320u);
  EXPECT_EQ(window.height, 200u);
  EXPECT_TRUE(window.color && window.depth);
  const GlTarget fbo = std::get<GlClear>(frames[0].ops[1]).fixed.target;
  EXPECT_EQ(fbo.framebuffer, 7u);
  EXPECT_EQ(fbo.color_texture, 3u);
  EXPECT_TRUE(fbo.color);
  EXPECT_FALSE(fbo.depth) << "nothing is attached as depth";
  EXPECT_EQ(fbo.width, 128u);
  EXPECT_EQ(fbo.height, 32u);
  EXPECT_EQ(std::get<GlClear>(frames[0].ops[2]).fixed.target.framebuffer, 0u);
}

TEST(GlState, EachContextHasItsOwnObjectNames) {
  Calls c;
  auto make_current = [&](uint64_t ctx) {
    c.enter("glXMakeCurrent", {"dpy", "drawable", "ctx"}).arg(0).pointer(0x10).arg(1).uint_value(2).arg(2).pointer(ctx).end();
    c.leave();
  };
  make_current(0xA000);
  bind_texture(c, 1);
  tex_image(c, 16, 16);
  c.enter("glTexParameteri", {"target", "pname", "param"}).arg(0).uint_value(kTexture2D).arg(1).uint_value(0x2801);
  c.t.arg(2).uint_value(0x2600).end();
  c.leave();
  make_current(0xB000);  // a new context: texture 1 is not the first context's
  bind_texture(c, 1);
  tex_image(c, 8, 8);
  c.enter("glDrawArrays", {"mode", "first", "count"}).arg(0).uint_value(kTriangles).arg(1).uint_value(0);
  c.t.arg(2).uint_value(3).end();
  c.leave();
  make_current(0xA000);  // back: its texture 1 is as it was
  c.enter("glDrawArrays", {}).arg(0).uint_value(kTriangles).arg(1).uint_value(0).arg(2).uint_value(3).end();
  c.leave();
  c.enter("glXSwapBuffers", {"dpy", "drawable"}).end();
  c.leave();
  TempFile f("contexts.trace", c.t.file());
  auto frames = read_frames(f.path(), 0, 0);
  ASSERT_EQ(frames[0].ops.size(), 2u);
  const GlTexture& second = *std::get<GlDraw>(frames[0].ops[0]).textures.at(0);
  EXPECT_EQ(second.levels.at(0).width, 8u);
  EXPECT_EQ(second.min_filter, 0x2702u) << "the GL's default, not the other context's setting";
  const GlTexture& first = *std::get<GlDraw>(frames[0].ops[1]).textures.at(0);
  EXPECT_EQ(first.levels.at(0).width, 16u);
  EXPECT_EQ(first.min_filter, 0x2600u);
}

TEST(GlState, VertexArrayObjectsKeepTheirOwnArraysAndElementBuffer) {
  Calls c;
  auto bind_vao = [&](uint64_t id) {
    c.enter("glBindVertexArray", {"array"}).arg(0).uint_value(id).end();
    c.leave();
  };
  auto pointer = [&](uint64_t index, uint64_t size) {
    c.enter("glVertexAttribPointer", {"index", "size", "type", "normalized", "stride", "pointer"}).arg(0).uint_value(index);
    c.t.arg(1).uint_value(size).arg(2).uint_value(kFloat).arg(3).uint_value(0).arg(4).uint_value(0).arg(5).uint_value(0).end();
    c.leave();
  };
  auto draw = [&] {
    c.enter("glDrawElements", {"mode", "count", "type", "indices"}).arg(0).uint_value(kTriangles).arg(1).uint_value(3);
    c.t.arg(2).uint_value(kUnsignedShort).arg(3).uint_value(0).end();
    c.leave();
  };
  c.enter("glBindBuffer", {"target", "buffer"}).arg(0).uint_value(kArrayBuffer).arg(1).uint_value(1).end();
  c.leave();
  bind_vao(5);
  pointer(0, 3);
  c.enter("glBindBuffer", {}).arg(0).uint_value(kElementArrayBuffer).arg(1).uint_value(8).end();
  c.leave();
  bind_vao(6);
  pointer(0, 2);
  c.enter("glBindBuffer", {}).arg(0).uint_value(kElementArrayBuffer).arg(1).uint_value(9).end();
  c.leave();
  bind_vao(5);
  draw();
  bind_vao(6);
  draw();
  c.enter("glXSwapBuffers", {"dpy", "drawable"}).end();
  c.leave();
  TempFile f("vao.trace", c.t.file());
  // No buffer holds data, so index data is empty: the sizes and arrays tell the objects apart.
  auto frames = read_frames(f.path(), 0, 0);
  ASSERT_EQ(frames[0].ops.size(), 2u);
  EXPECT_EQ(std::get<GlDraw>(frames[0].ops[0]).attribs.at(0).size, 3);
  EXPECT_EQ(std::get<GlDraw>(frames[0].ops[1]).attribs.at(0).size, 2);
}

TEST(GlState, TexSubImageReplacesARectangleAndBlitsAndDepthRangeAreRecorded) {
  Calls c;
  bind_texture(c, 2);
  tex_image(c, 4, 2);  // no pixels: zeros
  c.enter("glTexSubImage2D", {"target", "level", "xoffset", "yoffset", "width", "height", "format", "type", "pixels"});
  c.t.arg(0).uint_value(kTexture2D).arg(1).uint_value(0).arg(2).uint_value(1).arg(3).uint_value(1).arg(4).uint_value(2);
  c.t.arg(5).uint_value(1).arg(6).uint_value(0x1908).arg(7).uint_value(0x1401).arg(8).blob(std::string(8, '\x55')).end();
  c.leave();
  c.enter("glDepthRange", {"zNear", "zFar"}).arg(0).f64(0).arg(1).f64(0.3).end();
  c.leave();
  c.enter("glDrawArrays", {"mode", "first", "count"}).arg(0).uint_value(kTriangles).arg(1).uint_value(0);
  c.t.arg(2).uint_value(3).end();
  c.leave();
  c.enter("glBlitFramebuffer", {"srcX0", "srcY0", "srcX1", "srcY1", "dstX0", "dstY0", "dstX1", "dstY1", "mask", "filter"});
  for (uint64_t k = 0; k < 8; ++k) c.t.arg(k).uint_value(k < 4 ? 8 * (k % 2 + 1) : 4);
  c.t.arg(8).uint_value(0x4000).arg(9).uint_value(0x2601).end();
  c.leave();
  c.enter("glXSwapBuffers", {"dpy", "drawable"}).end();
  c.leave();
  TempFile f("subimage.trace", c.t.file());
  auto frames = read_frames(f.path(), 0, 0);
  ASSERT_EQ(frames[0].ops.size(), 2u);
  const GlDraw& d = std::get<GlDraw>(frames[0].ops[0]);
  const auto& px = *d.textures.at(0)->levels.at(0).pixels;
  ASSERT_EQ(px.size(), 32u);
  for (size_t b = 0; b < 32; ++b) EXPECT_EQ(px[b], b >= 20 && b < 28 ? 0x55 : 0) << "byte " << b;
  EXPECT_EQ(d.textures.at(0)->version, 2u) << "the sub-image is the texture's last upload";
  EXPECT_FLOAT_EQ(d.fixed.depth_range[1], 0.3f);
  const GlBlit& b = std::get<GlBlit>(frames[0].ops[1]);
  EXPECT_EQ(b.mask, 0x4000u);
  EXPECT_TRUE(b.linear);
  EXPECT_EQ(b.src[2], 8);
}

TEST(GlState, AStreamOfSeveralFrameRangesRecordsThoseFramesOnly) {
  Calls c;
  for (int frame = 0; frame < 6; ++frame) {
    for (int k = 0; k <= frame; ++k) clear(c);  // frame N has N + 1 clears
    c.enter("glXSwapBuffers", {"dpy", "drawable"}).end();
    c.leave();
  }
  TempFile f("ranges.trace", c.t.file());
  FrameStream stream(f.path(), parse_frame_ranges("1,3-4", "frames"));
  GlFrame frame;
  uint64_t index = 0;
  std::vector<uint64_t> seen;
  while (stream.next(frame, index)) {
    EXPECT_EQ(frame.ops.size(), index + 1) << "frame " << index;
    seen.push_back(index);
  }
  EXPECT_EQ(seen, (std::vector<uint64_t>{1, 3, 4}));
  EXPECT_EQ(stream.frames_seen(), 5u) << "the stream stops after the last frame asked for";
  EXPECT_THROW(parse_frame_ranges("3-4,4", "frames"), InputError);
  EXPECT_EQ(parse_frame_ranges("7", "frames")[0].last, 7u);
  EXPECT_THROW(parse_frame_ranges("1,", "frames"), InputError);
  EXPECT_THROW(parse_frame_ranges("-1", "frames"), InputError);
}

TEST(GlState, ACallNoReaderKnowsIsCountedAndADrawTheRendererCannotDrawIsRefused) {
  Calls c;
  c.enter("glFogf", {"pname", "param"}).arg(0).uint_value(1).end();
  c.leave();
  c.enter("glFogf", {"pname", "param"}).arg(0).uint_value(1).end();
  c.leave();
  c.enter("glGetError", {}).end();  // reads state back: known, nothing to follow
  c.leave();
  c.enter("glXSwapBuffers", {"dpy", "drawable"}).end();
  c.leave();
  c.enter("glDrawArraysInstanced", {"mode", "first", "count", "instancecount"}).arg(2).uint_value(3).end();
  c.leave();
  TempFile f("unknown.trace", c.t.file());
  FrameStream stream(f.path(), {{0, 0}});
  GlFrame frame;
  uint64_t index = 0;
  ASSERT_TRUE(stream.next(frame, index));
  EXPECT_EQ(stream.unknown_calls(), (std::map<std::string, uint64_t>{{"glFogf", 2}}));
  // Once a draw the renderer cannot draw: refused by name, never skipped.
  try {
    read_frames(f.path(), 0, 1);
    FAIL() << "an instanced draw was skipped";
  } catch (const NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("glDrawArraysInstanced"), std::string::npos) << e.what();
  }
}

TEST(GlState, AskingForFramesPastTheEndNamesTheFrameCount) {
  Calls c;
  c.enter("glXSwapBuffers", {"dpy", "drawable"}).end();
  c.leave();
  TempFile f("short.trace", c.t.file());
  try {
    read_frames(f.path(), 0, 3);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the trace has 1 frames"), std::string::npos) << e.what();
  }
}

TEST(GlState, EveryDrawOfTheSmallGlmark2CaptureHasAProgramAndVertexData) {
  auto frames = read_frames(STROBE_BUILD_DIR "/gfx-traces/glmark2-small.trace", 0, 11);
  ASSERT_EQ(frames.size(), 12u);
  for (const auto& frame : frames) {
    int draws = 0;
    for (const auto& op : frame.ops) {
      if (!std::holds_alternative<GlDraw>(op)) continue;
      ++draws;
      const GlDraw& d = std::get<GlDraw>(op);
      SCOPED_TRACE(d.call);
      ASSERT_TRUE(d.program);
      EXPECT_FALSE(d.program->vertex.empty());
      int enabled = 0;
      for (const auto& [index, a] : d.attribs)
        if (a.enabled) {
          ++enabled;
          ASSERT_TRUE(a.data);
          EXPECT_GT(a.data->size(), a.offset) << "attribute " << index;
        }
      EXPECT_GE(enabled, 1);
      EXPECT_FALSE(d.uniforms->empty());
      EXPECT_GT(d.fixed.viewport[2], 0);
    }
    EXPECT_GE(draws, 1);
  }
}

TEST(GlPixelBytes, UploadsAndSubUploadsShareOneRuleForEveryClientFormat) {
  EXPECT_EQ(gl_pixel_bytes(0x1908, 0x1401), 4u);  // GL_RGBA, GL_UNSIGNED_BYTE
  EXPECT_EQ(gl_pixel_bytes(0x1907, 0x1401), 3u);  // GL_RGB
  EXPECT_EQ(gl_pixel_bytes(0x190A, 0x1401), 2u);  // GL_LUMINANCE_ALPHA
  EXPECT_EQ(gl_pixel_bytes(0x1909, 0x1401), 1u);  // GL_LUMINANCE
  EXPECT_EQ(gl_pixel_bytes(0x1906, 0x1401), 1u);  // GL_ALPHA
  EXPECT_EQ(gl_pixel_bytes(0x1907, 0x8363), 2u);  // GL_RGB, GL_UNSIGNED_SHORT_5_6_5
  EXPECT_EQ(gl_pixel_bytes(0x1908, 0x8033), 2u);  // GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4
  EXPECT_EQ(gl_pixel_bytes(0x1908, 0x1406), 0u);  // GL_FLOAT: not read
  EXPECT_EQ(gl_pixel_bytes(0x1903, 0x1401), 0u);  // GL_RED: not read
}

}  // namespace
}  // namespace strobe::gfx
