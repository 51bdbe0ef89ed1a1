// GL state is tracked as the GL specifies it: objects by name, bindings per target and per
// texture unit, uniforms per program object. A draw takes shared references to the buffer and
// texture contents it reads; an upload replaces the contents (a sub-upload copies them first), so
// earlier snapshots keep what they saw. Calls the tracker does not know are ignored: it reads
// what the pipeline renders, and the renderer refuses what it cannot draw.
#include "gfx/stream/gl_state.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "common/error.h"
#include "gfx/stream/call_reader.h"
#include "gfx/stream/gl_calls.h"
#include "gfx/trace/apitrace_reader.h"

namespace strobe::gfx {
namespace {

constexpr uint32_t kArrayBuffer = 0x8892, kElementArrayBuffer = 0x8893;
constexpr uint32_t kTexture2D = 0x0DE1, kTexture0 = 0x84C0;
constexpr uint32_t kMinFilter = 0x2801, kMagFilter = 0x2800, kWrapS = 0x2802, kWrapT = 0x2803;
constexpr uint32_t kUnpackAlignment = 0x0CF5, kLinear = 0x2601;
constexpr uint32_t kPolygonOffsetFill = 0x8037;
constexpr uint32_t kDepthTest = 0x0B71, kBlend = 0x0BE2, kCullFace = 0x0B44, kScissorTest = 0x0C11;
constexpr uint32_t kFramebuffer = 0x8D40, kDrawFramebuffer = 0x8CA9, kReadFramebuffer = 0x8CA8;
constexpr uint32_t kColorAttachment0 = 0x8CE0, kDepthAttachment = 0x8D00, kStencilAttachment = 0x8D20;
constexpr uint32_t kDepthStencilAttachment = 0x821A;

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The core name of an extension entry point: glBindFramebufferEXT reads as glBindFramebuffer.
std::string_view core_name(std::string_view n) { return gl_core_name(n); }

Bytes bytes_of(const trace::Value& v) {
  if (v.kind() != trace::ValueKind::Blob) return std::make_shared<const std::vector<uint8_t>>();
  auto b = v.blob();
  return std::make_shared<const std::vector<uint8_t>>(reinterpret_cast<const uint8_t*>(b.data()),
                                                      reinterpret_cast<const uint8_t*>(b.data()) + b.size());
}

// A byte offset or a handle recorded as a pointer: apitrace writes 0 as a null pointer.
uint64_t offset_of(const trace::Value& v) {
  if (v.kind() == trace::ValueKind::Null) return 0;
  return v.kind() == trace::ValueKind::Pointer ? v.pointer() : uint64_t(v.integer());
}

}  // namespace

// Everything one GL context owns: object namespaces, bindings and fixed-function state. A trace
// may create several contexts (glmark2 makes one per scene) whose object names restart at 1.
struct Context {
  explicit Context(const std::string& path) : programs(path) {}

  ProgramTracker programs;
  std::map<uint64_t, std::shared_ptr<const GlProgram>> linked;       // program id -> last link
  std::map<uint64_t, std::map<int64_t, std::string>> uniform_names;  // program -> location -> name
  using Uniforms = std::map<std::string, std::vector<uint8_t>>;
  std::map<uint64_t, std::shared_ptr<Uniforms>> uniform_values;  // program -> name -> bytes
  std::map<uint64_t, std::shared_ptr<std::vector<uint8_t>>> buffers;  // shared with draws made since the last upload
  std::map<uint32_t, uint64_t> buffer_binding;  // target -> buffer
  std::map<int, GlAttrib> attribs;
  std::map<uint64_t, std::shared_ptr<GlTexture>> textures;
  std::map<int, uint64_t> texture_units;  // unit -> texture bound to TEXTURE_2D
  std::map<uint64_t, GlFramebufferAttachments> framebuffers;
  std::map<uint64_t, std::array<uint32_t, 3>> renderbuffers;  // name -> width, height, internal format
  // Vertex array objects not bound: their attribute arrays and element buffer. The bound one's
  // live in `attribs` and buffer_binding[ELEMENT_ARRAY_BUFFER], as for the default object 0.
  struct VertexArray {
    std::map<int, GlAttrib> attribs;
    uint64_t element_buffer = 0;
  };
  std::map<uint64_t, VertexArray> vertex_arrays;
  uint64_t vertex_array = 0;
  uint64_t read_framebuffer = 0;  // GL_READ_FRAMEBUFFER (the draw one is fixed.framebuffer)
  uint64_t renderbuffer_binding = 0;
  int active_unit = 0;
  uint32_t unpack_alignment = 4;
  uint64_t current_program = 0;
  std::array<uint32_t, 2> window{0, 0};  // the drawable's size, as glretrace infers it
  GlFixed fixed;
};

struct GlState::Impl : CallReader {
  explicit Impl(std::string p) : CallReader{std::move(p)}, cx(path) {}

  Context cx;
  uint64_t current_context = 0;
  bool context_destroyed = false;  // the current context was destroyed; the next one starts afresh
  std::map<uint64_t, Context> others;  // contexts not current, by handle
  GlFrame frame;
  bool frame_open = false;
  bool recording = true;
  std::map<std::string, uint64_t> unknown;  // calls no reader knows, by name

  GlTexture& bound_texture(const trace::Call& c) {
    auto it = cx.texture_units.find(cx.active_unit);
    if (it == cx.texture_units.end() || it->second == 0) fail(c, "no texture bound to the active unit's TEXTURE_2D");
    auto& t = cx.textures[it->second];
    if (!t) {
      t = std::make_shared<GlTexture>();
      t->name = it->second;
    }
    // Copy on write: draws already recorded keep the texture as it was.
    if (t.use_count() > 1) t = std::make_shared<GlTexture>(*t);
    return *t;
  }

  void set_enable(uint32_t cap, bool on) {
    if (cap == kDepthTest) cx.fixed.depth_test = on;
    if (cap == kBlend) cx.fixed.blend = on;
    if (cap == kCullFace) cx.fixed.cull = on;
    if (cap == kScissorTest) cx.fixed.scissor_test = on;
    if (cap == kPolygonOffsetFill) cx.fixed.polygon_offset_fill = on;
  }

  // glDelete*: forgets each named object and unbinds it wherever it is bound (which binds 0).
  template <class Objects, class Bindings>
  void delete_objects(const trace::Call& c, const char* names, Objects& objects, Bindings& bindings) {
    for (const auto& e : arg(c, names).elements()) {
      const uint64_t id = uint64_t(e.integer());
      objects.erase(id);
      for (auto& [where, bound] : bindings)
        if (bound == id) bound = 0;
    }
  }

  // glBindVertexArray: the bound object's arrays and element buffer swap with the new one's.
  void bind_vertex_array(uint64_t id) {
    if (id == cx.vertex_array) return;
    auto& saved = cx.vertex_arrays[cx.vertex_array];
    saved.attribs = std::move(cx.attribs);
    saved.element_buffer = cx.buffer_binding[kElementArrayBuffer];
    auto& next = cx.vertex_arrays[id];
    cx.attribs = std::move(next.attribs);
    cx.buffer_binding[kElementArrayBuffer] = next.element_buffer;
    cx.vertex_arrays.erase(id);
    cx.vertex_array = id;
  }

  void make_current(uint64_t handle);
  GlTarget target() const { return target_of(cx.fixed.framebuffer); }
  GlTarget target_of(uint64_t framebuffer) const;
  void tex_sub_image(const trace::Call& c);
  void framebuffer_call(const trace::Call& c, std::string_view n);
  void uniform(const trace::Call& c, std::string_view n);
  void draw(const trace::Call& c, std::string_view n);
  void apply(const trace::Call& c);
};

void GlState::Impl::uniform(const trace::Call& c, std::string_view n) {
  const int64_t location = i(c, "location");
  if (location < 0) return;  // the GL ignores location -1
  auto names = cx.uniform_names[cx.current_program].find(location);
  if (names == cx.uniform_names[cx.current_program].end()) return;  // a location the program never asked for
  std::vector<uint8_t> bytes;
  auto push = [&bytes](const trace::Value& v) {
    uint32_t b;
    if (v.kind() == trace::ValueKind::Float) {
      float x = v.f32();
      std::memcpy(&b, &x, 4);
    } else if (v.kind() == trace::ValueKind::Double) {
      float x = float(v.f64());
      std::memcpy(&b, &x, 4);
    } else {
      b = static_cast<uint32_t>(v.integer());
    }
    bytes.insert(bytes.end(), reinterpret_cast<uint8_t*>(&b), reinterpret_cast<uint8_t*>(&b) + 4);
  };
  if (n.find("Matrix") != std::string_view::npos) {
    if (i(c, "transpose")) fail(c, "transposed matrix uniforms are not read");
    for (const auto& e : arg(c, "value").elements()) push(e);
  } else if (n.back() == 'v') {
    for (const auto& e : arg(c, "value").elements()) push(e);
  } else {
    for (const char* a : {"v0", "v1", "v2", "v3", "x", "y", "z", "w"})
      if (const trace::Value* v = c.arg(a)) push(*v);
  }
  // Copy on write: draws already recorded keep the values they saw.
  auto& values = cx.uniform_values[cx.current_program];
  if (!values) values = std::make_shared<Context::Uniforms>();
  if (values.use_count() > 1) values = std::make_shared<Context::Uniforms>(*values);
  (*values)[names->second] = std::move(bytes);
}

void GlState::Impl::draw(const trace::Call& c, std::string_view n) {
  GlDraw d;
  d.call = c.number();
  d.mode = u(c, "mode");
  d.count = u(c, "count");
  if (starts(n, "glDrawArrays")) {
    d.first = u(c, "first");
  } else {
    d.index_type = u(c, "type");
    const trace::Value& indices = arg(c, "indices");
    auto eab = cx.buffer_binding.find(kElementArrayBuffer);
    if (indices.kind() != trace::ValueKind::Blob && eab != cx.buffer_binding.end() && eab->second) {
      d.indices = cx.buffers[eab->second];
      d.index_offset = offset_of(indices);
    } else {
      d.indices = bytes_of(indices);  // a client-side index array, recorded as a blob
    }
  }
  auto p = cx.linked.find(cx.current_program);
  if (p != cx.linked.end()) d.program = p->second;
  auto& values = cx.uniform_values[cx.current_program];
  if (!values) values = std::make_shared<Context::Uniforms>();
  d.uniforms = values;
  d.attribs = cx.attribs;
  for (auto& [index, a] : d.attribs)
    if (a.buffer) {
      auto b = cx.buffers.find(a.buffer);
      a.data = b == cx.buffers.end() ? nullptr : Bytes(b->second);
    }
  for (const auto& [unit, id] : cx.texture_units) {
    auto t = cx.textures.find(id);
    if (id && t != cx.textures.end() && t->second) d.textures[unit] = t->second;
  }
  d.fixed = cx.fixed;
  d.fixed.target = target();
  frame.ops.emplace_back(std::move(d));
}

namespace {

// Rows of `width` pixels of `bpp` bytes padded to `alignment`.
uint64_t row_bytes(uint64_t width, uint32_t bpp, uint32_t alignment) {
  const uint64_t a = alignment ? alignment : 1;
  return (width * bpp + a - 1) / a * a;
}

}  // namespace

void GlState::Impl::tex_sub_image(const trace::Call& c) {
  if (u(c, "target") != kTexture2D) return;
  GlTexture& t = bound_texture(c);
  const size_t level = size_t(i(c, "level"));
  if (level >= t.levels.size()) fail(c, fmt::format("level {} was never specified", level));
  GlTexLevel& l = t.levels[level];
  const uint32_t format = u(c, "format"), type = u(c, "type");
  const uint32_t bpp = gl_pixel_bytes(format, type);
  if (format != l.format || type != l.type || !bpp)
    throw NotImplementedError(fmt::format("{}: call {} ({}): a sub-image of format 0x{:X}, type 0x{:X} into a level of "
                                          "format 0x{:X}, type 0x{:X}", path, c.number(), c.name(), format, type,
                                          l.format, l.type));
  const int64_t x = i(c, "xoffset"), y = i(c, "yoffset"), w = i(c, "width"), h = i(c, "height");
  if (x < 0 || y < 0 || w < 0 || h < 0 || x + w > int64_t(l.width) || y + h > int64_t(l.height))
    fail(c, fmt::format("the rectangle {}x{} at ({}, {}) leaves the {}x{} level", w, h, x, y, l.width, l.height));
  const trace::Value& data = arg(c, "pixels");
  if (data.kind() != trace::ValueKind::Blob) fail(c, "no pixels recorded");
  const auto blob = data.blob();
  const uint64_t src_pitch = row_bytes(uint64_t(w), bpp, cx.unpack_alignment);
  if (h > 0 && blob.size() < src_pitch * uint64_t(h - 1) + uint64_t(w) * bpp) fail(c, "fewer pixels than the rectangle");
  // The level's contents, copied first: draws already recorded keep the old ones.
  const uint64_t pitch = row_bytes(l.width, bpp, l.unpack_alignment);
  auto pixels = std::make_shared<std::vector<uint8_t>>(l.pixels ? *l.pixels : std::vector<uint8_t>{});
  pixels->resize(std::max<uint64_t>(pixels->size(), pitch * l.height), 0);
  for (int64_t row = 0; row < h; ++row)
    std::memcpy(pixels->data() + uint64_t(y + row) * pitch + uint64_t(x) * bpp,
                reinterpret_cast<const uint8_t*>(blob.data()) + uint64_t(row) * src_pitch, uint64_t(w) * bpp);
  l.pixels = std::move(pixels);
  t.version = c.number();
}

void GlState::Impl::make_current(uint64_t handle) {
  if (handle == current_context && !context_destroyed) return;
  if (!context_destroyed) others.emplace(current_context, std::move(cx));
  auto saved = others.find(handle);
  if (saved != others.end()) {
    cx = std::move(saved->second);
    others.erase(saved);
  } else {
    cx = Context(path);
  }
  current_context = handle;
  context_destroyed = false;
}

GlTarget GlState::Impl::target_of(uint64_t framebuffer) const {
  GlTarget t;
  t.framebuffer = framebuffer;
  if (t.framebuffer == 0) {
    t.width = cx.window[0];
    t.height = cx.window[1];
    return t;
  }
  t.color = t.depth = false;
  auto fb = cx.framebuffers.find(t.framebuffer);
  if (fb == cx.framebuffers.end()) return t;  // incomplete: nothing is drawn
  // A texture level's or renderbuffer's size; 0 x 0 when it has none.
  auto size_of = [&](uint64_t texture, uint32_t level, uint64_t renderbuffer) -> std::array<uint32_t, 2> {
    if (texture) {
      auto tex = cx.textures.find(texture);
      if (tex == cx.textures.end() || !tex->second || tex->second->levels.size() <= level) return {0, 0};
      return {tex->second->levels[level].width, tex->second->levels[level].height};
    }
    auto rb = cx.renderbuffers.find(renderbuffer);
    return rb == cx.renderbuffers.end() ? std::array<uint32_t, 2>{0, 0} : std::array<uint32_t, 2>{rb->second[0], rb->second[1]};
  };
  const GlFramebufferAttachments& a = fb->second;
  t.color_texture = a.color_texture;
  t.depth_texture = a.depth_texture;
  t.color_level = a.color_level;
  t.color = a.color_texture || a.color_renderbuffer;
  if (a.color_texture) {
    auto tex = cx.textures.find(a.color_texture);
    t.color_float = tex != cx.textures.end() && tex->second && tex->second->levels.size() > a.color_level &&
                    gl_internal_format_is_float(tex->second->levels[a.color_level].internal_format);
  } else if (auto rb = cx.renderbuffers.find(a.color_renderbuffer); rb != cx.renderbuffers.end()) {
    t.color_float = gl_internal_format_is_float(rb->second[2]);
  }
  t.depth = a.depth_texture || a.depth_renderbuffer;
  // The framebuffer's size is its attachments' intersection, as the GL renders into it.
  std::array<uint32_t, 2> size{UINT32_MAX, UINT32_MAX};
  if (t.color) {
    auto s = size_of(a.color_texture, a.color_level, a.color_renderbuffer);
    size = {std::min(size[0], s[0]), std::min(size[1], s[1])};
  }
  if (t.depth) {
    auto s = size_of(a.depth_texture, 0, a.depth_renderbuffer);
    size = {std::min(size[0], s[0]), std::min(size[1], s[1])};
  }
  if (t.color || t.depth) t.width = size[0], t.height = size[1];
  return t;
}

void GlState::Impl::framebuffer_call(const trace::Call& c, std::string_view n) {
  if (n == "glBindFramebuffer") {
    const uint32_t target = u(c, "target");
    if (target == kFramebuffer || target == kDrawFramebuffer) cx.fixed.framebuffer = u(c, "framebuffer");
    if (target == kFramebuffer || target == kReadFramebuffer) cx.read_framebuffer = u(c, "framebuffer");
  } else if (n == "glDeleteFramebuffers") {
    for (const auto& e : arg(c, "framebuffers").elements()) {
      const uint64_t id = uint64_t(e.integer());
      cx.framebuffers.erase(id);
      // Deleting a bound framebuffer binds the window in its place.
      if (cx.fixed.framebuffer == id) cx.fixed.framebuffer = 0;
      if (cx.read_framebuffer == id) cx.read_framebuffer = 0;
    }
  } else if (n == "glFramebufferTexture2D" || n == "glFramebufferRenderbuffer") {
    const uint32_t target = u(c, "target");
    if (target != kFramebuffer && target != kDrawFramebuffer) return;
    if (cx.fixed.framebuffer == 0) fail(c, "no framebuffer object is bound");
    GlFramebufferAttachments& a = cx.framebuffers[cx.fixed.framebuffer];
    const uint32_t attachment = u(c, "attachment");
    const bool texture = n == "glFramebufferTexture2D";
    if (texture && u(c, "textarget") != kTexture2D) fail(c, "only TEXTURE_2D levels are attached");
    const uint64_t name = texture ? u(c, "texture") : u(c, "renderbuffer");
    const uint32_t level = texture ? u(c, "level") : 0;
    if (attachment == kColorAttachment0) {
      a.color_texture = texture ? name : 0;
      a.color_renderbuffer = texture ? 0 : name;
      a.color_level = level;
    } else if (attachment == kDepthAttachment || attachment == kDepthStencilAttachment) {
      a.depth_texture = texture ? name : 0;
      a.depth_renderbuffer = texture ? 0 : name;
    } else if (attachment != kStencilAttachment) {
      fail(c, fmt::format("attachment 0x{:x}: only COLOR_ATTACHMENT0, depth and stencil are drawn", attachment));
    }
  } else if (n == "glBindRenderbuffer") {
    cx.renderbuffer_binding = u(c, "renderbuffer");
  } else if (n == "glRenderbufferStorage" || n == "glRenderbufferStorageMultisample") {
    if (!cx.renderbuffer_binding) fail(c, "no renderbuffer is bound");
    cx.renderbuffers[cx.renderbuffer_binding] = {u(c, "width"), u(c, "height"), u(c, "internalformat")};
  }
}

void GlState::Impl::apply(const trace::Call& c) {
  if (!frame_open) {
    frame.first_call = c.number();
    frame_open = true;
  }
  std::string_view n = core_name(c.name());
  // The one table says what the call is (gl_calls.h): a call no reader knows is counted and
  // reported, a draw the renderer cannot draw is refused, and the rest reach their branch below.
  const GlCallKind kind = gl_call_kind(c.name());
  switch (kind) {
    case GlCallKind::Unknown: ++unknown[std::string(c.name())]; return;
    case GlCallKind::NoEffect: return;
    case GlCallKind::UnsupportedDraw:
      throw NotImplementedError(fmt::format("{}: call {}: {}: the renderer draws glDrawArrays, glDrawElements and "
                                            "glDrawRangeElements only",
                                            path, c.number(), c.name()));
    default: break;
  }
  if (n == "glXMakeCurrent" || n == "glXMakeContextCurrent" || n == "eglMakeCurrent") {
    make_current(offset_of(arg(c, "ctx")));
    return;
  }
  if (n == "glXDestroyContext" || n == "eglDestroyContext") {
    const uint64_t handle = offset_of(arg(c, "ctx"));
    // A handle may be reused by a later context: forget the state, here or when it stops being current.
    if (handle == current_context) context_destroyed = true;
    others.erase(handle);
    return;
  }
  if (auto p = cx.programs.apply(c)) {
    const uint64_t id = p->id;
    cx.linked[id] = std::make_shared<const GlProgram>(std::move(*p));
    return;
  }
  if (n == "glUseProgram" || n == "glUseProgramObject") {
    cx.current_program = u(c, n == "glUseProgram" ? "program" : "programObj");
  } else if (n == "glGetUniformLocation") {
    if (c.ret()) cx.uniform_names[u(c, "program")][c.ret()->integer()] = std::string(arg(c, "name").string());
  } else if (starts(n, "glUniform")) {
    uniform(c, n);
  } else if (n == "glBindBuffer") {
    cx.buffer_binding[u(c, "target")] = u(c, "buffer");
  } else if (n == "glDeleteBuffers") {
    delete_objects(c, "buffers", cx.buffers, cx.buffer_binding);
  } else if (n == "glBufferData") {
    auto b = cx.buffer_binding.find(u(c, "target"));
    if (b == cx.buffer_binding.end() || !b->second) fail(c, "no buffer bound to the target");
    const trace::Value& data = arg(c, "data");
    auto contents = std::make_shared<std::vector<uint8_t>>(size_t(i(c, "size")), uint8_t{0});
    if (data.kind() == trace::ValueKind::Blob) {
      auto blob = data.blob();
      std::memcpy(contents->data(), blob.data(), std::min(blob.size(), contents->size()));
    }
    cx.buffers[b->second] = std::move(contents);
  } else if (n == "glBufferSubData") {
    auto b = cx.buffer_binding.find(u(c, "target"));
    if (b == cx.buffer_binding.end() || !b->second) fail(c, "no buffer bound to the target");
    auto& contents = cx.buffers[b->second];
    if (!contents) contents = std::make_shared<std::vector<uint8_t>>();
    // Copy on write: only when a recorded draw still reads these contents.
    if (contents.use_count() > 1) contents = std::make_shared<std::vector<uint8_t>>(*contents);
    const trace::Value& data = arg(c, "data");
    if (data.kind() != trace::ValueKind::Blob) fail(c, "no data recorded");
    auto blob = data.blob();
    const uint64_t offset = uint64_t(i(c, "offset"));
    if (offset + blob.size() > contents->size()) fail(c, "writes past the buffer's end");
    std::memcpy(contents->data() + offset, blob.data(), blob.size());
  } else if (n == "glEnableVertexAttribArray" || n == "glDisableVertexAttribArray") {
    cx.attribs[int(i(c, "index"))].enabled = n == "glEnableVertexAttribArray";
  } else if (n == "glVertexAttribPointer") {
    GlAttrib& a = cx.attribs[int(i(c, "index"))];
    a.size = int(i(c, "size"));
    a.type = u(c, "type");
    a.normalized = i(c, "normalized") != 0;
    a.stride = u(c, "stride");
    // apitrace records a client-side array as a blob; anything else is an offset into the
    // bound buffer.
    const trace::Value& pointer = arg(c, "pointer");
    auto ab = cx.buffer_binding.find(kArrayBuffer);
    if (pointer.kind() != trace::ValueKind::Blob && ab != cx.buffer_binding.end() && ab->second) {
      a.buffer = ab->second;
      a.data = nullptr;
      a.offset = offset_of(pointer);
    } else {
      a.buffer = 0;
      a.data = bytes_of(pointer);
      a.offset = 0;
    }
  } else if (starts(n, "glVertexAttrib") && (n.size() == 16 || n.size() == 17)) {  // glVertexAttrib4f(v)
    GlAttrib& a = cx.attribs[int(i(c, "index"))];
    a.current = {0, 0, 0, 1};
    int k = 0;
    if (const trace::Value* v = c.arg("v")) {
      for (const auto& e : v->elements()) a.current[size_t(k++)] = e.kind() == trace::ValueKind::Float ? e.f32() : float(e.f64());
    } else {
      for (const char* name : {"x", "y", "z", "w"})
        if (c.arg(name)) a.current[size_t(k++)] = f(c, name);
    }
  } else if (n == "glActiveTexture") {
    cx.active_unit = int(u(c, "texture") - kTexture0);
  } else if (n == "glBindTexture") {
    if (u(c, "target") == kTexture2D) cx.texture_units[cx.active_unit] = u(c, "texture");
  } else if (n == "glPixelStorei") {
    if (u(c, "pname") == kUnpackAlignment) cx.unpack_alignment = u(c, "param");
  } else if (n == "glTexImage2D") {
    if (u(c, "target") != kTexture2D) return;
    GlTexture& t = bound_texture(c);
    const size_t level = size_t(i(c, "level"));
    if (t.levels.size() <= level) t.levels.resize(level + 1);
    GlTexLevel& l = t.levels[level];
    l.width = u(c, "width");
    l.height = u(c, "height");
    l.format = u(c, "format");
    l.type = u(c, "type");
    l.unpack_alignment = cx.unpack_alignment;
    l.pixels = bytes_of(arg(c, "pixels"));
    l.internal_format = u(c, "internalformat");
    t.generate_mipmap = false;
    t.version = c.number();
  } else if (n == "glTexParameteri" || n == "glTexParameterf") {
    if (u(c, "target") != kTexture2D) return;
    GlTexture& t = bound_texture(c);
    const uint32_t pname = u(c, "pname");
    const uint32_t param = n == "glTexParameteri" ? u(c, "param") : uint32_t(f(c, "param"));
    if (pname == kMinFilter) t.min_filter = param;
    if (pname == kMagFilter) t.mag_filter = param;
    if (pname == kWrapS) t.wrap_s = param;
    if (pname == kWrapT) t.wrap_t = param;
  } else if (n == "glGenerateMipmap") {
    if (u(c, "target") == kTexture2D) bound_texture(c).generate_mipmap = true;
  } else if (n == "glEnable" || n == "glDisable") {
    set_enable(u(c, "cap"), n == "glEnable");
  } else if (n == "glDepthFunc") {
    cx.fixed.depth_func = u(c, "func");
  } else if (n == "glDepthMask") {
    cx.fixed.depth_mask = i(c, "flag") != 0;
  } else if (n == "glBlendFunc") {
    cx.fixed.blend_src_rgb = cx.fixed.blend_src_alpha = u(c, "sfactor");
    cx.fixed.blend_dst_rgb = cx.fixed.blend_dst_alpha = u(c, "dfactor");
  } else if (n == "glBlendFuncSeparate") {
    cx.fixed.blend_src_rgb = u(c, "sfactorRGB");
    cx.fixed.blend_dst_rgb = u(c, "dfactorRGB");
    cx.fixed.blend_src_alpha = u(c, "sfactorAlpha");
    cx.fixed.blend_dst_alpha = u(c, "dfactorAlpha");
  } else if (n == "glBlendEquation") {
    cx.fixed.blend_equation = u(c, "mode");
  } else if (n == "glCullFace") {
    cx.fixed.cull_face = u(c, "mode");
  } else if (n == "glFrontFace") {
    cx.fixed.front_face = u(c, "mode");
  } else if (n == "glViewport" || n == "glScissor") {
    auto& box = n == "glViewport" ? cx.fixed.viewport : cx.fixed.scissor;
    box = {int32_t(i(c, "x")), int32_t(i(c, "y")), int32_t(i(c, "width")), int32_t(i(c, "height"))};
    // The trace does not record the window's size. Like glretrace, take it as the largest box
    // set while the window is bound; apitrace records one of each after every MakeCurrent.
    if (cx.fixed.framebuffer == 0)
      cx.window = {std::max(cx.window[0], uint32_t(std::max(0, box[0] + box[2]))),
                   std::max(cx.window[1], uint32_t(std::max(0, box[1] + box[3])))};
  } else if (n == "glColorMask") {
    cx.fixed.color_mask = {i(c, "red") != 0, i(c, "green") != 0, i(c, "blue") != 0, i(c, "alpha") != 0};
  } else if (n == "glClearColor") {
    cx.fixed.clear_color = {f(c, "red"), f(c, "green"), f(c, "blue"), f(c, "alpha")};
  } else if (n == "glClearDepth" || n == "glClearDepthf") {
    cx.fixed.clear_depth = f(c, n == "glClearDepth" ? "depth" : "d");
  } else if (starts(n, "glBindFramebuffer") || starts(n, "glFramebuffer") || starts(n, "glDeleteFramebuffers") ||
             starts(n, "glBindRenderbuffer") || starts(n, "glRenderbufferStorage")) {
    framebuffer_call(c, n);
  } else if (n == "glBlitFramebuffer") {
    if (!recording) return;
    GlBlit b;
    b.call = c.number();
    b.src = {int32_t(i(c, "srcX0")), int32_t(i(c, "srcY0")), int32_t(i(c, "srcX1")), int32_t(i(c, "srcY1"))};
    b.dst = {int32_t(i(c, "dstX0")), int32_t(i(c, "dstY0")), int32_t(i(c, "dstX1")), int32_t(i(c, "dstY1"))};
    b.mask = u(c, "mask");
    b.linear = u(c, "filter") == kLinear;
    b.read = target_of(cx.read_framebuffer);
    b.fixed = cx.fixed;
    b.fixed.target = target();
    frame.ops.emplace_back(std::move(b));
  } else if (n == "glPolygonOffset") {
    cx.fixed.polygon_offset_factor = f(c, "factor");
    cx.fixed.polygon_offset_units = f(c, "units");
  } else if (n == "glDepthRange" || n == "glDepthRangef") {
    cx.fixed.depth_range = {std::clamp(f(c, n == "glDepthRange" ? "zNear" : "n"), 0.0f, 1.0f),
                            std::clamp(f(c, n == "glDepthRange" ? "zFar" : "f"), 0.0f, 1.0f)};
  } else if (n == "glTexSubImage2D") {
    tex_sub_image(c);
  } else if (n == "glBindVertexArray") {
    bind_vertex_array(u(c, "array"));
  } else if (n == "glDeleteVertexArrays") {
    for (const auto& e : arg(c, "arrays").elements()) {
      const uint64_t id = uint64_t(e.integer());
      if (id == cx.vertex_array) bind_vertex_array(0);  // deleting the bound one binds 0
      cx.vertex_arrays.erase(id);
    }
  } else if (n == "glDeleteTextures") {
    delete_objects(c, "textures", cx.textures, cx.texture_units);
  } else if (n == "glClear") {
    if (!recording) return;
    GlClear clear{c.number(), u(c, "mask"), cx.fixed};
    clear.fixed.target = target();
    frame.ops.emplace_back(std::move(clear));
  } else if (n == "glDrawArrays" || n == "glDrawElements" || n == "glDrawRangeElements") {
    if (recording) draw(c, n);
  } else if (kind != GlCallKind::Program) {
    // The table lists the call for this tracker, which has no branch for it: the two disagree.
    throw std::logic_error(fmt::format("{}: call {} ({}): the GL call table gives it to the state tracker, which does "
                                       "not handle it",
                                       path, c.number(), c.name()));
  }
}

GlState::GlState(std::string path) : impl_(std::make_unique<Impl>(std::move(path))) {}
GlState::~GlState() = default;

bool GlState::apply(const trace::Call& c) {
  if (c.incomplete()) return false;
  try {
    impl_->apply(c);
  } catch (const InputError& e) {
    // A value of the wrong kind is reported without its place; give it the file and call.
    const std::string what = e.what();
    if (what.rfind(impl_->path, 0) == 0) throw;
    throw InputError(fmt::format("{}: call {} ({}): {}", impl_->path, c.number(), c.name(), what));
  }
  if (!c.ends_frame()) return false;
  impl_->frame_open = false;
  return true;
}

GlFrame GlState::take_frame() { return std::exchange(impl_->frame, GlFrame{}); }

void GlState::set_recording(bool on) { impl_->recording = on; }

const std::map<std::string, uint64_t>& GlState::unknown_calls() const { return impl_->unknown; }

uint32_t gl_pixel_bytes(uint32_t format, uint32_t type) {
  if (type == 0x8363 || type == 0x8033 || type == 0x8034) return 2;  // packed 16-bit types
  if (type != 0x1401) return 0;                                      // GL_UNSIGNED_BYTE
  switch (format) {
    case 0x1908: return 4;             // GL_RGBA
    case 0x1907: return 3;             // GL_RGB
    case 0x190A: return 2;             // GL_LUMINANCE_ALPHA
    case 0x1909: case 0x1906: return 1;  // GL_LUMINANCE, GL_ALPHA
    default: return 0;
  }
}

bool gl_internal_format_has_alpha(uint32_t f) {
  switch (f) {
    case 1: case 3:                      // the legacy component counts without alpha
    case 0x1907: case 0x8051:            // GL_RGB, GL_RGB8
    case 0x1909: case 0x8040:            // GL_LUMINANCE, GL_LUMINANCE8
    case 0x8229: case 0x822B:            // GL_R8, GL_RG8
    case 0x8D62: case 0x881B: case 0x8815:  // GL_RGB565, GL_RGB16F, GL_RGB32F
    case 0x1902: case 0x81A5: case 0x81A6: case 0x81A7:  // depth formats
      return false;
    default:
      return true;
  }
}

bool gl_internal_format_is_float(uint32_t f) {
  switch (f) {
    case 0x881A: case 0x881B: case 0x8814: case 0x8815:  // GL_RGBA16F, GL_RGB16F, GL_RGBA32F, GL_RGB32F
    case 0x822D: case 0x822F: case 0x822E: case 0x8230:  // GL_R16F, GL_RG16F, GL_R32F, GL_RG32F
    case 0x8C3A:                                         // GL_R11F_G11F_B10F
      return true;
    default:
      return false;
  }
}

}  // namespace strobe::gfx
