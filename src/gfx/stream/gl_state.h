// The GL state a captured program builds up, followed call by call through its trace, and
// each frame's work as the pipeline needs it: clears and draws, each draw with a snapshot of
// everything it reads (program and uniforms, vertex arrays, index data, textures, fixed-function
// state). Buffer and texture contents are shared between snapshots and copied only when the
// program changes them, so a frame's draws cost no more than the data they name.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "gfx/stream/gl_programs.h"

namespace strobe::gfx {

namespace trace {
class Call;
}

/// Bytes whose owner may have moved on; a snapshot keeps the version it saw.
using Bytes = std::shared_ptr<const std::vector<uint8_t>>;

/// One vertex attribute array as glVertexAttribPointer set it.
struct GlAttrib {
  bool enabled = false;
  int size = 4;              ///< components, 1 to 4
  uint32_t type = 0x1406;    ///< GL_FLOAT
  bool normalized = false;
  uint32_t stride = 0;       ///< bytes; 0 means tightly packed
  uint64_t offset = 0;       ///< into `data`
  uint64_t buffer = 0;       ///< the buffer object it reads, 0 for a client-side array
  Bytes data;                ///< in a draw: the contents it read (the buffer's or the client array)
  std::array<float, 4> current{0, 0, 0, 1};  ///< glVertexAttrib* value when disabled
};

/// One texture level's pixels as the program uploaded them (rows aligned to `unpack_alignment`).
struct GlTexLevel {
  uint32_t width = 0, height = 0;
  uint32_t format = 0, type = 0;  ///< glTexImage2D's format and type
  uint32_t unpack_alignment = 4;
  Bytes pixels;                   ///< empty for a level allocated without data
  uint32_t internal_format = 0;   ///< glTexImage2D's internalformat (0: as `format`)
};

/// Whether a texture of GL internal format `internal_format` keeps alpha; one without (GL_RGB,
/// GL_LUMINANCE, ...) samples alpha as 1 whatever the data held.
bool gl_internal_format_has_alpha(uint32_t internal_format);

/// Whether GL internal format `internal_format` stores floating-point colour (GL_RGBA16F, ...).
bool gl_internal_format_is_float(uint32_t internal_format);

/// Bytes of one client pixel the GL uploads as (`format`, `type`): GL_UNSIGNED_BYTE RGBA, RGB,
/// LUMINANCE_ALPHA, LUMINANCE and ALPHA, and the packed 16-bit types; 0 for any other pair. The
/// one rule for uploads and sub-uploads alike.
uint32_t gl_pixel_bytes(uint32_t format, uint32_t type);

/// A 2D texture object: its levels and sampler state.
struct GlTexture {
  uint64_t name = 0;     ///< the texture object's name in its context
  uint64_t version = 0;  ///< the call that last uploaded a level (0: never)
  std::vector<GlTexLevel> levels;
  uint32_t min_filter = 0x2702;  ///< GL_NEAREST_MIPMAP_LINEAR (the GL default)
  uint32_t mag_filter = 0x2601;  ///< GL_LINEAR
  uint32_t wrap_s = 0x2901, wrap_t = 0x2901;  ///< GL_REPEAT
  bool generate_mipmap = false;  ///< glGenerateMipmap was called after the last upload
};

/// A framebuffer object's attachments (0: none), as glFramebufferTexture2D/Renderbuffer set them.
struct GlFramebufferAttachments {
  uint64_t color_texture = 0, color_renderbuffer = 0;
  uint32_t color_level = 0;
  uint64_t depth_texture = 0, depth_renderbuffer = 0;
};

/// Where a draw or clear writes: the window or a framebuffer object, its buffers and size.
struct GlTarget {
  uint64_t framebuffer = 0;    ///< 0: the window (which has colour and depth)
  uint64_t color_texture = 0;  ///< the texture level COLOR_ATTACHMENT0 renders into (0: none, or a renderbuffer)
  uint32_t color_level = 0;
  uint64_t depth_texture = 0;  ///< the texture the depth attachment renders into (0: none, or a renderbuffer)
  bool color = true;           ///< a colour buffer is attached
  bool depth = true;           ///< a depth buffer is attached
  uint32_t width = 0, height = 0;  ///< the window's size (as glretrace infers it) or the attachments'
  bool color_float = false;    ///< the colour attachment is floating point (GL_RGBA16F, ...)
};

/// Fixed-function state a draw or clear reads.
struct GlFixed {
  bool depth_test = false, blend = false, cull = false, scissor_test = false;
  uint32_t depth_func = 0x0201;  ///< GL_LESS
  bool depth_mask = true;
  uint32_t blend_src_rgb = 1, blend_dst_rgb = 0, blend_src_alpha = 1, blend_dst_alpha = 0;  ///< GL_ONE, GL_ZERO
  uint32_t blend_equation = 0x8006;  ///< GL_FUNC_ADD
  uint32_t cull_face = 0x0405;       ///< GL_BACK
  uint32_t front_face = 0x0901;      ///< GL_CCW
  std::array<int32_t, 4> viewport{0, 0, 0, 0};
  std::array<float, 2> depth_range{0, 1};  ///< glDepthRange's near and far
  bool polygon_offset_fill = false;         ///< GL_POLYGON_OFFSET_FILL
  float polygon_offset_factor = 0, polygon_offset_units = 0;  ///< glPolygonOffset
  std::array<int32_t, 4> scissor{0, 0, 0, 0};
  std::array<bool, 4> color_mask{true, true, true, true};
  std::array<float, 4> clear_color{0, 0, 0, 0};
  float clear_depth = 1.0f;
  uint64_t framebuffer = 0;  ///< the bound draw framebuffer; 0 is the window
  GlTarget target;           ///< in a draw or clear: what that framebuffer is
};

/// A draw and everything it reads.
struct GlDraw {
  uint64_t call = 0;
  uint32_t mode = 0;          ///< GL_TRIANGLES, ...
  uint32_t first = 0;         ///< glDrawArrays' first vertex
  uint32_t count = 0;         ///< vertices or indices
  uint32_t index_type = 0;    ///< 0 for glDrawArrays, else GL_UNSIGNED_BYTE/SHORT/INT
  uint64_t index_offset = 0;  ///< into `indices`
  Bytes indices;
  std::shared_ptr<const GlProgram> program;  ///< null when no program is in use
  /// The program's uniforms by name, as it set them (shared between draws until one changes).
  std::shared_ptr<const std::map<std::string, std::vector<uint8_t>>> uniforms;
  std::map<int, GlAttrib> attribs;                        ///< by attribute index (enabled or current)
  std::map<int, std::shared_ptr<const GlTexture>> textures;  ///< by texture unit
  GlFixed fixed;
};

/// A glClear.
struct GlClear {
  uint64_t call = 0;
  uint32_t mask = 0;  ///< GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | ...
  GlFixed fixed;
};

/// A glBlitFramebuffer: a rectangle of the read framebuffer copied, scaled, to the draw one.
struct GlBlit {
  uint64_t call = 0;
  std::array<int32_t, 4> src{};  ///< srcX0, srcY0, srcX1, srcY1
  std::array<int32_t, 4> dst{};  ///< dstX0, dstY0, dstX1, dstY1
  uint32_t mask = 0;             ///< GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | ...
  bool linear = false;           ///< GL_LINEAR filtering (else GL_NEAREST)
  GlTarget read;                 ///< the read framebuffer
  GlFixed fixed;                 ///< the draw framebuffer in fixed.target; the scissor applies
};

/// One frame's work in order: each step a clear, a draw or a blit.
struct GlFrame {
  uint64_t first_call = 0;
  std::vector<std::variant<GlClear, GlDraw, GlBlit>> ops;
};

/// Follows GL state through a trace's calls and hands out finished frames.
class GlState {
 public:
  /// `path` names the trace in errors.
  explicit GlState(std::string path);
  ~GlState();
  GlState(const GlState&) = delete;
  GlState& operator=(const GlState&) = delete;
  /// Applies one call; returns true when it ended a frame (take it with take_frame()).
  bool apply(const trace::Call& c);
  /// The frame just ended.
  GlFrame take_frame();
  /// Whether clears and draws are recorded (the default). Off, the state is still followed but
  /// no snapshot shares a buffer, so uploads replace contents without copying them: skipping to
  /// a window of frames costs only the state's own upkeep.
  void set_recording(bool on);
  /// The calls seen so far that no reader of the GL call table knows (gl_calls.h), by name: they
  /// changed nothing strobe follows, which a frame that renders wrongly may owe to them.
  const std::map<std::string, uint64_t>& unknown_calls() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace strobe::gfx
