// The images a frame's clears and draws write: the window's colour and depth buffers and every
// framebuffer object's attachments. A texture attachment's surface is what a later draw samples
// when the rendering is newer than the texture's last upload (render to texture).
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "gfx/pipeline/render_target.h"
#include "gfx/stream/gl_state.h"

namespace strobe::gfx {

/// Render targets by the object that owns them, each with the call that last wrote it.
class Surfaces {
 public:
  /// The colour buffer `t` writes, sized to `t` (contents kept while the size holds); null when
  /// the target has none or is empty.
  RenderTarget* color(const GlTarget& t);
  /// The depth buffer `t` tests against, likewise.
  RenderTarget* depth(const GlTarget& t);
  /// Records that call `call` wrote `t`'s colour and/or depth.
  void wrote(const GlTarget& t, bool color, bool depth, uint64_t call);
  /// A render target and the call that last wrote it.
  struct Surface {
    RenderTarget rt;
    uint64_t version = 0;
  };
  /// Texture `name`'s rendered colour (or depth) when some call rendered into it after
  /// `upload_version` (the call of its last upload); else null.
  const Surface* rendered_color(uint64_t name, uint64_t upload_version) const;
  const Surface* rendered_depth(uint64_t name, uint64_t upload_version) const;
  /// The window's buffers (empty before the first draw or clear).
  const RenderTarget& window() const;

 private:
  enum Kind { Window, ColorTexture, DepthTexture, ColorRenderbuffer, DepthRenderbuffer };
  using Key = std::pair<Kind, uint64_t>;
  static Key color_key(const GlTarget& t);
  static Key depth_key(const GlTarget& t);
  RenderTarget* sized(Key k, const GlTarget& t);
  const Surface* rendered(Key k, uint64_t upload_version) const;
  std::map<Key, Surface> surfaces_;
};

}  // namespace strobe::gfx
