// The window's colour and depth share one RenderTarget; an attachment's surface is keyed by its
// texture (so any framebuffer that attaches the texture writes the same pixels) or, for a
// renderbuffer, by its framebuffer (a renderbuffer is never sampled). A surface whose size or
// colour type (unorm or float) changes starts again cleared, as a reallocated texture level does.
#include "gfx/pipeline/surfaces.h"

namespace strobe::gfx {

Surfaces::Key Surfaces::color_key(const GlTarget& t) {
  if (t.framebuffer == 0) return {Window, 0};
  return t.color_texture ? Key{ColorTexture, t.color_texture} : Key{ColorRenderbuffer, t.framebuffer};
}

Surfaces::Key Surfaces::depth_key(const GlTarget& t) {
  if (t.framebuffer == 0) return {Window, 0};
  return t.depth_texture ? Key{DepthTexture, t.depth_texture} : Key{DepthRenderbuffer, t.framebuffer};
}

RenderTarget* Surfaces::sized(Key k, const GlTarget& t) {
  if (t.width == 0 || t.height == 0) return nullptr;
  Surface& s = surfaces_[k];
  const bool is_float = k.first != Window && t.color_float;
  if (s.rt.width != int(t.width) || s.rt.height != int(t.height) || s.rt.is_float != is_float)
    s.rt = RenderTarget(int(t.width), int(t.height), is_float);
  return &s.rt;
}

RenderTarget* Surfaces::color(const GlTarget& t) { return t.color ? sized(color_key(t), t) : nullptr; }

RenderTarget* Surfaces::depth(const GlTarget& t) { return t.depth ? sized(depth_key(t), t) : nullptr; }

void Surfaces::wrote(const GlTarget& t, bool color, bool depth, uint64_t call) {
  if (color && t.color) surfaces_[color_key(t)].version = call;
  if (depth && t.depth) surfaces_[depth_key(t)].version = call;
}

const Surfaces::Surface* Surfaces::rendered(Key k, uint64_t upload_version) const {
  auto it = surfaces_.find(k);
  return it != surfaces_.end() && it->second.version > upload_version ? &it->second : nullptr;
}

const Surfaces::Surface* Surfaces::rendered_color(uint64_t name, uint64_t upload_version) const {
  return rendered({ColorTexture, name}, upload_version);
}

const Surfaces::Surface* Surfaces::rendered_depth(uint64_t name, uint64_t upload_version) const {
  return rendered({DepthTexture, name}, upload_version);
}

const RenderTarget& Surfaces::window() const {
  static const RenderTarget empty;
  auto it = surfaces_.find({Window, 0});
  return it == surfaces_.end() ? empty : it->second.rt;
}

}  // namespace strobe::gfx
